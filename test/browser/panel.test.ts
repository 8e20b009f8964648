/**
 * The verifier page's view of the sortition kinds in headless Chromium: a `panel` proof (members,
 * quota table with min, max, selected and a met/unmet mark, alternates, exact selection probabilities
 * by type), a `panel-lottery` proof, a tampered panel (failed named checks shown, the outcome marked
 * as claimed), the "was I in the draw?" search ranking members, and a 390 px screen. The page is the
 * real build (built-in kinds). When chromium is missing this test fails with a clear message.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { LOTTERY_CHECK_NAMES } from '../../src/core/sortition/lottery.js'
import { PANEL_CHECK_NAMES } from '../../src/core/sortition/panel.js'
import { panelDraw, type PanelOutcomeJson } from '../../src/core/kinds/panel.js'
import { panelLotteryDraw, type PanelLotteryOutcomeJson } from '../../src/core/kinds/panel-lottery.js'
import { verify } from '../../src/core/verify.js'
import { type Proof } from '../../src/core/proof.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { ENGINE_ONLY } from '../helpers/policy.js'
import { proportionalQuotas, smallPool } from '../core/sortition/fixtures.js'
import { loadProof, swapFirstMemberForOutsider } from './harness.js'
import { useVerifierPage } from './page-fixture.js'

const CHAIN = buildChain(14, 'browser-panel')
const base = { beacon: BEACON_NAME, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'Riverside citizens’ assembly 2026' }
const K = 12
const pool = smallPool(300, [2, 4, 2], 41)
const quotas = proportionalQuotas(pool, K, 1)

/** The planner counts all three features exactly here, so the outcome carries the probabilities by type. */
function panelProof(target: number, alternates: number): Proof {
  const { draw, participants } = panelDraw(pool, quotas, K, { alternates })
  const { commitment } = commit({ ...base, target, draw, participants })
  return drawFromBlock(commitment, participants, CHAIN[target]!)
}

/** An entry `id|feature=value|…` as the page's columns: the id, then each feature's value. */
function byColumns(entry: string): string[] {
  const parts = entry.split('|')
  return [parts[0]!, ...parts.slice(1).map((p) => p.slice(p.indexOf('=') + 1))]
}

describe('verifier page: panel and panel-lottery (headless Chromium)', () => {
  let proof: Proof
  let lottery: Proof

  beforeAll(() => {
    proof = panelProof(10, 4)
    // a portfolio of four valid panels (drawn by the panel kind from other blocks), weights 1..4
    const candidates = [8, 9, 11, 12].map((t) => (panelProof(t, 0).outcome as PanelOutcomeJson).members.map((m) => m.entry.split('|')[0]!))
    const l = panelLotteryDraw(pool, quotas, candidates, [1, 2, 3, 4])
    lottery = drawFromBlock(commit({ ...base, target: 10, draw: l.draw, participants: l.participants }).commitment, l.participants, CHAIN[10]!)
  })
  const web = useVerifierPage({ name: 'panel' })
  const failedChecks = (): Promise<string[]> => web.page.locator('#checks li[data-ok="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check') ?? ''))
  const section = (i: number) => web.page.locator('#outcome .outcome-section').nth(i)
  const tableRows = (i: number): Promise<string[][]> => section(i).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td:not(.type-joined)')].map((td) => td.textContent ?? '')))

  it('a verified panel: members, the quota table, the alternates and the exact probabilities by type', async () => {
    const o = proof.outcome as PanelOutcomeJson
    expect(o.probabilities, 'this fixture counts every feature exactly').toBeDefined()
    expect((await verify(proof, ENGINE_ONLY)).ok).toBe(true)
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, proof, 'file')
    expect(await failedChecks()).toEqual([])
    const checks = await web.page.locator('#checks li').evaluateAll((els) => els.map((e) => e.getAttribute('data-check')))
    for (const name of PANEL_CHECK_NAMES) expect(checks).toContain(name)
    expect(await web.page.locator('#outcome').getAttribute('data-layout')).toBe('sections')
    expect(await web.page.locator('#outcome-h').evaluate((h) => h.firstChild?.textContent)).toBe(`Panel of ${K}`)
    expect(await web.page.locator('#outcome .outcome-section h3').allTextContents()).toEqual([`Members (${K})`, `Quotas (${o.quotas.length} of ${o.quotas.length} met)`, 'Alternates (4)', 'Selection probability by type'])
    // members and alternates: the proof's entries, positions 1-based
    // members and alternates: one column per committed feature, not `id|feature=value|…` strings
    const names = pool.features.map((f) => f.name)
    expect(await section(0).locator('th').allTextContents()).toEqual(['Rank', 'ID', ...names, 'Position in list'])
    expect(await tableRows(0)).toEqual(o.members.map((m) => [`#${m.rank}`, ...byColumns(m.entry), String(m.index + 1)]))
    expect(await section(2).locator('th').allTextContents()).toEqual(['Rank', 'ID', ...names, 'Position in list'])
    expect(await tableRows(2)).toEqual(o.alternates.map((m) => [`#${m.rank}`, ...byColumns(m.entry), String(m.index + 1)]))
    expect(await web.page.locator('#outcome td').evaluateAll((tds) => tds.filter((td) => (td.textContent ?? '').includes('|')).length)).toBe(0)
    // the quota table: every row of the proof, min/max/selected right-aligned, each quota met and marked
    expect(await section(1).locator('th').allTextContents()).toEqual(['Feature', 'Value', 'Min', 'Max', 'Selected', 'OK'])
    expect(await tableRows(1)).toEqual(o.quotas.map((q) => [q.feature, q.value, String(q.min), String(q.max), String(q.selected), 'yes ✓']))
    expect(await section(1).locator('td.num').count()).toBe(o.quotas.length * 3)
    expect(await section(1).locator('td.tone-ok').count()).toBe(o.quotas.length)
    // probabilities: one row per type, the decimal and the reduced fraction
    expect(await section(3).locator('th:not(.type-joined)').allTextContents()).toEqual([...o.probabilities![0]!.type.split('|').map((p) => p.slice(0, p.indexOf('='))), 'Respondents', 'Probability', 'Exact'])
    expect(await tableRows(3)).toEqual(o.probabilities!.map((p) => [...p.type.split('|').map((v) => v.slice(v.indexOf('=') + 1)), String(p.respondents), p.decimal, p.probability]))
    expect(web.pageErrors).toEqual([])
  })

  it('"was I in the draw?" ranks a member by the members section, and finds a respondent who was not drawn', async () => {
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, proof, 'file')
    const o = proof.outcome as PanelOutcomeJson
    const member = o.members[2]!
    await web.page.locator('#entry-search').fill(member.entry.split('|')[0]!)
    await web.page.locator('#entry-search-results li').first().waitFor()
    expect(await web.page.locator(`#entry-search-results li[data-position="${member.index + 1}"] .tag-rank`).textContent()).toBe(` rank #${member.rank}`)
    const taken = new Set([...o.members, ...o.alternates].map((m) => m.index))
    const other = Array.from({ length: 300 }, (_, i) => i).find((i) => !taken.has(i))!
    await web.page.locator('#entry-search').fill((proof.participants as unknown as { entries: string[] }).entries[other]!.split('|')[0]!)
    await expect.poll(() => web.page.locator(`#entry-search-results li[data-position="${other + 1}"]`).count()).toBe(1)
    expect(await web.page.locator(`#entry-search-results li[data-position="${other + 1}"] .tag-rank`).count()).toBe(0)
  })

  it('a tampered panel: the named checks fail, the outcome is shown as claimed, an unmet quota is marked', async () => {
    const j = JSON.parse(JSON.stringify(proof)) as { outcome: PanelOutcomeJson & { members: { rank: number; index: number; entry: string }[]; quotas: { selected: number; max: number }[] }; participants: { entries: string[] } }
    // swap a member for someone who was not drawn, and claim a quota table that breaks the first quota
    const other = swapFirstMemberForOutsider(j)
    j.outcome.quotas[0]!.selected = j.outcome.quotas[0]!.max + 1
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, j, 'file')
    expect(await web.page.locator('#verdict').getAttribute('data-tier')).toBe('failed')
    const failed = await failedChecks()
    expect(failed).toContain('outcome')
    expect(failed).toContain('panel-replay')
    expect(await web.page.locator('#verdict .failed-name').allTextContents()).toEqual(failed)
    expect(await web.page.locator('#outcome .tag-fail').textContent()).toBe('claimed by the proof — not verified')
    expect(await section(0).locator('td.entry').first().textContent()).toBe(byColumns(j.participants.entries[other]!)[0])
    const first = section(1).locator('tbody tr').first().locator('td').last()
    expect(await first.textContent()).toBe('no ✗')
    expect(await first.getAttribute('data-tone')).toBe('bad')
    expect(await web.page.locator('#outcome .outcome-section h3').nth(1).textContent()).toBe(`Quotas (${j.outcome.quotas.length - 1} of ${j.outcome.quotas.length} met)`)
  })

  it('a panel lottery: the winning candidate panel, its members and its quota table', async () => {
    const o = lottery.outcome as PanelLotteryOutcomeJson
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, lottery, 'file')
    expect(await failedChecks()).toEqual([])
    const checks = await web.page.locator('#checks li').evaluateAll((els) => els.map((e) => e.getAttribute('data-check')))
    for (const name of LOTTERY_CHECK_NAMES) expect(checks).toContain(name)
    expect(await web.page.locator('#outcome-h').evaluate((h) => h.firstChild?.textContent)).toBe(`Panel ${o.panel} of the portfolio`)
    expect(await web.page.locator('#outcome .outcome-section h3').allTextContents()).toEqual([`Members (${K})`, `Quotas (${o.quotas.length} of ${o.quotas.length} met)`])
    expect(await tableRows(0)).toEqual(o.members.map((m) => [`#${m.rank}`, ...byColumns(m.entry), String(m.index + 1)]))
    expect(await tableRows(1)).toEqual(o.quotas.map((q) => [q.feature, q.value, String(q.min), String(q.max), String(q.selected), 'yes ✓']))
  })

  it('at 390 px a panel proof never scrolls the page sideways', async () => {
    const phone = await web.browser.newPage({ viewport: { width: 390, height: 844 } })
    try {
      await phone.goto(web.relaxedUrl)
      await loadProof(phone, proof, 'file')
      const layout = await phone.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        wide: [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > 390.5 && e.getClientRects().length > 0 && e.closest('.table-scroll') === null)
          .slice(0, 8)
          .map((e) => `${e.tagName.toLowerCase()}${e.id === '' ? '' : `#${e.id}`}.${[...e.classList].join('.')} → ${Math.round(e.getBoundingClientRect().right)}px`),
        boxes: [...document.querySelectorAll('#outcome .table-scroll')].map((b) => b.getBoundingClientRect().right),
      }))
      expect(layout.width, layout.wide.join('\n')).toBeLessThanOrEqual(390)
      for (const right of layout.boxes) expect(right).toBeLessThanOrEqual(390)
      // members, quotas, alternates and probabilities: no table overflows its box (the Selected and OK
      // columns of the quota table, and every feature column, stay on screen without scrolling)
      const tables = await phone.locator('#outcome .table-scroll').evaluateAll((boxes) => boxes.map((b) => ({ label: b.getAttribute('aria-label'), scroll: b.scrollWidth, client: b.clientWidth })))
      expect(tables.length).toBe(4)
      for (const t of tables) expect(t.scroll, `${t.label} overflows`).toBeLessThanOrEqual(t.client)
      const ok = phone.locator('#outcome .outcome-section').nth(1).locator('tbody tr').first().locator('td').last()
      expect(await ok.evaluate((td) => td.getBoundingClientRect().right)).toBeLessThanOrEqual(390)
    } finally {
      await phone.close()
    }
  })
})
