/**
 * The browser verifier in real headless Chromium (Debian's `chromium`, driven by playwright-core;
 * never a downloaded browser): the built page runs the core's `verify` in a Web Worker on the
 * proof's bytes, under the strict policy by default, shows custom trust settings (from its link or
 * its panel) as a non-green verdict, and stays responsive while it works. When chromium is missing
 * this test fails with a clear message (CI installs it).
 */
import type { Worker } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { CID } from 'multiformats/cid'
import { bytesToBase64 } from '../../src/core/bytes.js'
import { commit } from '../../src/core/commitment.js'
import { commitmentFile } from '../../src/core/commitment-file.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { makeReceipts, serializeReceipt } from '../../src/core/receipt.js'
import { verify } from '../../src/core/verify.js'
import { type Proof } from '../../src/core/proof.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { makeBigProof, makeProof, PARTICIPANTS, tamperBlock, tamperOutcome, TEST_TSA, tsaAt, withAlteredRecordSignature, withByte } from './fixtures.js'
import { INSECURE_HOST, loadProof, waitForVerdict } from './harness.js'
import { useVerifierPage } from './page-fixture.js'

const beaconOf = (p: Proof): string => (p.commitment as { beacon: string }).beacon
const winnersOf = (p: Proof): string[] => (p.outcome.kind === 'pick' ? p.outcome.winners.map((w) => w.entry) : [])

describe('browser verifier (headless Chromium)', () => {
  let plain: Proof // unsigned, naming the real Orbitport beacon: a forgery under the strict policy
  let signed: Proof // signed by a throwaway Ed25519 beacon key: a beacon nobody trusts by default
  let rsa: Proof
  const requests: string[] = []

  beforeAll(async () => {
    ;[plain, signed, rsa] = await Promise.all([makeProof(), makeProof({ signed: true }), makeProof({ signed: 'RSA' })])
  })
  const web = useVerifierPage({ name: 'main', files: () => ({ '/proofs/signed.json': JSON.stringify(signed) }) })
  beforeAll(() => {
    const { built } = web
    console.log(`verifier page: ${(built.page.gzip / 1024).toFixed(1)} KiB min+gzip (page script ${(built.js.gzip / 1024).toFixed(1)}, worker ${(built.worker.gzip / 1024).toFixed(1)})`)
    web.page.on('console', (m) => {
      if (m.type() === 'error') web.pageErrors.push(m.text())
    })
    web.page.on('request', (r) => requests.push(r.url()))
  })

  const failedChecks = (p = web.page): Promise<string[]> => p.locator('#checks li[data-ok="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check') ?? ''))
  const shownWinners = (): Promise<string[]> => web.page.locator('#outcome tr.winner td.entry').allTextContents()
  const tier = (p = web.page): Promise<string | null> => p.locator('#verdict').getAttribute('data-tier')
  const q = (params: Record<string, string | string[]>): string => {
    const s = new URLSearchParams()
    for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) s.append(k, x)
    return `${web.url}?${s.toString()}`
  }
  /** The reader trusts the fixtures' test time-stamping root, in the trust panel (roots never come from a link). */
  const trustTestTsa = async (p = web.page): Promise<void> => {
    if ((await p.locator('#trust').getAttribute('open')) === null) await p.locator('#trust summary').click()
    await p.locator('#trust-tsa').fill(TEST_TSA.rootPem)
  }
  /** No green element (verdict, pill, badge) inside a verdict box that is not the green one. */
  const greenInsideVerdict = (): Promise<number> => web.page.locator('#verdict .auth-yes, #verdict .state-ok, #verdict.verdict-verified').count()

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

  it('private lists: a receipt that checks ("you were in the draw" only once the reader pinned the CID, never on a link\'s pin), one that does not, and a private proof revealing one winner twice', async () => {
    const chain = buildChain(14, 'browser')
    const secret = new Uint8Array(32).fill(5)
    const committed = commit({ beacon: BEACON_NAME, target: 11, after: { sequence: 8, block: chain[8]!.cid }, participants: PARTICIPANTS, draw: { kind: 'pick', count: 2 }, label: 'private raffle', private: { secret } })
    const receipt = makeReceipts(committed, PARTICIPANTS, secret).receiptFor(3)
    await web.page.goto(web.url)
    await loadProof(web.page, serializeReceipt(receipt), 'file', 'receipt.json')
    expect(await web.page.locator('#verdict').getAttribute('data-kind')).toBe('receipt')
    expect(await tier()).toBe('custom') // in the list, but the reader has not compared the CID yet
    expect(await web.page.locator('#verdict-facts').textContent()).toContain(`Commitment ${committed.cid}: compare it with the organizer's announcement`)
    expect(await web.page.locator('#verdict-facts').textContent()).toContain(`${PARTICIPANTS[3]} at position 4 of ${PARTICIPANTS.length}`)
    expect(await failedChecks()).toEqual([])
    // a CID pinned by the link's ?commitment= is the sender's word: never green (issue 23, item 2)
    await web.page.goto(q({ commitment: committed.cid }))
    await loadProof(web.page, serializeReceipt(receipt), 'file', 'receipt.json')
    expect(await tier()).toBe('custom')
    expect(await web.page.locator('#verdict-title').textContent()).not.toBe('You were in the draw')
    expect(await web.page.locator('#verdict-facts').textContent()).toContain('pinned by the link you opened, not by you')
    expect(await web.page.locator('#verdict-facts').textContent()).not.toContain('the one you pinned')
    expect(await web.page.locator('#verdict .auth-yes, #verdict.verdict-verified').count()).toBe(0)
    // the reader pins it themselves in the trust panel: green
    await web.page.goto(web.url)
    await loadProof(web.page, serializeReceipt(receipt), 'file', 'receipt.json')
    await web.page.locator('#trust summary').click()
    await web.page.locator('#pin').fill(committed.cid)
    await web.page.evaluate(() => {
      document.body.dataset.state = 'loading'
    })
    await web.page.locator('#apply-trust').click()
    await waitForVerdict(web.page)
    expect(await tier()).toBe('verified')
    expect(await web.page.locator('#verdict-title').textContent()).toBe('You were in the draw')
    expect(await web.page.locator('#verdict-facts').textContent()).toContain('the one you pinned')
    // a receipt whose salt was changed (it would prove nothing about the list): red, naming the check
    const forged = { ...receipt, salt: receipt.salt.replace(/^./, (c) => (c === '0' ? '1' : '0')) }
    await web.page.goto(web.url)
    await loadProof(web.page, JSON.stringify(forged), 'file', 'receipt.json')
    expect(await tier()).toBe('failed')
    expect(await failedChecks()).toEqual(['inclusion'])
    // a private proof that reveals the same winner twice fails distinct-winners
    const drawn = drawFromBlock(committed.commitment, PARTICIPANTS, chain[11]!, { disclosure: 'winners', secret })
    const revealed = drawn.participants?.disclosure === 'winners' ? drawn.participants.revealed : []
    const twice = { ...drawn, participants: { disclosure: 'winners', revealed: [revealed[0]!, revealed[0]!] }, chain: { blocks: [{ cid: chain[11]!.cid, bytes: Buffer.from(chain[11]!.bytes).toString('base64') }] } }
    await web.page.goto(q({ 'allow-unsigned': '1', 'allow-untimestamped': '1' }))
    await loadProof(web.page, twice, 'file')
    expect(await tier()).toBe('failed')
    expect(await failedChecks()).toContain('distinct-winners')
  })

  it('reads plainly: the failed verdict says what is wrong first, with no green inside it; weighted winners show their weights; a private proof says only the winners are revealed', async () => {
    await web.page.goto(q({ 'trust-beacon': beaconOf(signed) }))
    await trustTestTsa()
    const tampered = tamperOutcome(signed)
    await loadProof(web.page, tampered, 'file')
    const winners = winnersOf(signed)
    const claimed = winnersOf(tampered)
    expect(await tier()).toBe('failed')
    const reason = await web.page.locator('#verdict-reason').textContent()
    expect(reason).toBe('The outcome in the file is not the one the block decides.')
    // the check's own finding, one click away under the reason
    expect(await web.page.locator('#verdict-reason-detail').textContent()).toContain(`rank 1 should be ${JSON.stringify(winners[0])} (index ${PARTICIPANTS.indexOf(winners[0]!)}); the proof claims ${JSON.stringify(claimed[0])} (rank 1, index ${PARTICIPANTS.indexOf(claimed[0]!)})`)
    // the reason comes right after the title, before the headline and the facts
    expect(await web.page.locator('#verdict .verdict-body > *').evaluateAll((els) => els.map((e) => e.id).slice(0, 4))).toEqual(['verdict-title', 'verdict-reason', 'verdict-reason-detail', 'verdict-headline'])
    expect(await greenInsideVerdict()).toBe(0)
    // positions are 1-based for people
    expect(await web.page.locator('#outcome tr.winner td.index').first().textContent()).toBe(String(PARTICIPANTS.indexOf(claimed[0]!) + 1))

    // a weighted draw: each winner with its weight, the list's total weight in the summary
    const chain = buildChain(14, 'browser')
    const weightedList = PARTICIPANTS.map((entry, i) => ({ entry, weight: (i % 4) + 1 }))
    const w = commit({ beacon: BEACON_NAME, target: 11, after: { sequence: 8, block: chain[8]!.cid }, participants: weightedList, draw: { kind: 'weighted', count: 3 }, label: 'tickets' })
    const wProof = drawFromBlock(w.commitment, weightedList, chain[11]!)
    await web.page.goto(q({ 'allow-unsigned': '1', 'allow-untimestamped': '1' }))
    await loadProof(web.page, wProof, 'file')
    expect(await tier()).toBe('custom')
    const rows = await web.page.locator('#outcome tr.winner').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('td.entry')?.textContent, tr.querySelector('td.weight')?.textContent]))
    const expected = wProof.outcome.kind === 'weighted' ? wProof.outcome.winners.map((x) => [x.entry, String(weightedList[x.index]!.weight)]) : []
    expect(rows).toEqual(expected)
    expect(await web.page.locator('#outcome th.weight').textContent()).toBe('Weight')
    const total = weightedList.reduce((a, b) => a + b.weight, 0)
    expect(await web.page.locator('#participants-summary').textContent()).toBe(`${PARTICIPANTS.length} entries, all published in the proof, total weight ${total} (search them below)`)

    // a private proof: the reader is told only the winners are revealed, and no search is offered
    const secret = new Uint8Array(32).fill(9)
    const priv = commit({ beacon: BEACON_NAME, target: 11, after: { sequence: 8, block: chain[8]!.cid }, participants: PARTICIPANTS, draw: { kind: 'pick', count: 2 }, label: 'private', private: { secret } })
    const privProof = drawFromBlock(priv.commitment, PARTICIPANTS, chain[11]!, { disclosure: 'winners', secret })
    await web.page.goto(q({ 'allow-unsigned': '1', 'allow-untimestamped': '1' }))
    await loadProof(web.page, privProof, 'file')
    expect(await web.page.locator('#participants-summary').textContent()).toBe(`private draw: ${PARTICIPANTS.length} entries, only the winners are revealed`)
    expect(await web.page.locator('#search').count()).toBe(0)
  })

  it('a full disclosure answers "was I in the draw?" from the worker (case-insensitive, 1-based positions, winners ranked); a 390 px screen never scrolls sideways', async () => {
    await web.page.goto(q({ 'trust-beacon': beaconOf(signed) }))
    await trustTestTsa()
    await loadProof(web.page, signed, 'file')
    expect(await tier()).toBe('custom')
    const search = web.page.locator('#entry-search')
    // part of a winner's name, typed in another case
    const winner = winnersOf(signed)[0]!
    const part = winner.slice(0, 5).toUpperCase()
    await search.fill(part)
    await web.page.locator('#entry-search-results li').first().waitFor()
    const matches = PARTICIPANTS.map((e, i) => [e, i + 1] as const).filter(([e]) => e.toLowerCase().includes(part.toLowerCase()))
    expect(await web.page.locator('#entry-search-results li').evaluateAll((lis) => lis.map((li) => Number(li.getAttribute('data-position'))))).toEqual(matches.map(([, pos]) => pos))
    expect(await web.page.locator(`#entry-search-results li[data-position="${PARTICIPANTS.indexOf(winner) + 1}"] .tag-rank`).textContent()).toBe(' rank #1')
    await search.fill('nobody-has-this-name')
    await expect.poll(() => web.page.locator('#entry-search-status').textContent()).toBe('No entry contains that text.')
    expect(await web.page.locator('#entry-search-results li').count()).toBe(0)

    // 390 px: the whole report, including the evidence picture, the search and a failed verdict, fits the width
    const phone = await web.browser.newPage({ viewport: { width: 390, height: 844 } })
    try {
      for (const proof of [signed, tamperOutcome(signed)]) {
        await phone.goto(q({ 'trust-beacon': beaconOf(signed) }))
        await trustTestTsa(phone)
        await loadProof(phone, proof, 'file')
        // The widest elements are named in the failure message, so a regression says where it is.
        const layout = await phone.evaluate(() => ({
          width: document.documentElement.scrollWidth,
          wide: [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > 390.5 && e.getClientRects().length > 0)
            .slice(0, 8)
            .map((e) => `${e.tagName.toLowerCase()}${e.id === '' ? '' : `#${e.id}`}.${[...e.classList].join('.')} → ${Math.round(e.getBoundingClientRect().right)}px`),
        }))
        expect(layout.width, layout.wide.join('\n')).toBeLessThanOrEqual(390)
        // the verdict (title, facts, the link's and the panel's settings with what to check) fits one screen (issue 26, item 6)
        expect(await phone.locator('#verdict').evaluate((e) => e.getBoundingClientRect().height)).toBeLessThanOrEqual(844)
      }
    } finally {
      await phone.close()
    }
  })

  it('explains a dropped commitment (file or bare) as inspect does, instead of "Not a readable proof" (issue 26, item 6)', async () => {
    const chain = buildChain(14, 'browser')
    const committed = commit({ beacon: BEACON_NAME, target: 11, after: { sequence: 8, block: chain[8]!.cid }, participants: PARTICIPANTS, draw: { kind: 'pick', count: 3 }, label: 'Spring raffle <b>' })
    const token = bytesToBase64(TEST_TSA.issue(CID.parse(committed.cid).multihash.digest))
    await web.page.goto(web.url)
    for (const [doc, tokens] of [[commitmentFile(committed, [token]), 1], [committed.json, 0]] as const) {
      await loadProof(web.page, doc, 'file', 'commitment.json')
      expect(await web.page.locator('#verdict').getAttribute('data-kind')).toBe('commitment')
      expect(await web.page.locator('#verdict-title').textContent()).toBe('This is a commitment, not a proof')
      expect(await web.page.locator('#verdict-title').textContent()).not.toContain('Not a readable proof')
      const facts = await web.page.locator('#commitment-facts').textContent()
      expect(facts).toContain(committed.cid)
      expect(facts).toContain('Spring raffle <b>') // text, never markup
      expect(facts).toContain(`${PARTICIPANTS.length} entries`)
      expect(facts).toContain('Target block11 (3 blocks later)')
      expect(facts).toContain(tokens === 1 ? '(claimed, not checked)' : 'none carried')
      expect(await web.page.locator('#verdict-facts').textContent()).toContain(`Compare the CID ${committed.cid}`)
      expect(await web.page.locator('#commitment-facts b').count()).toBe(0)
      expect(await greenInsideVerdict()).toBe(0)
    }
    // a commitment file whose CID was edited is not read as one: verify names it unreadable
    await loadProof(web.page, { ...commitmentFile(committed, []), cid: plain.commitmentCid }, 'file', 'commitment.json')
    expect(await web.page.locator('#verdict').getAttribute('data-kind')).toBeNull()
    expect(await web.page.locator('#verdict-title').textContent()).toBe('Not a readable proof')
  })

  it('speaks French with ?lang=fr or a French browser, English otherwise; core text says it stays English; times in local time beside UTC (issue 26, item 6)', async () => {
    // ?lang=fr on an English browser
    await web.page.goto(`${web.url}?lang=fr&trust-beacon=${beaconOf(signed)}`)
    expect(await web.page.evaluate(() => document.documentElement.lang)).toBe('fr')
    expect(await web.page.locator('#input-h').textContent()).toBe('Charger une preuve')
    expect(await web.page.title()).toBe('orbitdraw — vérificateur de preuves')
    expect(await web.page.locator('#core-in-english').textContent()).toContain('reste en anglais')
    // the language links keep the rest of the link
    expect(await web.page.locator('#lang a[hreflang="en"]').getAttribute('href')).toContain(`trust-beacon=${beaconOf(signed)}`)
    await trustTestTsa()
    await loadProof(web.page, signed, 'file')
    expect(await web.page.locator('#verdict-title').textContent()).toBe('Vérifié avec des paramètres de confiance personnalisés')
    expect(await web.page.locator('.summary dt').first().textContent()).toBe('Tirage')
    // the switch back to English
    await web.page.locator('#lang a[hreflang="en"]').click()
    await web.page.waitForFunction(() => document.body.dataset.ready === 'true' && document.documentElement.lang === 'en')
    expect(await web.page.locator('#input-h').textContent()).toBe('Load a proof')
    expect(await web.page.locator('#core-in-english').isVisible()).toBe(false)
    // a browser whose preferred language is French, in another time zone: French without ?lang=, local times beside UTC
    const context = await web.browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' })
    const fr = await context.newPage()
    try {
      await fr.goto(`${web.url}?trust-beacon=${beaconOf(signed)}`)
      expect(await fr.locator('#input-h').textContent()).toBe('Charger une preuve')
      expect(await fr.locator('label[for="file"]').textContent()).toBe('choisissez un fichier…')
      await trustTestTsa(fr)
      await loadProof(fr, signed, 'file')
      const target = await fr.locator('.summary dd').nth(3).textContent()
      expect(target).toMatch(/ UTC \(.+(UTC\+1|UTC\+2|CET|CEST|HNEC|HAEC).*, votre heure locale\)/)
    } finally {
      await context.close()
    }
  })

  it('words failures in the reader’s language without library option names; evidence times in local time beside UTC (issue 26, item 6)', async () => {
    // strict default, French: the test beacon is not trusted, the test time-stamp root neither
    await web.page.goto(`${web.url}?lang=fr`)
    await loadProof(web.page, signed, 'file')
    expect(await web.page.locator('#verdict-title').textContent()).toBe('Échec')
    expect(await web.page.locator('#verdict-reason').textContent()).toBe('Le tirage nomme une balise à laquelle vous ne faites pas confiance : celui qui l’exploite pourrait choisir ses valeurs.')
    expect(await web.page.locator('#verdict-headline').textContent()).toBe('ÉCHEC : beacon-trusted, commitment-time.')
    expect(await web.page.locator('#verdict-facts').textContent()).toMatch(/Balise : k51\S*, à laquelle vous ne faites pas confiance\./)
    expect(await web.page.locator('#checks-h').textContent()).toMatch(/^Vérifications \(/)
    expect(await web.page.locator('#explain').textContent()).toContain('L’engagement nomme une balise à laquelle vous ne faites pas confiance')
    // no library or CLI option names anywhere outside the checks' own technical details
    const optionNames = /allowUnsigned|allowUntimestamped|untimestamped|trust\.(beacons|timestampAuthorities|drandChains)|relaxedBy|--allow-|--trust-/
    for (const [link, proof] of [[`?lang=en`, signed], [`?trust-beacon=${beaconOf(signed)}&allow-untimestamped=1&allow-unsigned=1`, signed], ['', tamperOutcome(signed)]] as const) {
      await web.page.goto(`${web.url}${link}`)
      await loadProof(web.page, proof, 'file')
      const shown = await web.page.locator('#result').evaluate((el) => {
        const copy = el.cloneNode(true) as HTMLElement
        for (const d of copy.querySelectorAll('.check-detail, #verdict-reason-detail, #notes')) d.remove()
        return copy.textContent ?? ''
      })
      expect(shown).not.toMatch(optionNames)
    }
    // evidence boxes: the target block's time in UTC and, beside it, the reader's local time (Paris)
    const context = await web.browser.newContext({ locale: 'en-GB', timezoneId: 'Europe/Paris' })
    const paris = await context.newPage()
    try {
      await paris.goto(`${web.url}?trust-beacon=${beaconOf(signed)}`)
      await trustTestTsa(paris)
      await loadProof(paris, signed, 'file')
      const facts = await paris.locator('li.node[data-node="target"] dd').allTextContents()
      expect(facts.join(' | ')).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(.*(CET|CEST|GMT\+1|GMT\+2|UTC\+1|UTC\+2).*, your local time\)/)
    } finally {
      await context.close()
    }
  })

  it('shows garbage as failed without crashing; entries are text, isolated, with hidden characters marked', async () => {
    await web.page.goto(web.url)
    await loadProof(web.page, '{"not": "a proof"', 'paste')
    // like the CLI (exit 4, bad input), a file that cannot be read as a proof is named apart from a false draw (exit 1)
    expect(await web.page.locator('#verdict-title').textContent()).toBe('Not a readable proof')
    expect(await web.page.locator('#verdict-reason').textContent()).toBe('The file is not a valid proof.')
    expect(await failedChecks()).toEqual(['format'])
    expect(await web.page.locator('#evidence').count()).toBe(0)
    // an entry with markup, and one with a right-to-left override that would show "alicegoogle"
    const marked = PARTICIPANTS.find((e) => e.includes('<b>'))!
    const p = structuredClone(plain) as unknown as { outcome: { winners: { entry: string }[] }; commitment: { label: string } }
    p.outcome.winners[0]!.entry = marked
    p.outcome.winners[1]!.entry = 'alice\u202Eelgoog'
    await web.page.goto(`${web.url}?allow-unsigned=1&allow-untimestamped=1`)
    await loadProof(web.page, p, 'paste')
    expect(await web.page.locator('#outcome b').count()).toBe(0)
    const shown = await shownWinners()
    expect(shown).toContain(marked)
    expect(shown).toContain('alice⟨U+202E⟩elgoog')
    expect(await web.page.locator('#outcome td.entry > bdi').count()).toBe(3)
    expect(await web.page.locator('#outcome .hidden-char').getAttribute('title')).toContain('right-to-left override')
    expect(await web.page.locator('#outcome').evaluate((el) => el.textContent!.includes('\u202E'))).toBe(false)
  })

  it('verifies a 20 MB proof in a worker while the page keeps answering input; Cancel stops the worker', async () => {
    const { bytes } = makeBigProof(20_000_000)
    const workers: Worker[] = []
    web.page.on('worker', (w) => workers.push(w))
    await web.page.goto(`${web.url}?allow-unsigned=1&allow-untimestamped=1`)
    // A click handler of the test's own, recording the page state when it runs.
    await web.page.evaluate(() => {
      const w = window as unknown as { stamps: { state: string; at: number }[] }
      w.stamps = []
      document.addEventListener('click', () => w.stamps.push({ state: document.body.dataset.state ?? '', at: performance.now() }), true)
    })
    await web.page.evaluate(() => {
      document.body.dataset.state = 'loading'
    })
    await web.page.locator('#file').setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(bytes) })
    await web.page.waitForFunction(() => document.body.dataset.state === 'verifying')
    const elapsedAtStart = await web.page.locator('#progress-elapsed').textContent()
    let clicks = 0
    while ((await web.page.evaluate(() => document.body.dataset.state)) === 'verifying' && clicks < 200) {
      await web.page.mouse.click(2, 2)
      clicks++
    }
    await waitForVerdict(web.page)
    const stamps = await web.page.evaluate(() => (window as unknown as { stamps: { state: string }[] }).stamps)
    // the page answered clicks while the proof was being verified (not only after)
    expect(stamps.filter((s) => s.state === 'verifying').length).toBeGreaterThanOrEqual(2)
    expect(elapsedAtStart).not.toBeNull()
    expect(await tier()).toBe('custom')
    expect(await failedChecks()).toEqual([])
    expect(await web.page.locator('#outcome tr.winner').count()).toBe(500)
    expect(await web.page.locator('#outcome .more').textContent()).toMatch(/… and \d{1,3}(,\d{3})* more/)
    const verifyMs = Number(await web.page.locator('#result').getAttribute('data-verify-ms'))
    const totalMs = Number(await web.page.locator('#result').getAttribute('data-total-ms'))
    console.log(`20 MB proof (${bytes.length} bytes): verify() in the worker ${verifyMs} ms, load to verdict ${totalMs} ms; ${stamps.filter((s) => s.state === 'verifying').length} clicks answered during verification`)

    // Cancel: the worker is terminated and nothing is concluded
    const before = workers.length
    await web.page.locator('#file').setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(bytes) })
    await web.page.waitForFunction(() => document.body.dataset.state === 'verifying')
    await expect.poll(() => workers.length).toBe(before + 1)
    const running = workers[before]!
    const closed = new Promise<void>((resolve) => running.once('close', () => resolve()))
    await web.page.locator('#cancel').click()
    expect(await web.page.evaluate(() => document.body.dataset.state)).toBe('cancelled')
    expect(await web.page.locator('#result').isHidden()).toBe(true)
    expect(await web.page.locator('#progress').isHidden()).toBe(true)
    expect(await web.page.locator('#source').textContent()).toContain('cancelled')
    await closed // the worker is gone (the test times out otherwise)
    // and the page verifies the next proof normally
    await loadProof(web.page, plain, 'paste')
    expect(await failedChecks()).toEqual([])
  }, 180_000)

  it('made no request beyond the page itself and the linked proof, and logged no errors', () => {
    const origins = [new URL(web.url).origin, `http://${INSECURE_HOST}:${new URL(web.url).port}`]
    expect(requests.filter((u) => !origins.some((o) => u.startsWith(o)) && !u.startsWith('blob:'))).toEqual([])
    expect(web.pageErrors).toEqual([])
  })
})
