/**
 * The verifier page's view of a published re-roll in headless Chromium (issue 27 item 3): a `reroll`
 * proof carrying its original verifies on the real build, with follow-up-original, follow-up-link,
 * reroll-kept and reroll-never-won passed and the winners and replacements shown; a replacement
 * swapped for a past winner fails outcome and reroll-never-won, by name.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { commit, drawFromBlock, verify, type Proof } from '../../src/core/index.js'
import { rerollDraw, type RerollOutcomeJson } from '../../src/core/kinds/index.js'
import { withOriginal } from '../../src/core/follow-up.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { ENGINE_ONLY } from '../helpers/policy.js'
import { loadProof } from './harness.js'
import { useVerifierPage } from './page-fixture.js'

const CHAIN = buildChain(14, 'browser-reroll')
const base = { beacon: BEACON_NAME, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'Giveaway re-roll' }
const NAMES = Array.from({ length: 30 }, (_, i) => `Follower ${String(i).padStart(2, '0')}`)

describe('verifier page: a re-roll (headless Chromium)', () => {
  let original: Proof
  let reroll: Proof
  beforeAll(() => {
    const o = commit({ ...base, target: 9, draw: { kind: 'pick', count: 3 }, participants: NAMES })
    original = drawFromBlock(o.commitment, NAMES, CHAIN[9]!)
    const declined = (original.outcome as RerollOutcomeJson).winners[1]!.index
    const spec = rerollDraw(original, [declined], o.cid, 'fresh')
    reroll = withOriginal(drawFromBlock(commit({ ...base, target: 12, draw: spec, participants: NAMES }).commitment, NAMES, CHAIN[12]!), original) as Proof
  })
  const web = useVerifierPage({ name: 'reroll' })
  const checks = (ok: boolean): Promise<string[]> => web.page.locator(`#checks li[data-ok="${String(ok)}"]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-check') ?? ''))
  const section = (i: number) => web.page.locator('#outcome .outcome-section').nth(i)

  it('verifies with the original carried: the follow-up and re-roll checks pass, winners and replacements shown', async () => {
    expect((await verify(reroll, ENGINE_ONLY)).ok).toBe(true)
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, reroll, 'file')
    expect(await checks(false)).toEqual([])
    const passed = await checks(true)
    for (const name of ['outcome', 'reroll-kept', 'reroll-never-won', 'follow-up-original', 'follow-up-link']) expect(passed).toContain(name)
    const o = reroll.outcome as RerollOutcomeJson
    expect(await web.page.locator('#outcome .outcome-section h3').allTextContents()).toEqual(['Winners', 'Replacements', 'Declined or dropped out (1)'])
    expect(await section(0).locator('td.entry').allTextContents()).toEqual(o.winners.map((w) => w.entry))
    expect(await section(1).locator('td.entry').allTextContents()).toEqual([o.replacements[0]!.entry])
    // the follow-up's link: who declined, as the carried original lists them, and the original's commitment
    expect(await section(2).locator('td.entry').allTextContents()).toEqual([(original.outcome as RerollOutcomeJson).winners[1]!.entry])
    expect(await section(2).locator('.section-note').textContent()).toContain(`commitment ${original.commitmentCid}`)
    expect(web.pageErrors).toEqual([])
  })

  it('a replacement swapped for a past winner fails outcome and reroll-never-won', async () => {
    const j = JSON.parse(JSON.stringify(reroll)) as { outcome: RerollOutcomeJson & { winners: { rank: number; index: number; entry: string }[]; replacements: { rank: number; index: number; entry: string }[] } }
    const past = (original.outcome as RerollOutcomeJson).winners[0]!
    j.outcome.winners[1] = { ...past, rank: 2 }
    j.outcome.replacements[0] = { ...past, rank: 2 }
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, j, 'file')
    expect(await web.page.locator('#verdict').getAttribute('data-tier')).toBe('failed')
    expect(await checks(false)).toEqual(['outcome', 'reroll-never-won'])
  })
})
