/**
 * The verifier page's per-type probabilities and replacement proofs in headless Chromium (issue 22,
 * items 3, 5 and 7): a `panel` proof whose plan leaves features to rejection offers the estimate,
 * computes it in the worker on request and shows it labelled ESTIMATE with each interval, one column
 * per feature, the same figures as `panelProbabilities` in Node (from the commitment alone); a
 * household panel's figures are per type and household size; at 390 px the table fits; a
 * `panel-replacement` proof verifies on the page and shows the replacements, the remaining members,
 * who dropped out and the link to the original commitment. The page is the real build.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { withOriginal } from '../../src/core/follow-up.js'
import { panelDraw, type PanelOutcomeJson } from '../../src/core/kinds/panel.js'
import { panelProbabilities, type PanelProbabilities } from '../../src/core/kinds/panel-probabilities.js'
import { panelReplacementDraw, type PanelReplacementOutcomeJson } from '../../src/core/kinds/panel-replacement.js'
import { PANEL_CHECK_NAMES } from '../../src/core/sortition/panel.js'
import { verify } from '../../src/core/verify.js'
import type { Proof } from '../../src/core/proof.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { ENGINE_ONLY } from '../helpers/policy.js'
import { largestPanelProof } from '../../bench/panel-fixture.js'
import { proportionalQuotas, smallPool } from '../core/sortition/fixtures.js'
import { loadProof, swapFirstMemberForOutsider } from './harness.js'
import { useVerifierPage } from './page-fixture.js'

const CHAIN = buildChain(14, 'browser-panel-probabilities')
const base = { beacon: BEACON_NAME, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'Riverside citizens’ assembly 2026' }
const K = 12
const pool = smallPool(300, [2, 4, 2], 41)
const quotas = proportionalQuotas(pool, K, 1)
const names = pool.features.map((f) => f.name)

function proofOf(draw: Parameters<typeof commit>[0]['draw'], participants: readonly string[], target: number): { proof: Proof; cid: string } {
  const { commitment, cid } = commit({ ...base, target, draw, participants })
  return { proof: drawFromBlock(commitment, participants, CHAIN[target]!), cid }
}

/** An entry `id|feature=value|…` as the page's columns: the id, then each feature's value. */
function byColumns(entry: string): string[] {
  const parts = entry.split('|')
  return [parts[0]!, ...parts.slice(1).map((p) => p.slice(p.indexOf('=') + 1))]
}

/** The estimate's rows as the page must show them: each feature's value, respondents, estimate, interval. */
function estimateRows(p: PanelProbabilities): string[][] {
  return p.types.map((t) => {
    if (!('estimate' in t)) throw new Error('estimate rows expected')
    return [...t.type.split('|').map((x) => x.slice(x.indexOf('=') + 1)), ...(p.households ? [String(t.household)] : []), String(t.respondents), t.estimate.toFixed(4), `${t.low.toFixed(4)} – ${t.high.toFixed(4)}`]
  })
}

describe('verifier page: probabilities by type and replacement proofs (headless Chromium)', () => {
  let rejection: { proof: Proof; cid: string }
  let households: { proof: Proof; cid: string }
  let original: { proof: Proof; cid: string; participants: readonly string[] }
  let replacement: Proof

  beforeAll(() => {
    const r = panelDraw(pool, quotas, K, { exactFeatures: ['f1'], alternates: 2 })
    rejection = proofOf(r.draw, r.participants, 10)
    const homes = new Map(pool.respondents.map((x, i) => [x.id, `${i % 150} Mill Lane`]))
    const hh = panelDraw(pool, quotas, K, { households: homes })
    households = proofOf(hh.draw, hh.participants, 10)
    original = { ...proofOf(hh.draw, hh.participants, 9), participants: hh.participants }
    const members = (original.proof.outcome as PanelOutcomeJson).members.map((m) => m.index)
    const spec = panelReplacementDraw(original.proof, [members[2]!, members[7]!], original.cid)
    const { commitment } = commit({ ...base, target: 12, draw: spec, participants: hh.participants })
    replacement = withOriginal(drawFromBlock(commitment, hh.participants, CHAIN[12]!), original.proof) as Proof
  })
  const web = useVerifierPage({ name: 'panel-probabilities' })
  const failedChecks = (page: Page = web.page): Promise<string[]> => page.locator('#checks li[data-ok="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check') ?? ''))
  const rowsOf = (page: Page, selector: string): Promise<string[][]> => page.locator(`${selector} tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td:not(.type-joined)')].map((td) => td.textContent ?? '')))

  /** Presses the page's probabilities button and waits for the worker's table. */
  async function estimate(page: Page): Promise<void> {
    expect(await page.locator('#probabilities').getAttribute('data-state')).toBe('offered')
    await page.locator('#probabilities-button').click()
    await page.waitForFunction(() => ['done', 'failed'].includes(document.getElementById('probabilities')?.dataset.state ?? ''), null, { timeout: 120_000 })
    expect(await page.locator('#probabilities').getAttribute('data-state')).toBe('done')
  }

  it('a plan with rejection: the estimate, labelled, with its interval, one column per feature, the figures Node computes from the commitment alone', async () => {
    expect((rejection.proof.outcome as PanelOutcomeJson).probabilities).toBeUndefined()
    const want = panelProbabilities(rejection.proof.commitment.draw as never, rejection.cid)
    expect(want.kind).toBe('estimate')
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, rejection.proof, 'file')
    expect(await failedChecks()).toEqual([])
    // The offer before any work: what will be computed, from what, and the button.
    expect(await web.page.locator('#probabilities h3').textContent()).toBe('Selection probability by type')
    expect(await web.page.locator('#probabilities .section-note').first().textContent()).toMatch(/estimate them from 200 sample panels drawn on a stream derived from the commitment alone \(never the beacon\)/)
    expect(await web.page.locator('#probabilities-button').textContent()).toBe('Estimate from 200 sample panels')
    await estimate(web.page)
    expect(await web.page.locator('#probabilities h3').textContent()).toBe('Selection probability by type — ESTIMATE')
    const note = (await web.page.locator('#probabilities .section-note').textContent()) ?? ''
    expect(note).toContain(`ESTIMATE from 200 sample panels drawn on a stream derived from the commitment ${rejection.cid} alone (never the beacon)`)
    expect(note).toMatch(/Summary \(estimate\): lowest 0\.\d{4} \[0\.\d{4}, [01]\.\d{4}\] \(.+\), highest 0\.\d{4} \[0\.\d{4}, [01]\.\d{4}\] \(.+\), highest\/lowest \d+\.\d\d; equal share k\/n 0\.0400/)
    expect(await web.page.locator('#probabilities th:not(.type-joined)').allTextContents()).toEqual([...names, 'Respondents', 'Estimate', '95 % interval'])
    expect(await rowsOf(web.page, '#probabilities')).toEqual(estimateRows(want))
    expect(web.pageErrors).toEqual([])
  })

  it('a household panel: the estimate is per type under the household rule, and says so', async () => {
    const o = households.proof.outcome as PanelOutcomeJson
    expect(o.probabilities).toBeUndefined()
    const want = panelProbabilities(households.proof.commitment.draw as never, households.cid)
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, households.proof, 'file')
    expect(await failedChecks()).toEqual([])
    expect(await web.page.locator('#checks li[data-check="panel-households"]').getAttribute('data-ok')).toBe('true')
    expect(await web.page.locator('#probabilities .section-note').first().textContent()).toMatch(/the draw has a household rule/)
    expect(await web.page.locator('#probabilities-button').textContent()).toBe('Compute the probabilities')
    await estimate(web.page)
    expect(await web.page.locator('#probabilities .section-note').textContent()).toMatch(/per type and household size \(1 = alone\): the average over the group's respondents under the household rule/)
    // Over the exact count's budget (150 households of two): the estimate, per type and household size.
    expect(want.kind).toBe('estimate')
    expect(await web.page.locator('#probabilities th:not(.type-joined)').allTextContents()).toEqual([...names, 'Household', 'Respondents', 'Estimate', '95 % interval'])
    expect(await rowsOf(web.page, '#probabilities')).toEqual(estimateRows(want))
  })

  it('a small household panel: exact figures per type and household size, the fractions Node computes', async () => {
    const small = smallPool(24, [2, 2], 7)
    const homes = new Map(small.respondents.map((x, i) => [x.id, i < 12 ? `${i % 6} Elm Rd` : x.id]))
    const hh = panelDraw(small, proportionalQuotas(small, 5, 1), 5, { households: homes })
    const p = proofOf(hh.draw, hh.participants, 11)
    const want = panelProbabilities(p.proof.commitment.draw as never, p.cid)
    expect(want.kind).toBe('exact')
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, p.proof, 'file')
    expect(await failedChecks()).toEqual([])
    await estimate(web.page)
    expect(await web.page.locator('#probabilities h3').textContent()).toBe('Selection probability by type (exact)')
    expect(await web.page.locator('#probabilities .section-note').textContent()).toMatch(/^exact \(counted with the household rule, per type and household size\)/)
    expect(await web.page.locator('#probabilities th:not(.type-joined)').allTextContents()).toEqual([...small.features.map((f) => f.name), 'Household', 'Respondents', 'Probability', 'Exact'])
    expect(await rowsOf(web.page, '#probabilities')).toEqual(want.types.map((t) => [...t.type.split('|').map((x) => x.slice(x.indexOf('=') + 1)), String(t.household), String(t.respondents), 'decimal' in t ? t.decimal : '', 'probability' in t ? t.probability : '']))
    expect(new Set(want.types.map((t) => t.household))).toEqual(new Set([1, 2]))
  })

  it('k = 150 (plan method 2, about 1,000 rounds a panel): progress and partial figures while it runs, Stop keeps them, the figures of inspect --panels n', async () => {
    const big = largestPanelProof()
    const cid = (await verify(big.proof, ENGINE_ONLY)).commitmentCid!
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, big.proof, 'file')
    expect(await failedChecks()).toEqual([])
    expect(await web.page.locator('#probabilities-stop').isHidden()).toBe(true)
    await web.page.locator('#probabilities-button').click()
    // About every second the worker posts the figures of the panels drawn so far.
    await web.page.waitForFunction(() => Number(document.getElementById('probabilities')?.dataset.drawn ?? 0) >= 2 && document.querySelector('#probabilities-partial table') !== null, null, { timeout: 180_000 })
    expect(await web.page.locator('#probabilities').getAttribute('data-state')).toBe('running')
    expect(await web.page.locator('#probabilities-status').textContent()).toMatch(/^Drawing sample panels: \d+ of 200\. The figures below are those of the panels drawn so far/)
    expect(await web.page.locator('#probabilities-partial h4').textContent()).toBe('Selection probability by type — ESTIMATE')
    expect(await web.page.locator('#probabilities-partial .section-note').textContent()).toMatch(/^ESTIMATE from \d+ sample panels drawn on a stream derived from the commitment/)
    // while it runs, only the first rows of the 1,236 types (re-laying out 500 rows every second kept the
    // main thread busy about 40 % of the time, up to 0.5 s at once); every row once it ends or is stopped
    expect(await web.page.locator('#probabilities-partial tbody tr').count()).toBe(50) // PARTIAL_ROWS, src/verifier/render-outcome.ts
    expect(await web.page.locator('#probabilities-partial .more').textContent()).toMatch(/… and 1,186 more/)
    expect(await web.page.locator('#probabilities-stop').isVisible()).toBe(true)
    await web.page.locator('#probabilities-stop').click()
    await web.page.waitForFunction(() => ['stopped', 'done', 'failed'].includes(document.getElementById('probabilities')?.dataset.state ?? ''), null, { timeout: 60_000 })
    expect(await web.page.locator('#probabilities').getAttribute('data-state')).toBe('stopped')
    const status = (await web.page.locator('#probabilities-status').textContent()) ?? ''
    const n = Number(/^Stopped after (\d+) of 200 sample panels: these are the figures of orbitdraw inspect --probabilities --panels (\d+) /.exec(status)?.[1])
    expect(n).toBeGreaterThanOrEqual(2)
    expect(n).toBeLessThan(200)
    expect(await web.page.locator('#probabilities .section-note').last().textContent()).toContain(`ESTIMATE from ${n} sample panels drawn on a stream derived from the commitment ${cid} alone`)
    // The figures shown are those Node computes for n panels from the commitment alone.
    // (the page shows the first 500 of the 1,236 types, as every table)
    const want = estimateRows(panelProbabilities(big.proof.commitment.draw as never, cid, n))
    const shown = await rowsOf(web.page, '#probabilities')
    expect(shown.length).toBeGreaterThanOrEqual(Math.min(500, want.length))
    expect(shown).toEqual(want.slice(0, shown.length))
    expect(web.pageErrors).toEqual([])
  }, 400_000)

  it('at 390 px the estimate table fits its box: every column on screen without scrolling', async () => {
    const phone = await web.browser.newPage({ viewport: { width: 390, height: 844 } })
    try {
      await phone.goto(web.relaxedUrl)
      await loadProof(phone, rejection.proof, 'file')
      await estimate(phone)
      const layout = await phone.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        box: (() => {
          const b = document.querySelector('#probabilities .table-scroll')!
          return { right: b.getBoundingClientRect().right, scroll: b.scrollWidth, client: b.clientWidth }
        })(),
        last: [...document.querySelectorAll('#probabilities tbody tr td:last-child')].map((td) => td.getBoundingClientRect().right),
      }))
      expect(layout.width).toBeLessThanOrEqual(390)
      expect(layout.box.right).toBeLessThanOrEqual(390)
      expect(layout.box.scroll, 'the estimate table overflows its box').toBeLessThanOrEqual(layout.box.client)
      for (const right of layout.last) expect(right).toBeLessThanOrEqual(390)
    } finally {
      await phone.close()
    }
  })

  it('at 390 px a type of five features is one cell: the estimate table fits its box, each type written whole', async () => {
    // Found by driving the page: with five features, each feature's column got about 25 px ("C/en/tr/e")
    // and the interval ran past the box. A phone now shows the type as one cell, its values joined by " · ".
    const five = smallPool(300, [2, 3, 2, 4, 3], 43)
    const r = panelDraw(five, proportionalQuotas(five, K, 1), K, { exactFeatures: ['f0'] })
    const { proof, cid } = proofOf(r.draw, r.participants, 11)
    const want = estimateRows(panelProbabilities(proof.commitment.draw as never, cid))
    const phone = await web.browser.newPage({ viewport: { width: 390, height: 844 } })
    try {
      await phone.goto(web.relaxedUrl)
      await loadProof(phone, proof, 'file')
      await estimate(phone)
      const layout = await phone.evaluate(() => {
        const box = document.querySelector('#probabilities .table-scroll')!
        const shown = (e: Element): boolean => getComputedStyle(e).display !== 'none'
        return {
          width: document.documentElement.scrollWidth,
          scroll: box.scrollWidth,
          client: box.clientWidth,
          heads: [...box.querySelectorAll('thead th')].filter(shown).map((th) => th.textContent),
          rows: [...box.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].filter(shown).map((td) => td.textContent)),
        }
      })
      expect(layout.width).toBeLessThanOrEqual(390)
      expect(layout.scroll, 'the estimate table overflows its box').toBeLessThanOrEqual(layout.client)
      expect(layout.heads).toEqual(['Type', 'Respondents', 'Estimate', '95 % interval'])
      expect(layout.rows).toEqual(want.map((row) => [row.slice(0, 5).join(' · '), ...row.slice(5)]))
    } finally {
      await phone.close()
    }
    // On a wide screen the same table has one column per feature, and no joined cell is shown.
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, proof, 'file')
    await estimate(web.page)
    const wide = await web.page.evaluate(() => [...document.querySelectorAll('#probabilities thead th')].filter((e) => getComputedStyle(e).display !== 'none').map((th) => th.textContent))
    expect(wide).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'Respondents', 'Estimate', '95 % interval'])
  })

  it('a panel-replacement proof verifies: the replacements, the remaining members, who dropped out, and the link to the original', async () => {
    const r = await verify(replacement, ENGINE_ONLY)
    expect(r.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([])
    const o = replacement.outcome as PanelReplacementOutcomeJson
    const originalMembers = (original.proof.outcome as PanelOutcomeJson).members
    const dropped = [originalMembers[2]!, originalMembers[7]!]
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, replacement, 'file')
    expect(await failedChecks()).toEqual([])
    const checks = await web.page.locator('#checks li').evaluateAll((els) => els.map((e) => e.getAttribute('data-check')))
    for (const name of ['follow-up-original', 'follow-up-link', 'panel-households', ...PANEL_CHECK_NAMES]) expect(checks).toContain(name)
    expect(await web.page.locator('#checks li[data-check="follow-up-link"]').textContent()).toContain(original.cid)
    expect(await web.page.locator('#outcome-h').evaluate((h) => h.firstChild?.textContent)).toBe(`Replacements (2) in a panel of ${K}`)
    const sections = web.page.locator('#outcome .outcome-section')
    expect(await sections.locator('h3').allTextContents()).toEqual(['Replacements (2)', `Remaining members (${K - 2})`, `Quotas (${o.quotas.length} of ${o.quotas.length} met)`, 'Declined or dropped out (2)', 'Replacement probability by type'])
    const rows = (i: number): Promise<string[][]> => sections.nth(i).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td:not(.type-joined)')].map((td) => td.textContent ?? '')))
    expect(await sections.nth(0).locator('th').allTextContents()).toEqual(['Rank', 'ID', ...names, 'Position in list'])
    expect(await rows(0)).toEqual(o.replacements.map((m) => [`#${m.rank}`, ...byColumns(m.entry), String(m.index + 1)]))
    const fresh = new Set(o.replacements.map((m) => m.index))
    expect(await rows(1)).toEqual(o.members.filter((m) => !fresh.has(m.index)).map((m) => [`#${m.rank}`, ...byColumns(m.entry), String(m.index + 1)]))
    expect(await rows(2)).toEqual(o.quotas.map((q) => [q.feature, q.value, String(q.min), String(q.max), String(q.selected), 'yes ✓']))
    // Who dropped out, as the carried original proof lists them (their original rank), and the link.
    expect(await rows(3)).toEqual(dropped.map((m) => [`#${m.rank}`, ...byColumns(m.entry), String(m.index + 1)]))
    expect(await sections.nth(3).locator('.section-note').textContent()).toContain(`members of the original draw, commitment ${original.cid} (target block 9)`)
    // The replacements' probabilities under the household rule: two replacements from the available
    // respondents are few enough to count exactly, per type and household size; the figures Node gives.
    const want = panelProbabilities(replacement.commitment.draw as never, r.commitmentCid!)
    expect(want).toMatchObject({ kind: 'exact', scope: 'replacements', households: true })
    await estimate(web.page)
    expect(await web.page.locator('#probabilities h3').textContent()).toBe('Replacement probability by type (exact)')
    expect(await web.page.locator('#probabilities .section-note').textContent()).toMatch(/the chance that a given available respondent of the type \(not kept, not dropped, not living with a kept member\) is drawn as a replacement/)
    expect(await rowsOf(web.page, '#probabilities')).toEqual(want.types.map((t) => [...t.type.split('|').map((x) => x.slice(x.indexOf('=') + 1)), String(t.household), String(t.respondents), 'decimal' in t ? t.decimal : '', 'probability' in t ? t.probability : '']))
    expect(web.pageErrors).toEqual([])
  })

  it('a tampered replacement (a kept member swapped out) fails its named checks on the page', async () => {
    const j = JSON.parse(JSON.stringify(replacement)) as { outcome: { members: { rank: number; index: number; entry: string }[] }; participants: { entries: string[] } }
    swapFirstMemberForOutsider(j)
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, j, 'file')
    expect(await web.page.locator('#verdict').getAttribute('data-tier')).toBe('failed')
    const failed = await failedChecks()
    expect(failed).toContain('outcome')
    expect(failed).toContain('panel-replay')
    expect(await web.page.locator('#outcome .tag-fail').textContent()).toBe('claimed by the proof — not verified')
  })
})
