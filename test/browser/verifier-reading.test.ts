/**
 * The browser verifier in real headless Chromium, part 2 (part 1: `verifier.test.ts`): what a reader
 * sees and can do: private lists and receipts, plain wording, "was I in the draw?", a 390 px screen, a
 * dropped commitment, French, garbage input, and a 20 MB proof verified in a worker while the page
 * keeps answering. When chromium is missing this test fails with a clear message (CI installs it).
 */
import type { Worker } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { CID } from 'multiformats/cid'
import { bytesToBase64 } from '../../src/core/bytes.js'
import { commit } from '../../src/core/commitment.js'
import { commitmentFile } from '../../src/core/commitment-file.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { makeReceipts, serializeReceipt } from '../../src/core/receipt.js'
import { type Proof } from '../../src/core/proof.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { makeBigProof, PARTICIPANTS, tamperOutcome, TEST_TSA } from './fixtures.js'
import { loadProof, waitForVerdict } from './harness.js'
import { beaconOf, itMadeNoOtherRequests, useVerifierSuite, winnersOf } from './verifier-suite.js'

describe('browser verifier (headless Chromium): what a reader sees', () => {
  const suite = useVerifierSuite('reading')
  const { web, failedChecks, shownWinners, tier, q, trustTestTsa, greenInsideVerdict } = suite
  let plain: Proof
  let signed: Proof
  beforeAll(() => {
    ;({ plain, signed } = suite)
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
    expect(await web.page.locator('#outcome .hidden-char').getAttribute('title')).toContain('U+202E RIGHT-TO-LEFT OVERRIDE')
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

  itMadeNoOtherRequests(suite)
})
