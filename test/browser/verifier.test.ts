/**
 * The browser verifier in real headless Chromium (Debian's `chromium`, driven by playwright-core;
 * never a downloaded browser): the built page verifies a valid proof and names the failed checks of
 * tampered ones. When chromium is missing this test fails with a clear message (CI installs it).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verify, type Proof } from '../../src/core/index.js'
import { buildVerifier, type BuildVerifierResult } from '../../scripts/build-verifier.js'
import { makeProof, PARTICIPANTS, tamperBlock, tamperOutcome } from './fixtures.js'
import { launchChromium, loadProof, serveDir } from './harness.js'

const winnersOf = (p: Proof): string[] => (p.outcome.kind === 'pick' ? p.outcome.winners.map((w) => w.entry) : [])

describe('browser verifier (headless Chromium)', () => {
  let outDir: string
  let built: BuildVerifierResult
  let server: Awaited<ReturnType<typeof serveDir>> | undefined
  let browser: Browser | undefined
  let page: Page
  let plain: Proof
  let signed: Proof
  let rsa: Proof
  const pageErrors: string[] = []
  const requests: string[] = []

  beforeAll(async () => {
    // Build into a temporary directory so the test never races a developer's dist/.
    outDir = await mkdtemp(join(tmpdir(), 'orbitdraw-verifier-'))
    ;[built, plain, signed, rsa] = await Promise.all([buildVerifier({ outDir }), makeProof(), makeProof({ signed: true }), makeProof({ signed: 'RSA' })])
    server = await serveDir(dirname(built.htmlPath), { '/proofs/signed.json': JSON.stringify(signed) })
    browser = await launchChromium()
    page = await browser.newPage()
    page.on('pageerror', (e) => pageErrors.push(String(e)))
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text())
    })
    page.on('request', (r) => requests.push(r.url()))
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    if (outDir !== undefined) await rm(outDir, { recursive: true, force: true })
  })

  const failedChecks = (): Promise<string[]> => page.locator('#checks li[data-ok="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check') ?? ''))
  const shownWinners = (): Promise<string[]> => page.locator('#outcome tr.winner td.entry').allTextContents()

  it('builds one self-contained page', () => {
    expect(built.js.gzip).toBeGreaterThan(10_000)
    expect(built.page.min).toBeGreaterThan(built.js.min)
  })

  it('shows a valid pasted proof as verified, integrity only, with its winners', async () => {
    await page.goto(server!.url)
    await loadProof(page, plain, 'paste')
    await expect.poll(() => page.locator('#verdict-title').textContent()).toBe('Verified')
    expect(await page.locator('#verdict').getAttribute('data-ok')).toBe('true')
    expect(await page.locator('#auth').textContent()).toContain('Integrity only — no signed beacon record')
    expect(await shownWinners()).toEqual(winnersOf(plain))
    expect(await failedChecks()).toEqual([])
    // every check verify() ran in Node is listed with its mark, in order
    const node = await verify(plain)
    expect(await page.locator('#checks li').evaluateAll((els) => els.map((e) => e.getAttribute('data-check')))).toEqual(node.checks.map((c) => c.name))
    expect(await page.locator('#notes').textContent()).toContain('no IPNS record')
    expect(await page.locator('[data-node="head"]').getAttribute('data-state')).toBe('absent')
  })

  it('shows a signed multi-block proof from a file as authenticated, with the chain pictured', async () => {
    await page.goto(server!.url)
    await loadProof(page, signed, 'file')
    expect(await page.locator('#verdict-title').textContent()).toBe('Verified')
    expect(await page.locator('#verdict').getAttribute('data-authenticated')).toBe('true')
    expect(await page.locator('#auth').textContent()).toContain('Authenticated by the beacon’s signed IPNS record')
    expect(await shownWinners()).toEqual(winnersOf(signed))
    for (const key of ['commitment', 'after', 'target', 'head']) expect(await page.locator(`[data-node="${key}"]`).getAttribute('data-state'), key).toBe('ok')
    expect(await page.locator('.link[data-state="ok"]').count()).toBe(3)
    expect(await page.locator('[data-node="head"]').textContent()).toContain(`/ipfs/${signed.chain.blocks[0]!.cid}`)
    expect(await page.locator('.strip .chip:not(.gap)').count()).toBe(signed.chain.blocks.length)
  })

  it('checks an RSA-signed record (like the real beacon) with the browser’s WebCrypto', async () => {
    expect(rsa.commitment.beacon).toMatch(/^k2k4r8/)
    await page.goto(server!.url)
    await loadProof(page, rsa, 'file')
    expect(await page.locator('#verdict-title').textContent()).toBe('Verified')
    expect(await page.locator('#verdict').getAttribute('data-authenticated')).toBe('true')
    expect(await page.locator('#checks li[data-check="ipns-record-signature"]').textContent()).toContain('RSA')
  })

  it('without Web Crypto (plain-http hosting), warns instead of silently calling an RSA record forged', async () => {
    const ctx = await browser!.newContext()
    try {
      await ctx.addInitScript(() => Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined }))
      const p2 = await ctx.newPage()
      await p2.goto(server!.url)
      expect(await p2.locator('#insecure').textContent()).toContain('Web Crypto')
      await loadProof(p2, rsa, 'file')
      expect(await p2.locator('#verdict-title').textContent()).toBe('Failed')
      expect(await p2.locator('#webcrypto-warning').count()).toBe(1)
    } finally {
      await ctx.close()
    }
  })

  it('loads a proof linked with ?proof=<url>', async () => {
    await page.goto(`${server!.url}?proof=${encodeURIComponent('/proofs/signed.json')}`)
    await page.waitForFunction(() => document.body.dataset.state === 'verified' || document.body.dataset.state === 'failed' || document.body.dataset.state === 'error')
    expect(await page.locator('#verdict-title').textContent()).toBe('Verified')
    expect(await page.locator('#source').textContent()).toContain('/proofs/signed.json')
  })

  it('shows a proof with a changed outcome entry as failed, naming the outcome check', async () => {
    const bad = tamperOutcome(signed)
    await page.goto(server!.url)
    await loadProof(page, bad, 'file')
    expect(await page.locator('#verdict-title').textContent()).toBe('Failed')
    expect(await failedChecks()).toEqual(['outcome'])
    expect(await page.locator('#verdict').textContent()).toContain('outcome')
    expect(await page.locator('#outcome h2').textContent()).toContain('not verified')
    expect(await page.locator('[data-step="outcome"]').getAttribute('data-state')).toBe('fail')
  })

  it('shows a proof with a changed block byte as failed, naming block-content, and pictures the broken link', async () => {
    await page.goto(server!.url)
    await loadProof(page, tamperBlock(signed), 'paste')
    expect(await page.locator('#verdict-title').textContent()).toBe('Failed')
    expect(await failedChecks()).toEqual(['block-content'])
    expect(await page.locator('[data-node="target"]').getAttribute('data-state')).toBe('fail')
    expect(await page.locator('[data-node="head"]').getAttribute('data-state')).toBe('unchecked')
    expect(await page.locator('.strip .chip.corrupt').count()).toBe(1)
    expect(await page.locator('#auth').textContent()).toContain('Not authenticated')
  })

  it('shows garbage as failed without crashing, and never interprets entries as HTML', async () => {
    await page.goto(server!.url)
    await loadProof(page, '{"not": "a proof"', 'paste')
    expect(await page.locator('#verdict-title').textContent()).toBe('Failed')
    expect(await failedChecks()).toEqual(['format'])
    // PARTICIPANTS holds an entry with markup; make it a winner and check it is shown as text
    const marked = PARTICIPANTS.find((e) => e.includes('<b>'))!
    const p = structuredClone(plain) as unknown as { outcome: { winners: { entry: string }[] } }
    p.outcome.winners[0]!.entry = marked
    await page.goto(server!.url)
    await loadProof(page, p, 'paste')
    expect(await page.locator('#outcome b').count()).toBe(0)
    expect(await shownWinners()).toContain(marked)
  })

  it('made no request beyond the page itself and the linked proof, and logged no errors', () => {
    const origin = new URL(server!.url).origin
    expect(requests.filter((u) => !u.startsWith(origin))).toEqual([])
    expect(pageErrors).toEqual([])
  })
})
