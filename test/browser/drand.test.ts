/**
 * A mixed (protocol v2) proof in the browser verifier (headless Chromium): drand's real quicknet round
 * under the page's default drand trust verifies with the either-honest sources line; a tampered drand
 * signature fails `drand-signature`; a round other than the committed one fails `drand-round`. The
 * pairing code (BLS12-381) is a second worker, started for a mixed proof only: a version 1 proof never
 * starts it. Another drand chain is trusted through the trust panel's drand field, as strictly as
 * `orbitdraw verify --trust-drand INFO.json`.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Proof } from '../../src/core/proof.js'
import { drandInfoJson } from '../../src/core/drand/chain.js'
import { COMMIT_TSA, DRAND, mixedProof, quicknetProof, singleProof } from '../helpers/mixed.js'
import { loadProof } from './harness.js'
import { useVerifierPage } from './page-fixture.js'

describe('browser verifier: a mixed draw (headless Chromium)', () => {
  let mixed: { proof: Proof; beacon: string; tsaRootPem: string }
  beforeAll(async () => {
    mixed = await quicknetProof()
  })
  const web = useVerifierPage({ name: 'drand' })
  const failedChecks = (): Promise<string[]> => web.page.locator('#checks li[data-check][data-ok="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check') ?? ''))
  /** Opens a fresh page trusting `beacon` (link) and the time-stamping root `pem` (panel), counting the workers it starts. */
  const openPage = async (beacon: string, pem: string): Promise<{ workers: string[] }> => {
    const workers: string[] = []
    const page = web.page
    await page.goto(`${web.url}?${new URLSearchParams({ 'trust-beacon': beacon }).toString()}`)
    page.removeAllListeners('worker')
    page.on('worker', (w) => workers.push(w.url()))
    if ((await page.locator('#trust').getAttribute('open')) === null) await page.locator('#trust summary').click()
    await page.locator('#trust-tsa').fill(pem)
    return { workers }
  }
  const open = async (proof: unknown): Promise<{ workers: string[] }> => {
    const seen = await openPage(mixed.beacon, mixed.tsaRootPem)
    await loadProof(web.page, proof, 'file')
    return seen
  }
  const pairingStarted = (): Promise<string | null> => web.page.evaluate(() => document.body.dataset.pairing ?? null)

  it('verifies, saying the outcome is unbiased unless both Orbitport and drand are dishonest, in the pairing worker', async () => {
    const seen = await open(mixed.proof)
    expect(await failedChecks()).toEqual([])
    const text = (await web.page.locator('#verdict').textContent()) ?? ''
    expect(text).toMatch(/unbiased unless both Orbitport and drand are dishonest/)
    expect(await web.page.locator('#checks li[data-check="source-order"]').getAttribute('data-ok')).toBe('true')
    expect(await web.page.locator('#checks li[data-check="drand-signature"]').getAttribute('data-ok')).toBe('true')
    // the pairing code ran in its own worker, started for this proof
    expect(await pairingStarted()).toBe('started')
    expect(seen.workers.length).toBe(2)
  })

  it('a version 1 proof never starts the pairing worker', async () => {
    const single = await singleProof()
    const beacon = (single.proof.commitment as { beacon: string }).beacon
    const seen = await openPage(beacon, COMMIT_TSA.rootPem)
    await loadProof(web.page, single.proof, 'file')
    expect(await failedChecks()).toEqual([])
    expect(await web.page.locator('#checks li[data-check^="drand"]').count()).toBe(0)
    expect(await pairingStarted()).toBeNull()
    expect(seen.workers.length).toBe(1)
  })

  it('a tampered drand signature fails drand-signature; another round fails drand-round', async () => {
    const sig = mixed.proof.drand!.signature
    await open({ ...mixed.proof, drand: { ...mixed.proof.drand!, signature: sig.slice(0, 94) + (sig.endsWith('7b') ? '7c' : '7b') } })
    expect(await failedChecks()).toEqual(['drand-signature'])
    await open({ ...mixed.proof, drand: { ...mixed.proof.drand!, round: 657414 } })
    expect(await failedChecks()).toEqual(['drand-round'])
  })

  it('another drand chain: untrusted by default, trusted by pasting its /info JSON in the trust panel (named in the verdict)', async () => {
    const { proof } = await mixedProof()
    const beacon = (proof.commitment as { beacon: string }).beacon
    await openPage(beacon, COMMIT_TSA.rootPem)
    await loadProof(web.page, proof, 'file')
    expect(await failedChecks()).toEqual(['drand-chain-trusted'])

    await web.page.locator('#trust-drand').fill(JSON.stringify(drandInfoJson(DRAND), null, 2))
    await web.page.evaluate(() => {
      document.body.dataset.state = 'loading'
    })
    await web.page.locator('#apply-trust').click()
    await web.page.waitForFunction(() => ['verified', 'custom', 'failed', 'error'].includes(document.body.dataset.state ?? ''))
    expect(await failedChecks()).toEqual([])
    const setting = web.page.locator('#custom-settings li[data-setting="trust-drand"]')
    expect(await setting.getAttribute('data-used')).toBe('true')
    expect(await setting.textContent()).toContain(DRAND.hash)
    expect(await web.page.locator('#verdict').getAttribute('data-tier')).toBe('custom')
  })

  it('refuses a drand chain info whose chain hash does not match, as --trust-drand does, and verifies nothing', async () => {
    const info = { ...drandInfoJson(DRAND), period: 4 }
    await openPage(mixed.beacon, mixed.tsaRootPem)
    await web.page.locator('#trust-drand').fill(JSON.stringify(info))
    const status = (await web.page.locator('#trust-status').textContent()) ?? ''
    expect(status).toMatch(/is not the hash of the chain's info/)
    expect(await web.page.locator('#trust-status').getAttribute('class')).toContain('error')
    await web.page.locator('#trust-drand').fill('{"public_key": ')
    expect(await web.page.locator('#trust-status').textContent()).toMatch(/not JSON/)
    // a link cannot set it
    await web.page.goto(`${web.url}?trust-drand=x`)
    expect(await web.page.locator('#trust-ignored').textContent()).toMatch(/trust-drand: ignored/)
  })
})
