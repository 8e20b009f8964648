/**
 * The browser verifier in real headless Chromium: untrusted text the core accepts but a reader could not
 * see. A verified proof's label may carry a format control the browser draws as nothing (the core refuses
 * them in entries only), a file's name a bidi override, and two entries may differ only by a run of
 * spaces or by a no-break space: each is shown as it is, in the page's text and in its tooltips and
 * screen-reader labels. Found by driving the built page with such proofs (before: the label's U+1D173 and
 * U+1BCA0 were drawn as nothing, the file name's U+202E reversed the "Checked file" line, "Ann  Lee"
 * printed as "Ann Lee", "Ann" + U+00A0 + "Lee" printed as "Ann Lee" everywhere, and the tooltip of a
 * failed outcome carried it raw).
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { DEFAULT_DRAW_KINDS, withKinds } from '../../src/core/kinds/registry.js'
import { preferenceLotteryDraw } from '../../src/core/kinds/index.js'
import { makePool } from '../../src/core/sortition/index.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { teamsDraw, teamsKind } from '../core/kinds/teams.js'
import { makeDrawProof } from './fixtures.js'
import { loadProof } from './harness.js'
import { useVerifierPage } from './page-fixture.js'

/** The characters the page must never leave raw in its text or its attributes, among those these proofs carry. */
const RAW = /[\u00a0\u202e\u{1d173}\u{1bca0}]/u

/**
 * Where the page leaves one of {@link RAW} unmarked: each text node's parent, and each attribute as
 * `element@attribute`, under `#result`, `#source` and `#progress`.
 */
async function rawPlaces(page: Page): Promise<string[]> {
  return page.evaluate((source) => {
    const raw = new RegExp(source, 'u')
    const found: string[] = []
    const name = (e: Element | null): string => (e === null ? '?' : e.id || e.getAttribute('class') || e.tagName.toLowerCase())
    for (const root of ['result', 'source', 'progress'].map((id) => document.getElementById(id)).filter((e) => e !== null)) {
      const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
      for (let n = w.nextNode(); n !== null; n = w.nextNode()) if (raw.test(n.textContent ?? '')) found.push(name(n.parentElement))
      for (const e of [root, ...root.querySelectorAll('*')]) for (const a of e.attributes) if (raw.test(a.value)) found.push(`${name(e)}@${a.name}`)
    }
    return found
  }, RAW.source)
}

describe('browser verifier (headless Chromium): text the core accepts, shown as it is', () => {
  const web = useVerifierPage({ name: 'text' })

  it('a label with format controls, a file name with a bidi override, entries differing by a run of spaces', async () => {
    const chain = buildChain(14, 'browser-text')
    const entries = ['Ann Lee', 'Ann  Lee', 'Bo Chen']
    const label = 'Spring\u{1D173} raffle\u{1BCA0} 2026'
    const { commitment } = commit({ beacon: BEACON_NAME, target: 11, after: { sequence: 8, block: chain[8]!.cid }, participants: entries, draw: { kind: 'shuffle' }, label })
    const proof = drawFromBlock(commitment, entries, chain[11]!)
    await web.page.goto(`${web.url}?allow-unsigned=1&allow-untimestamped=1`)
    await loadProof(web.page, proof, 'file', 'proof-\u202Enosj.exe')
    expect(await web.page.evaluate(() => document.body.dataset.state)).toBe('custom')
    // the label's format controls are marks, and no raw one is left in the page's text
    const summary = web.page.locator('.summary')
    expect(await summary.locator('.hidden-char').allTextContents()).toEqual(expect.arrayContaining(['⟨U+1D173⟩', '⟨U+1BCA0⟩']))
    const raw = await web.page.evaluate(() => {
      const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
      const found: string[] = []
      for (let n = w.nextNode(); n !== null; n = w.nextNode()) if (/\u{1D173}|\u{1BCA0}|\u202E/u.test(n.textContent ?? '')) found.push(n.parentElement?.id || n.parentElement?.className || '?')
      return found
    })
    expect(raw).toEqual([])
    // the file name's U+202E: a mark in the "Checked file" line too
    expect(await web.page.locator('#source .hidden-char').allTextContents()).toEqual(['⟨U+202E⟩'])
    // two entries that differ by one space do not print the same
    const shown = await web.page.locator('#outcome td.entry bdi').evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText))
    expect(shown).toHaveLength(3)
    expect(new Set(shown).size).toBe(3)
    expect(shown).toContain('Ann  Lee')
  })

  const chain = buildChain(14, 'browser-text')
  const entries = ['Ann Lee', 'Ann\u00a0Lee', 'Bo Chen']
  const { commitment } = commit({ beacon: BEACON_NAME, target: 11, after: { sequence: 8, block: chain[8]!.cid }, participants: entries, draw: { kind: 'shuffle' }, label: 'Spring\u00a0raffle' })
  const proof = drawFromBlock(commitment, entries, chain[11]!)

  it('two entries that differ only by a no-break space (U+00A0) are drawn differently; so is the label', async () => {
    await web.page.goto(`${web.url}?allow-unsigned=1&allow-untimestamped=1`)
    await loadProof(web.page, proof, 'file')
    expect(await web.page.evaluate(() => document.body.dataset.state)).toBe('custom')
    const shown = await web.page.locator('#outcome td.entry bdi').evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText))
    // the ranking is indexes 1, 2, 0; before: ['Ann Lee', 'Bo Chen', 'Ann Lee']
    expect(shown).toEqual(['Ann⟨U+00A0⟩Lee', 'Bo Chen', 'Ann Lee'])
    const mark = web.page.locator('#outcome td.entry .hidden-char').first()
    expect(await mark.getAttribute('title')).toBe('U+00A0 NO-BREAK SPACE (shown as a plain space in the original)')
    expect(await web.page.locator('.summary bdi').first().innerText()).toBe('Spring⟨U+00A0⟩raffle')
    expect(await rawPlaces(web.page)).toEqual([])
  })

  it('a tooltip quoting the proof carries the marked text: a failed outcome whose two entries read alike', async () => {
    // the claimed ranking swaps the two Ann Lees' texts (their indexes kept): `outcome` fails, and its
    // detail quotes both, "rank 1 should be "Ann Lee" (index 1); the proof claims "Ann Lee" (rank 1, index 1)"
    const swapped = structuredClone(proof) as unknown as { outcome: { ranking: { entry: string }[] } }
    for (const r of swapped.outcome.ranking) r.entry = r.entry === 'Ann Lee' ? 'Ann\u00a0Lee' : r.entry === 'Ann\u00a0Lee' ? 'Ann Lee' : r.entry
    await web.page.goto(`${web.url}?allow-unsigned=1&allow-untimestamped=1`)
    await loadProof(web.page, swapped, 'file')
    expect(await web.page.evaluate(() => document.body.dataset.state)).toBe('failed')
    const expected = 'rank 1 should be "Ann⟨U+00A0⟩Lee" (index 1); the proof claims "Ann Lee" (rank 1, index 1)'
    expect(await web.page.locator('#checks li[data-check="outcome"] .check-detail').innerText()).toBe(expected)
    // the evidence picture's outcome step: its visible status and its tooltip (before: the tooltip had U+00A0 raw)
    const status = web.page.locator('.dnode[data-step="outcome"] .node-status')
    expect(await status.innerText()).toBe(expected)
    expect(await status.getAttribute('title')).toBe(expected)
    expect(await rawPlaces(web.page)).toEqual([])
  })

  it("the committed draw's description quotes a category name with a no-break space: marked in the summary", async () => {
    const apps = makePool(['local'], Array.from({ length: 10 }, (_, i) => ({ id: `A${i}`, values: [i % 2 === 0 ? 'yes' : 'no'] })))
    const p = preferenceLotteryDraw(apps, [{ name: 'local\u00a0area', where: { local: ['yes'] }, units: 2 }], 4)
    const lottery = makeDrawProof(p.draw, p.participants, DEFAULT_DRAW_KINDS, 'Housing')
    await web.page.goto(`${web.url}?allow-unsigned=1&allow-untimestamped=1`)
    await loadProof(web.page, lottery, 'file')
    expect(await web.page.evaluate(() => document.body.dataset.state)).toBe('custom')
    // before: the summary's "Kind" line was set as plain text, its U+00A0 raw ("local area")
    expect(await web.page.locator('.summary dt:text-is("Kind") + dd').innerText()).toContain('"local⟨U+00A0⟩area" 2')
    expect(await web.page.locator('#outcome .outcome-section h3').allInnerTexts()).toContain('local⟨U+00A0⟩area (2 of 2)')
    expect(await rawPlaces(web.page)).toEqual([])
  })
})

describe("browser verifier (headless Chromium): a table's screen-reader label quoting the proof is marked", () => {
  const web = useVerifierPage({ name: 'text-label', workerEntry: join(import.meta.dirname, 'titled-teams-worker.ts') })

  it('the teams table, titled with its first captain (an entry with a no-break space), has the marked title as its aria-label', async () => {
    // every member has a no-break space, so whoever the seed makes captain, the title carries one
    const members = ['Ann\u00a0Lee', 'Bo\u00a0Chen', 'Cy\u00a0Dunn', 'Di\u00a0Eng']
    const proof = makeDrawProof(teamsDraw(1), members, withKinds([teamsKind]), 'Working groups')
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, proof, 'file')
    expect(await web.page.evaluate(() => document.body.dataset.state)).toBe('custom')
    const captain = (proof.outcome as unknown as { order: { entry: string }[] }).order[0]!.entry.replace('\u00a0', '⟨U+00A0⟩')
    const region = web.page.locator('#outcome .outcome-section[data-layout="table"] .table-scroll')
    expect(await web.page.locator('#outcome .outcome-section[data-layout="table"] h3').innerText()).toBe(`Team of ${captain}`)
    // before: the label was the title with its U+00A0 raw, read out as "Ann Lee"
    expect(await region.getAttribute('aria-label')).toBe(`Team of ${captain}`)
    expect(await rawPlaces(web.page)).toEqual([])
  })
})
