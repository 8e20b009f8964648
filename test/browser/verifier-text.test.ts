/**
 * The browser verifier in real headless Chromium: untrusted text the core accepts but a reader could not
 * see. A verified proof's label may carry a format control the browser draws as nothing (the core refuses
 * them in entries only), a file's name a bidi override, and two entries may differ only by a run of
 * spaces: each is shown as it is. Found by driving the built page with such proofs (before: the
 * label's U+1D173 and U+1BCA0 were drawn as nothing, the file name's U+202E reversed the "Checked file"
 * line, and "Ann  Lee" printed as "Ann Lee").
 */
import { describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { loadProof } from './harness.js'
import { useVerifierPage } from './page-fixture.js'

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
})
