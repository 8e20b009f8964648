/**
 * A mixed (protocol v2) proof in the browser verifier (headless Chromium): drand's real quicknet round
 * under the page's default drand trust verifies with the either-honest sources line; a tampered drand
 * signature fails `drand-signature`; a round other than the committed one fails `drand-round`.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Proof } from '../../src/core/proof.js'
import { quicknetProof } from '../helpers/mixed.js'
import { loadProof } from './harness.js'
import { useVerifierPage } from './page-fixture.js'

describe('browser verifier: a mixed draw (headless Chromium)', () => {
  let mixed: { proof: Proof; beacon: string; tsaRootPem: string }
  beforeAll(async () => {
    mixed = await quicknetProof()
  })
  const web = useVerifierPage({ name: 'drand' })
  const failedChecks = (): Promise<string[]> => web.page.locator('#checks li[data-ok="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check') ?? ''))
  const open = async (proof: unknown): Promise<void> => {
    await web.page.goto(`${web.url}?${new URLSearchParams({ 'trust-beacon': mixed.beacon }).toString()}`)
    if ((await web.page.locator('#trust').getAttribute('open')) === null) await web.page.locator('#trust summary').click()
    await web.page.locator('#trust-tsa').fill(mixed.tsaRootPem)
    await loadProof(web.page, proof, 'file')
  }

  it('verifies, saying the outcome is unbiased unless both Orbitport and drand are dishonest', async () => {
    await open(mixed.proof)
    expect(await failedChecks()).toEqual([])
    const text = (await web.page.locator('#verdict').textContent()) ?? ''
    expect(text).toMatch(/unbiased unless both Orbitport and drand are dishonest/)
    expect(await web.page.locator('#checks li[data-check="source-order"]').getAttribute('data-ok')).toBe('true')
  })

  it('a tampered drand signature fails drand-signature; another round fails drand-round', async () => {
    const sig = mixed.proof.drand!.signature
    await open({ ...mixed.proof, drand: { ...mixed.proof.drand!, signature: sig.slice(0, 94) + (sig.endsWith('7b') ? '7c' : '7b') } })
    expect(await failedChecks()).toEqual(['drand-signature'])
    await open({ ...mixed.proof, drand: { ...mixed.proof.drand!, round: 657414 } })
    expect(await failedChecks()).toEqual(['drand-round'])
  })
})
