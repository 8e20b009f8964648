/**
 * A replacement committed under plan method 3 (issue 22 item 5; docs/spec.md, Panel replacements)
 * verifies on the verifier page in headless Chromium as in Node: the page's worker replays the committed
 * method (its round cap), every check passes; a member swapped for an outsider fails `panel-replay` on
 * the page too. The page does not show a plan method for a panel, so it shows none for a replacement.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { withOriginal } from '../../src/core/follow-up.js'
import { panelDraw, type PanelOutcomeJson } from '../../src/core/kinds/panel.js'
import { panelReplacementDraw } from '../../src/core/kinds/panel-replacement.js'
import { verify } from '../../src/core/verify.js'
import type { Proof } from '../../src/core/proof.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { ENGINE_ONLY } from '../helpers/policy.js'
import { proportionalQuotas, smallPool } from '../core/sortition/fixtures.js'
import { loadProof, swapFirstMemberForOutsider } from './harness.js'
import { useVerifierPage } from './page-fixture.js'

// The chain and label of test/core/kinds/panel-replacement-methods.test.ts: there this replacement needs method 3.
const CHAIN = buildChain(14, 'search')
const base = { beacon: BEACON_NAME, after: { sequence: 5, block: CHAIN[5]!.cid }, label: 's' }

describe('verifier page: a plan-method-3 replacement proof (headless Chromium)', () => {
  let replacement: Proof
  let plan: number | undefined
  beforeAll(() => {
    const pool = smallPool(40, [2, 2, 2, 2, 2], 11)
    const { draw, participants } = panelDraw(pool, proportionalQuotas(pool, 12, 0), 12)
    const { commitment, cid } = commit({ ...base, target: 8, draw, participants })
    const original = drawFromBlock(commitment, participants, CHAIN[8]!)
    const members = (original.outcome as PanelOutcomeJson).members.map((m) => m.index)
    const spec = panelReplacementDraw(original, members.slice(0, 4), cid, { exactFeatures: [] })
    plan = spec.plan
    const c = commit({ ...base, target: 12, draw: spec, participants })
    replacement = withOriginal(drawFromBlock(c.commitment, participants, CHAIN[12]!), original) as Proof
  })
  const web = useVerifierPage({ name: 'replacement-methods' })
  const failedChecks = (): Promise<string[]> => web.page.locator('#checks li[data-ok="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check') ?? ''))

  it('verifies on the page, every check passed, as in Node', async () => {
    expect(plan).toBe(3)
    const r = await verify(replacement, ENGINE_ONLY)
    expect(r.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([])
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, replacement, 'file')
    expect(await failedChecks()).toEqual([])
    const checks = await web.page.locator('#checks li').evaluateAll((els) => els.map((e) => e.getAttribute('data-check')))
    for (const name of ['follow-up-original', 'follow-up-link', 'panel-replay', 'panel-quotas']) expect(checks).toContain(name)
  }, 120_000)

  it('a member swapped for an outsider fails panel-replay on the page', async () => {
    const bad = JSON.parse(JSON.stringify(replacement)) as Parameters<typeof swapFirstMemberForOutsider>[0]
    swapFirstMemberForOutsider(bad)
    await web.page.goto(web.relaxedUrl)
    await loadProof(web.page, bad, 'file')
    expect(await failedChecks()).toContain('panel-replay')
  }, 120_000)

  it('no page errors', () => {
    expect(web.pageErrors).toEqual([])
  })
})
