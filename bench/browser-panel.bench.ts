/**
 * The verifier page's worker on the largest `panel` proofs the engine produces today (issue 22): the
 * bench's 2,000 x 6 pool, k = 150, quotas at each value's proportional share ±3 seats, 10 alternates,
 * committed with plan method 2 (bench/panel-fixture.ts). Built here into a temporary directory, served
 * on loopback, in headless Chromium (`/usr/bin/chromium` driven by playwright-core): the worker's own
 * `verify` time (goal at most 15 s, issue 22 item 1) and the page's time from file picked to verdict
 * drawn, median of 3 after a warm-up run, beside `verify` of the same bytes in this Node process.
 *
 * Run alone: `npm run bench -- browser-panel`.
 */
import { verify } from '../src/core/verify.js'
import { timeInPage, withServedPage } from './browser-page.js'
import { timeMs, type BenchRow } from './harness.js'
import { ENGINE_ONLY } from './proof-fixture.js'
import { largestPanelProof } from './panel-fixture.js'

export default async function (): Promise<BenchRow[]> {
  return withServedPage('orbitdraw-bench-verifier-panel-', async (served) => {
    const panel = largestPanelProof()
    const { worker, whole } = await timeInPage(served, 'panel-150.json', Buffer.from(panel.text), 'the k = 150 panel proof')
    const node = await timeMs(async () => {
      const r = await verify(JSON.parse(panel.text), ENGINE_ONLY)
      if (!r.ok) throw new Error('verify failed on the k = 150 panel proof')
    }, 3, 1)
    const what = `panel of 150 from 2,000 respondents, 6 features, ±3, plan method 2, 10 alternates (${Math.round(panel.text.length / 1024)} KiB proof, ${panel.rounds} rounds)`
    return [
      { name: `verifier page worker's verify in Chromium: ${what}`, value: worker[1]!, unit: 'ms', baseline: { name: 'verify of the same proof in Node', value: node }, goal: '<= 15000 ms', met: worker[1]! <= 15_000 },
      { name: 'verifier page in Chromium: the same proof, file picked to verdict drawn', value: whole[1]!, unit: 'ms', baseline: { name: 'verify of the same proof in Node', value: node }, goal: 'report' },
    ]
  })
}
