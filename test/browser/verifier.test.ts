/**
 * The browser verifier in real headless Chromium (Debian's `chromium`, driven by playwright-core;
 * never a downloaded browser), part 1: the built page runs the core's `verify` in a Web Worker on the
 * proof's bytes under a strict CSP, under the strict policy by default, shows custom trust settings
 * (from its link or its panel) as a non-green verdict, and names each failed check. Part 2, what a
 * reader sees and can do, is `verifier-reading.test.ts`. When chromium is missing this test fails
 * with a clear message (CI installs it).
 */
import type { Worker } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { verify } from '../../src/core/verify.js'
import { type Proof } from '../../src/core/proof.js'
import { makeProof, tamperBlock, tamperOutcome, tsaAt, withAlteredRecordSignature, withByte } from './fixtures.js'
import { INSECURE_HOST, loadProof, waitForVerdict } from './harness.js'
import { beaconOf, itMadeNoOtherRequests, useVerifierSuite, winnersOf } from './verifier-suite.js'

describe('browser verifier (headless Chromium): the page, trust and checks', () => {
  const suite = useVerifierSuite('main')
  const { web, failedChecks, shownWinners, tier, q, trustTestTsa, greenInsideVerdict } = suite
  let plain: Proof
  let signed: Proof
  let rsa: Proof
  beforeAll(() => {
    ;({ plain, signed, rsa } = suite)
  })

  it('builds one self-contained page: the core in a blob: worker, under a strict CSP', async () => {
    expect(web.built.worker.gzip).toBeGreaterThan(10_000)
    expect(web.built.js.min).toBeLessThan(64 * 1024) // the core is not on the main thread (nor the words: they are a script of their own)
    expect(web.built.words.min).toBeGreaterThan(10_000) // every language's words, once
    expect(web.built.page.min).toBeGreaterThan(web.built.js.min + web.built.worker.min)
    const csp = await web.page.goto(web.url).then(() => web.page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'))
    const directives = Object.fromEntries(csp!.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v.join(' ')]))
    expect(directives['default-src']).toBe("'none'")
    expect(directives['worker-src']).toBe('blob:')
    // two inline scripts, each by its hash: the page's words (shared with the worker) and the page's script
    expect(directives['script-src']).toMatch(/^'sha256-[A-Za-z0-9+/=]+' 'sha256-[A-Za-z0-9+/=]+'$/)
    expect(csp).not.toContain('unsafe')
    // the CSP really holds (on a page of its own: the refusals log errors): an injected inline script
    // and a data: worker are refused, while the page's own script and its blob: worker ran (above/below)
    const p2 = await web.browser.newPage()
    await p2.goto(web.url)
    const violations = await p2.evaluate(async () => {
      const seen: string[] = []
      document.addEventListener('securitypolicyviolation', (e) => seen.push(e.effectiveDirective))
      const s = document.createElement('script')
      s.textContent = 'document.body.dataset.injected = "yes"'
      document.body.append(s)
      try {
        new Worker('data:text/javascript,postMessage(1)')
      } catch {
        seen.push('worker-src (thrown)')
      }
      await new Promise((r) => setTimeout(r, 200))
      return { seen, injected: document.body.dataset.injected ?? 'no' }
    })
    await p2.close()
    expect(violations.injected).toBe('no')
    expect(violations.seen).toContain('script-src-elem')
    expect(violations.seen.some((d) => d.startsWith('worker-src'))).toBe(true)
  })

  it('strict default: a proof from an own (emulator-style) beacon fails beacon-trusted (and its untrusted time-stamp commitment-time)', async () => {
    await web.page.goto(web.url)
    await loadProof(web.page, signed, 'file')
    expect(await web.page.locator('#verdict-title').textContent()).toBe('Failed')
    expect(await tier()).toBe('failed')
    expect(await failedChecks()).toEqual(['beacon-trusted', 'commitment-time'])
    expect(await web.page.locator('#verdict-headline').textContent()).toBe('FAILED: beacon-trusted, commitment-time.')
    expect(await greenInsideVerdict()).toBe(0)
    expect(await web.page.locator('#auth').getAttribute('class')).toContain('auth-neutral')
    // facts first: the commitment CID to compare, the beacon in words, the target block and its time
    const facts = await web.page.locator('#verdict-facts li').allTextContents()
    expect(facts[0]).toBe(`Commitment ${signed.commitmentCid}: compare it with the organizer's announcement (made before the target block).`)
    expect(facts[1]).toMatch(/^Beacon: k51\S*, not one you trust\.$/)
    expect(facts[2]).toMatch(/^Target block 11: published \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(.+, your local time\)\.$/)
    expect(await web.page.locator('#outcome h2').textContent()).toContain('not verified')
    // nothing claimed that was not checked: the time-stamp check failed, so no "published before"
    const explain = await web.page.locator('#explain').textContent()
    expect(explain).not.toMatch(/published before|before its target block existed/)
  })

  it('strict default: an unsigned block naming the real Orbitport beacon fails beacon-authenticity', async () => {
    await web.page.goto(web.url)
    await loadProof(web.page, plain, 'paste')
    expect(await tier()).toBe('failed')
    expect(await failedChecks()).toEqual(['beacon-authenticity', 'commitment-time'])
    expect(await web.page.locator('#verdict-facts').textContent()).toContain('Beacon: Orbitport randomness beacon (k2k4r8lvom…)')
    expect(await web.page.locator('#auth').textContent()).toContain('Integrity only — no signed beacon record')
    // every check verify() runs in Node is listed, in order
    const node = await verify(plain)
    expect(await web.page.locator('#checks li').evaluateAll((els) => els.map((e) => e.getAttribute('data-check')))).toEqual(node.checks.map((c) => c.name))
    expect(await web.page.locator('[data-node="head"]').getAttribute('data-state')).toBe('absent')
  })

  it('?allow-unsigned=1&allow-untimestamped=1: not fully verified (never green), naming "unsigned" and what to check instead', async () => {
    await web.page.goto(q({ 'allow-unsigned': '1', 'allow-untimestamped': '1' }))
    expect(await web.page.locator('#trust').getAttribute('open')).not.toBeNull()
    expect(await web.page.locator('#allow-unsigned').isChecked()).toBe(true)
    await loadProof(web.page, plain, 'file')
    expect(await tier()).toBe('custom')
    expect(await web.page.locator('#verdict-title').textContent()).toBe('Not fully verified')
    expect(await web.page.locator('#verdict-headline').textContent()).toMatch(/^NOT FULLY VERIFIED/)
    expect(await web.page.locator('#verdict-facts').textContent()).toContain('Relaxed: unsigned blocks allowed')
    const setting = web.page.locator('#custom-settings li[data-setting="allow-unsigned"]')
    expect(await setting.getAttribute('data-origin')).toBe('link')
    expect(await setting.textContent()).toMatch(/Set by the link you opened: unsigned blocks are accepted.*Check instead: .*orbitdraw verify --online/)
    expect(await web.page.locator('#checks li[data-check="beacon-authenticity"]').getAttribute('data-relaxed')).toBe('allowUnsigned')
    expect(await failedChecks()).toEqual([])
    expect(await greenInsideVerdict()).toBe(0)
    expect(await web.page.locator('#outcome h2').textContent()).toContain('under custom trust settings')
  })

  it('?trust-beacon=NAME (and the test time-stamping root in the panel): verified under custom trust settings, not the green verdict', async () => {
    await web.page.goto(q({ 'trust-beacon': beaconOf(signed) }))
    await trustTestTsa()
    await loadProof(web.page, signed, 'file')
    expect(await tier()).toBe('custom')
    expect(await web.page.locator('#verdict-title').textContent()).toBe('Verified under custom trust settings')
    expect(await web.page.locator('#verdict-headline').textContent()).toMatch(/^VERIFIED UNDER CUSTOM TRUST SETTINGS/)
    expect(await web.page.locator('#custom-settings li[data-setting="trust-beacon"]').textContent()).toContain(`beacon ${beaconOf(signed)} is trusted in addition to Orbitport's`)
    expect(await web.page.locator('#custom-settings li[data-setting="trust-beacon"]').getAttribute('data-used')).toBe('true')
    expect(await web.page.locator('#verdict-facts').textContent()).toContain('added in your trust settings')
    expect(await failedChecks()).toEqual([])
    expect(await greenInsideVerdict()).toBe(0)
    expect(await shownWinners()).toEqual(winnersOf(signed))
    for (const key of ['commitment', 'after', 'target', 'head']) expect(await web.page.locator(`[data-node="${key}"]`).getAttribute('data-state'), key).toBe('ok')
    expect(await web.page.locator('.strip .chip:not(.gap)').count()).toBe(signed.chain.blocks.length)
  })

  it('the panel is equivalent to the link: the emulator beacon trusted there gives the same custom-trust verdict', async () => {
    await web.page.goto(q({ 'trust-beacon': beaconOf(signed) }))
    await trustTestTsa()
    await loadProof(web.page, signed, 'file')
    const verdictOf = async (): Promise<unknown> => ({
      title: await web.page.locator('#verdict-title').textContent(),
      headline: await web.page.locator('#verdict-headline').textContent(),
      facts: await web.page.locator('#verdict-facts').textContent(),
      checks: await web.page.locator('#checks li').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-check')}:${e.getAttribute('data-ok')}`)),
      setting: await web.page.locator('#custom-settings li[data-setting="trust-beacon"]').textContent().then((t) => t?.replace(/^Set (by the link you opened|in your trust settings): /, '')),
    })
    const byLink = await verdictOf()

    await web.page.goto(web.url)
    await trustTestTsa()
    await loadProof(web.page, signed, 'file')
    expect(await tier()).toBe('failed') // the beacon is not trusted yet
    await web.page.locator('#trust-beacons').fill(beaconOf(signed))
    expect(await web.page.locator('#trust-status').textContent()).toContain('Custom trust settings (2)')
    await web.page.evaluate(() => {
      document.body.dataset.state = 'loading'
    })
    await web.page.locator('#apply-trust').click()
    await waitForVerdict(web.page)
    expect(await tier()).toBe('custom')
    expect(await verdictOf()).toEqual(byLink)
    expect(await web.page.locator('#custom-settings li[data-setting="trust-beacon"]').getAttribute('data-origin')).toBe('panel')
  })

  it('a pinned commitment CID that does not match fails commitment-pinned; a matching one is named as pinned', async () => {
    const other = await makeProof({ label: 'another draw' })
    await web.page.goto(q({ commitment: other.commitmentCid, 'allow-unsigned': '1', 'allow-untimestamped': '1' }))
    await loadProof(web.page, plain, 'file')
    expect(await tier()).toBe('failed')
    expect(await failedChecks()).toEqual(['commitment-pinned'])
    await web.page.goto(q({ commitment: plain.commitmentCid, 'allow-unsigned': '1', 'allow-untimestamped': '1' }))
    await loadProof(web.page, plain, 'file')
    expect(await tier()).toBe('custom') // allow-unsigned, not the pin, keeps it from green
    const facts = await web.page.locator('#verdict-facts').textContent()
    expect(facts).toContain(`Commitment ${plain.commitmentCid}: the one you pinned.`)
    expect(facts).toContain('pinned by the link you opened')
  })

  it('refuses duplicate keys and invalid UTF-8 exactly as the library does (the worker gets the bytes)', async () => {
    const text = JSON.stringify(plain, null, 2)
    const duplicate = new TextEncoder().encode(text.replace('"type": "orbitdraw-proof",', '"type": "orbitdraw-proof",\n  "type": "orbitdraw-proof",'))
    const ff = withByte(plain, 'ada.lovelace@example.org', 0xff) // an FF byte inside an entry
    for (const bytes of [duplicate, ff]) {
      const lib = await verify(bytes)
      const bad = lib.checks.filter((c) => !c.ok)
      expect(bad.length).toBe(1)
      await web.page.goto(web.url)
      await loadProof(web.page, bytes, 'file')
      expect(await failedChecks()).toEqual([bad[0]!.name])
      expect(await web.page.locator(`#checks li[data-check="${bad[0]!.name}"] .check-detail`).textContent()).toBe(bad[0]!.detail)
    }
    expect((await verify(ff)).checks[0]!.detail).toContain('UTF-8')
    expect((await verify(duplicate)).checks[0]!.detail).toContain('twice')
  })

  it('checks an RSA-signed record (like the real beacon) inside the worker', async () => {
    expect(beaconOf(rsa)).toMatch(/^k2k4r8/)
    await web.page.goto(q({ 'trust-beacon': beaconOf(rsa) }))
    await trustTestTsa()
    await loadProof(web.page, rsa, 'file')
    expect(await tier()).toBe('custom')
    expect(await web.page.locator('#verdict').getAttribute('data-authenticated')).toBe('true')
    expect(await web.page.locator('#checks li[data-check="ipns-record-signature"]').textContent()).toContain('RSA')
  })

  it('gives the same verdict over plain http (an insecure context, no Web Crypto) as on a secure origin: RSA is pure JS (issue 23, item 4)', async () => {
    const verdictOf = async (p: typeof web.page): Promise<unknown> => ({
      tier: await tier(p),
      title: await p.locator('#verdict-title').textContent(),
      authenticated: await p.locator('#verdict').getAttribute('data-authenticated'),
      checks: await p.locator('#checks li').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-check')}:${e.getAttribute('data-ok')}`)),
    })
    const port = new URL(web.url).port
    const results: unknown[] = []
    for (const [origin, secure] of [[`http://127.0.0.1:${port}`, true], [`http://${INSECURE_HOST}:${port}`, false]] as const) {
      const p2 = await web.browser.newPage()
      try {
        await p2.goto(`${origin}/?trust-beacon=${beaconOf(rsa)}`)
        expect(await p2.evaluate(() => window.isSecureContext)).toBe(secure)
        expect(await p2.evaluate(() => globalThis.crypto?.subtle !== undefined)).toBe(secure)
        expect(await p2.locator('#insecure').count()).toBe(0) // no "cannot check here" banner: nothing needs Web Crypto
        await trustTestTsa(p2)
        // a genuine RSA-signed record: passes; the same proof with its record signature altered: fails
        await loadProof(p2, rsa, 'file')
        expect(await p2.locator('#result').getAttribute('data-web-crypto')).toBe(String(secure))
        const genuine = await verdictOf(p2)
        expect(genuine).toMatchObject({ tier: 'custom', authenticated: 'true' })
        expect(await failedChecks(p2)).toEqual([])
        await loadProof(p2, withAlteredRecordSignature(rsa), 'file')
        const altered = await verdictOf(p2)
        expect(await failedChecks(p2)).toContain('ipns-record-signature')
        expect(await p2.locator('#checks li[data-check="ipns-record-signature"]').textContent()).not.toMatch(/could not be checked/)
        results.push({ genuine, altered })
      } finally {
        await p2.close()
      }
    }
    expect(results[1]).toEqual(results[0])
  })

  it('shows the SHA-256 of its own file as the server sends it, equal to the build\'s (issue 26, item 4)', async () => {
    await web.page.goto(`${web.url}?commitment=bagu`)
    await web.page.locator('#page-hash-button').click()
    await web.page.waitForFunction(() => document.getElementById('page-hash')?.dataset.sha256 !== undefined)
    expect(await web.page.locator('#page-sha256').textContent()).toBe(web.built.digest.sha256)
    expect(await web.page.locator('#page-hash').textContent()).toContain('proves nothing alone')
    expect(await web.page.locator('footer').textContent()).toMatch(/orbitdraw \d+\.\d+\.\d+ verifier/)
  })

  it('loads a proof linked with ?proof=<url>, under the link’s trust settings', async () => {
    await web.page.goto(q({ proof: '/proofs/signed.json', 'trust-beacon': beaconOf(signed), 'allow-untimestamped': '1' }))
    await waitForVerdict(web.page)
    expect(await tier()).toBe('custom')
    expect(await web.page.locator('#verdict-title').textContent()).toBe('Not fully verified')
    expect(await web.page.locator('#source').textContent()).toContain('/proofs/signed.json')
  })

  it('ignores time-stamping roots in a link (trust anchors come from the reader), and says so', async () => {
    await web.page.goto(q({ 'trust-tsa': 'https://example.org/root.pem', 'allow-untimestamped': '1' }))
    expect(await web.page.locator('#trust-ignored').textContent()).toContain('trust-tsa: ignored')
    expect(await web.page.locator('#trust-tsa').inputValue()).toBe('')
    expect(await web.page.locator('#allow-untimestamped').isChecked()).toBe(true)
    await loadProof(web.page, plain, 'file')
    expect(await tier()).toBe('failed') // allow-untimestamped does not relax beacon-authenticity
    expect(await web.page.locator('#custom-settings li[data-setting="allow-untimestamped"]').textContent()).toContain('announced this commitment CID publicly before the target block')
    // a malformed PEM in the panel stops verification with a typed message, instead of being ignored
    await web.page.locator('#trust-tsa').fill('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----')
    expect(await web.page.locator('#trust-status').textContent()).toContain('no "-----BEGIN CERTIFICATE-----" block found')
    await web.page.locator('#apply-trust').click()
    expect(await tier()).toBe('failed') // unchanged: nothing re-verified
  })

  it('shows a changed outcome entry and a changed block byte as failed, naming the checks', async () => {
    const link = q({ 'trust-beacon': beaconOf(signed) })
    await web.page.goto(link)
    await trustTestTsa()
    await loadProof(web.page, tamperOutcome(signed), 'file')
    expect(await failedChecks()).toEqual(['outcome'])
    expect(await web.page.locator('[data-step="outcome"]').getAttribute('data-state')).toBe('fail')
    expect(await greenInsideVerdict()).toBe(0)
    await web.page.goto(link)
    await trustTestTsa()
    await loadProof(web.page, tamperBlock(signed), 'paste')
    expect(await failedChecks()).toEqual(['block-content'])
    expect(await web.page.locator('[data-node="target"]').getAttribute('data-state')).toBe('fail')
    expect(await web.page.locator('[data-node="head"]').getAttribute('data-state')).toBe('unchecked')
    expect(await web.page.locator('.strip .chip.corrupt').count()).toBe(1)
    expect(await web.page.locator('#auth').textContent()).toContain('Not authenticated')
  })

  it('commitment time: a time-stamp from a root the reader trusts passes and is stated first; a late one, one over another commitment, or an untrusted root fails commitment-time', async () => {
    const link = q({ 'trust-beacon': beaconOf(signed) })
    await web.page.goto(link)
    await trustTestTsa()
    await loadProof(web.page, signed, 'file')
    expect(await failedChecks()).toEqual([])
    expect(await web.page.locator('#checks li[data-check="commitment-time"]').getAttribute('data-ok')).toBe('true')
    expect(await web.page.locator('#verdict-facts').textContent()).toMatch(/Commitment time: time-stamped by orbitdraw emulator TSA at \S+ \S+ UTC \(.*, your local time\), 4 min 59 s before block 11\./)
    expect(await web.page.locator('[data-node="time"]').getAttribute('data-state')).toBe('ok')
    // late: the organizer had the commitment time-stamped after the target block existed
    const late = await makeProof({ signed: true, tsa: tsaAt(-60) })
    const other = await makeProof({ signed: true, label: 'another draw' })
    const foreign = { ...late, timestamps: other.timestamps }
    for (const [proof, why] of [[late, 'TIMESTAMP_LATE'], [foreign, 'imprint']] as const) {
      await web.page.goto(q({ 'trust-beacon': beaconOf(proof) }))
      await trustTestTsa()
      await loadProof(web.page, proof, 'file')
      expect(await failedChecks(), why).toEqual(['commitment-time'])
      expect(await tier()).toBe('failed')
      expect(await greenInsideVerdict()).toBe(0)
    }
    // the same valid proof without the reader trusting the root: commitment-time fails, naming how to trust it
    await web.page.goto(link)
    await loadProof(web.page, signed, 'file')
    expect(await failedChecks()).toEqual(['commitment-time'])
    expect(await web.page.locator('#checks li[data-check="commitment-time"] .check-detail').textContent()).toContain('--trust-tsa')
  })

  itMadeNoOtherRequests(suite)
})
