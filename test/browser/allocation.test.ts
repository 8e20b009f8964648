/**
 * The verifier page's view of the allocation kinds in headless Chromium: a `stages` proof (the stages
 * table, each stage's winners) and a `preference-lottery` proof (the allocation table, each category's
 * winners with their global rank, the general pool) verify on the real build; a tampered stage winner
 * shows the failed `outcome` check.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { commit, drawFromBlock, verify, type Proof } from '../../src/core/index.js'
import type { StagesOutcomeJson } from '../../src/core/kinds/index.js'
import type { PreferenceLotteryOutcomeJson } from '../../src/core/kinds/index.js'
import { stagesDraw } from '../../src/core/kinds/index.js'
import { preferenceLotteryDraw } from '../../src/core/kinds/index.js'
import { makePool } from '../../src/core/sortition/index.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { ENGINE_ONLY } from '../helpers/policy.js'
import { loadProof } from './harness.js'
import { useVerifierPage } from './page-fixture.js'

const CHAIN = buildChain(12, 'browser-allocation')
const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'allocation in the page' }
const W = { I: 1, II: 2, III: 3, IV: 4 }

describe('verifier page: stages and preference-lottery (headless Chromium)', () => {
  let stages: Proof
  let housing: Proof
  beforeAll(() => {
    const regs = makePool(['degree', 'wage'], Array.from({ length: 40 }, (_, i) => ({ id: `R${String(i).padStart(2, '0')}`, values: [i % 3 === 0 ? 'advanced' : 'bachelor', ['I', 'II', 'III', 'IV'][i % 4]!] })))
    const s = stagesDraw(regs, [
      { name: 'regular', method: 'weighted', count: 6, weightBy: 'wage', weights: W },
      { name: 'advanced degree', method: 'weighted', count: 3, where: { degree: ['advanced'] }, weightBy: 'wage', weights: W },
    ])
    stages = drawFromBlock(commit({ ...base, draw: s.draw, participants: s.participants }).commitment, s.participants, CHAIN[10]!)
    const apps = makePool(['disability', 'local'], Array.from({ length: 30 }, (_, i) => ({ id: `A${String(i).padStart(2, '0')}`, values: [i % 5 === 0 ? 'yes' : 'no', i % 2 === 0 ? 'yes' : 'no'] })))
    const p = preferenceLotteryDraw(apps, [{ name: 'disability', where: { disability: ['yes'] }, units: 2 }, { name: 'local', where: { local: ['yes'] }, units: 3 }], 8)
    housing = drawFromBlock(commit({ ...base, draw: p.draw, participants: p.participants }).commitment, p.participants, CHAIN[10]!)
  })
  const web = useVerifierPage({ name: 'allocation' })
  const failedChecks = (): Promise<string[]> => web.page.locator('#checks li[data-ok="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check') ?? ''))
  const section = (i: number) => web.page.locator('#outcome .outcome-section').nth(i)
  /** A committed entry's ID: the text before its first `|column=value`. */
  const idOf = (entry: string): string => entry.split('|')[0]!

  it('a staged draw verifies and shows the stages table and each stage\'s winners', async () => {
    const o = stages.outcome as StagesOutcomeJson
    expect((await verify(stages, ENGINE_ONLY)).ok).toBe(true)
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, stages, 'file')
    expect(await failedChecks()).toEqual([])
    expect(await web.page.locator('#outcome').getAttribute('data-layout')).toBe('sections')
    expect(await web.page.locator('#outcome .outcome-section h3').allTextContents()).toEqual(['Stages', 'Stage 1: regular (6)', 'Stage 2: advanced degree (3)'])
    // Entries with committed columns are shown as sortition entries are: the ID, then one column per feature.
    expect(await section(1).locator('td.entry').allTextContents()).toEqual(o.stages[0]!.winners.map((w) => idOf(w.entry)))
    expect(await section(2).locator('td.entry').allTextContents()).toEqual(o.stages[1]!.winners.map((w) => idOf(w.entry)))
    expect(await section(1).locator('tr').first().textContent()).toContain('degree')
  }, 60_000)

  it('a preference lottery verifies and shows each category with global ranks', async () => {
    const o = housing.outcome as PreferenceLotteryOutcomeJson
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, housing, 'file')
    expect(await failedChecks()).toEqual([])
    expect(await web.page.locator('#outcome .outcome-section h3').allTextContents()).toEqual(['Allocation', 'disability (2 of 2)', 'local (3 of 3)', 'General pool (3 of 3)'])
    expect(await section(1).locator('td.entry').allTextContents()).toEqual(o.categories[0]!.winners.map((w) => idOf(w.entry)))
  }, 60_000)

  it('a tampered stage winner fails outcome in the page', async () => {
    const j = JSON.parse(JSON.stringify(stages)) as { outcome: { stages: { winners: { rank: number; index: number; entry: string }[] }[] } }
    const w = j.outcome.stages[1]!.winners
    ;[w[0], w[1]] = [{ ...w[1]!, rank: 1 }, { ...w[0]!, rank: 2 }]
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, j as unknown as Proof, 'file')
    expect(await failedChecks()).toEqual(['outcome'])
  }, 60_000)

  it('a tampered preference lottery (the first two global ranks swapped) fails outcome in the page', async () => {
    const j = JSON.parse(JSON.stringify(housing)) as { outcome: { order: number[] } }
    const order = j.outcome.order
    ;[order[0], order[1]] = [order[1]!, order[0]!]
    expect((await verify(j as unknown as Proof, ENGINE_ONLY)).checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['outcome'])
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, j as unknown as Proof, 'file')
    expect(await failedChecks()).toEqual(['outcome'])
  }, 60_000)
})
