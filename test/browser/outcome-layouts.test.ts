/**
 * The verifier page's `sections` and `table` outcome layouts in headless Chromium, through a
 * test-only draw kind (`teams`, test/core/kinds/teams.ts): the page is built with a worker that
 * registers it (test/browser/teams-worker.ts), exactly as the real page registers the built-in
 * kinds. Every cell is DOM text (markup in an entry stays text, hidden characters are marked), an
 * emphasised cell carries a mark besides its colour, a wide table scrolls inside its own box at
 * 390 px while the page never scrolls sideways, and a tampered outcome is shown as claimed, with the
 * failed check named. When chromium is missing this test fails with a clear message.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { verify } from '../../src/core/verify.js'
import { withKinds } from '../../src/core/kinds/registry.js'
import { type Proof } from '../../src/core/proof.js'
import { outcomeView } from '../../src/verifier/model.js'
import { teamsDraw, teamsKind, type TeamsOutcomeJson } from '../core/kinds/teams.js'
import { makeDrawProof } from './fixtures.js'
import { loadProof } from './harness.js'
import { useVerifierPage } from './page-fixture.js'

const kinds = withKinds([teamsKind])

/**
 * 34 members of a residents' panel; every entry carries markup that would run if parsed as HTML, and
 * is long enough that the teams table is wider than a phone.
 */
const MEMBERS = Array.from({ length: 34 }, (_, i) => `resident-${String(i + 1).padStart(2, '0')} <img src=x onerror="document.body.dataset.pwned='1'"> Riverside ward, north bank of the canal`)

describe('verifier page: sections and table layouts (headless Chromium)', () => {
  const proof: Proof = makeDrawProof(teamsDraw(4), MEMBERS, kinds, 'Residents’ panel: four working groups')
  const web = useVerifierPage({ name: 'layouts', workerEntry: join(import.meta.dirname, 'teams-worker.ts') })

  const failedChecks = (): Promise<string[]> => web.page.locator('#checks li[data-ok="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check') ?? ''))
  /** How the page draws an untrusted cell: a right-to-left override as a visible mark. */
  const shown = (s: string): string => s.replace('\u202E', '⟨U+202E⟩')

  it('the proof verifies in Node with the same registry (the page must agree)', async () => {
    const r = await verify(proof, { kinds, allowUnsigned: true, allowUntimestamped: true })
    expect(r.checks.filter((c) => !c.ok)).toEqual([])
  })

  it('draws every section: a ranked list, a table with aligned numbers and marked cells, a value list', async () => {
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, proof, 'file')
    expect(await failedChecks()).toEqual([])
    expect(await web.page.locator('#outcome').getAttribute('data-layout')).toBe('sections')
    expect(await web.page.locator('#outcome-h').textContent()).toBe('Teamsunder custom trust settings — see the verdict')
    const sections = web.page.locator('#outcome .outcome-section')
    expect(await sections.evaluateAll((els) => els.map((e) => [e.getAttribute('data-layout'), e.querySelector('h3')?.textContent]))).toEqual([
      ['ranked', 'Captains'],
      ['table', 'Team sizes'],
      ['values', 'Sizes'],
    ])
    // what Node's view of the same outcome says, cell by cell
    const view = outcomeView(proof.outcome, undefined, kinds)
    if (view?.layout !== 'sections') throw new Error('expected sections')
    const [captains, table, sizes] = view.sections
    if (captains?.layout !== 'ranked' || table?.layout !== 'table' || sizes?.layout !== 'values') throw new Error('unexpected sections')
    expect(await sections.nth(0).locator('td.entry').allTextContents()).toEqual(captains.rows.map((r) => shown(r.entry)))
    expect(await sections.nth(0).locator('td.index').allTextContents()).toEqual(captains.rows.map((r) => String(r.index + 1)))
    expect(await sections.nth(1).locator('.section-note').textContent()).toBe('even: a team of even size can pair up')
    expect(await sections.nth(1).locator('th').allTextContents()).toEqual(['Team', 'Members', 'Captain', 'Even'])
    const cells = await sections.nth(1).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => ({ text: td.textContent, cls: td.className, tone: td.getAttribute('data-tone') }))))
    expect(cells.map((r) => r.map((c) => c.text))).toEqual(table.rows.map((r) => r.map((c) => (c.tone === undefined ? shown(c.text) : `${c.text} ${c.tone === 'ok' ? '✓' : '✗'}`))))
    // 34 members in 4 teams: 9, 9, 8, 8, so two odd (✗) and two even (✓) teams
    expect(cells.map((r) => r[3]!.tone)).toEqual(['bad', 'bad', 'ok', 'ok'])
    expect(cells.map((r) => r[3]!.cls)).toEqual(['tone-bad', 'tone-bad', 'tone-ok', 'tone-ok'])
    expect(cells.every((r) => r[1]!.cls === 'num' && r[0]!.cls === '')).toBe(true)
    expect(await sections.nth(2).locator('li').allTextContents()).toEqual(['9', '9', '8', '8'])
    expect((proof.outcome as unknown as TeamsOutcomeJson).order).toHaveLength(34)
  })

  it('every cell is text: no element from an entry, no script run, hidden characters marked', async () => {
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, proof, 'file')
    expect(await web.page.locator('#outcome img').count()).toBe(0)
    expect(await web.page.locator('#outcome .plain tbody tr').first().locator('td').nth(2).textContent()).toContain('<img src=x onerror=')
    // Committed entries cannot hold a bidi control (commit refuses them); a forged outcome can.
    const forged = structuredClone(proof) as unknown as { outcome: TeamsOutcomeJson & { order: { entry: string }[] } }
    forged.outcome.order[0]!.entry = 'alice\u202Eelgoog'
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, forged, 'file')
    expect(await web.page.locator('#outcome .plain tbody tr').first().locator('td').nth(2).textContent()).toBe('alice⟨U+202E⟩elgoog')
    expect(await web.page.locator('#outcome .plain .hidden-char').getAttribute('title')).toContain('U+202E RIGHT-TO-LEFT OVERRIDE')
    expect(await web.page.locator('#outcome').evaluate((el) => el.textContent!.includes('\u202E'))).toBe(false)
    expect(await web.page.evaluate(() => document.body.dataset.pwned)).toBeUndefined()
    expect(web.pageErrors).toEqual([])
  })

  it('at 390 px the page never scrolls sideways; the wide table scrolls inside its own box', async () => {
    const phone = await web.browser.newPage({ viewport: { width: 390, height: 844 } })
    try {
      await phone.goto(web.relaxedUrl)
      await loadProof(phone, proof, 'file')
      const layout = await phone.evaluate(() => {
        const box = document.querySelector('#outcome .table-scroll')!
        return {
          width: document.documentElement.scrollWidth,
          wide: [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > 390.5 && e.getClientRects().length > 0 && e.closest('.table-scroll') === null)
            .slice(0, 8)
            .map((e) => `${e.tagName.toLowerCase()}${e.id === '' ? '' : `#${e.id}`}.${[...e.classList].join('.')} → ${Math.round(e.getBoundingClientRect().right)}px`),
          box: { scroll: box.scrollWidth, client: box.clientWidth, right: box.getBoundingClientRect().right },
        }
      })
      expect(layout.width, layout.wide.join('\n')).toBeLessThanOrEqual(390)
      expect(layout.box.right).toBeLessThanOrEqual(390)
      // the table is wider than its box: it scrolls there, not the page
      expect(layout.box.scroll).toBeGreaterThan(layout.box.client)
      await phone.locator('#outcome .table-scroll').evaluate((el) => el.scrollBy(200, 0))
      expect(await phone.locator('#outcome .table-scroll').evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)
      expect(await phone.evaluate(() => window.scrollX)).toBe(0)
    } finally {
      await phone.close()
    }
  })

  it('a tampered team order fails the outcome check and is shown as claimed, not verified', async () => {
    const bad = structuredClone(proof) as unknown as { outcome: TeamsOutcomeJson & { order: { rank: number; index: number; entry: string }[] } }
    const [a, b] = [bad.outcome.order[0]!, bad.outcome.order[1]!]
    ;[a.index, b.index, a.entry, b.entry] = [b.index, a.index, b.entry, a.entry]
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, bad, 'file')
    expect(await web.page.locator('#verdict').getAttribute('data-tier')).toBe('failed')
    expect(await failedChecks()).toEqual(['outcome'])
    expect(await web.page.locator('#outcome .tag-fail').textContent()).toBe('claimed by the proof — not verified')
    expect(await web.page.locator('#outcome').getAttribute('class')).toContain('unverified')
    // the claimed (swapped) captain is what the page shows, marked as claimed
    expect(await web.page.locator('#outcome .outcome-section').nth(0).locator('td.entry').first().textContent()).toBe(shown(bad.outcome.order[0]!.entry))
  })
})
