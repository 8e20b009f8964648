/**
 * The verifier page's estimate of the probabilities on the largest `panel` proof (issue 22 item 7;
 * bench/panel-fixture.ts: 2,000 x 6, k = 150, ±3, plan method 2, about 1,000 rounds a sample panel), in
 * headless Chromium: the time from the button to the first partial figures on screen, the worker's
 * rate of sample panels (from two progress messages), the time from Stop to the stopped table, and the
 * time the whole 200-panel estimate would take at that rate, beside the same panels' time in this Node
 * process (`panelProbabilities` with the panels the page drew before the stop).
 *
 * Run alone: `npm run bench -- browser-estimate`.
 */
import { panelProbabilities } from '../src/core/kinds/panel-probabilities.js'
import { verify } from '../src/core/verify.js'
import { pickProof, withServedPage } from './browser-page.js'
import type { BenchRow } from './harness.js'
import { ENGINE_ONLY } from './proof-fixture.js'
import { largestPanelProof } from './panel-fixture.js'

export default async function (): Promise<BenchRow[]> {
  return withServedPage('orbitdraw-bench-estimate-', async ({ page, url }) => {
    const panel = largestPanelProof()
    const cid = (await verify(panel.proof, ENGINE_ONLY)).commitmentCid!
    await page.goto(url)
    await pickProof(page, 'panel-150.json', Buffer.from(panel.text))
    const drawn = (): Promise<number> => page.evaluate(() => Number(document.getElementById('probabilities')?.dataset.drawn ?? 0))
    const t0 = performance.now()
    await page.locator('#probabilities-button').click()
    await page.waitForFunction(() => document.querySelector('#probabilities-partial table') !== null, null, { timeout: 600_000, polling: 20 })
    const first = performance.now() - t0
    const d1 = await drawn()
    const t1 = performance.now()
    await page.waitForFunction((d) => Number(document.getElementById('probabilities')?.dataset.drawn ?? 0) >= d + 10, d1, { timeout: 600_000, polling: 50 })
    const d2 = await drawn()
    const rate = (d2 - d1) / ((performance.now() - t1) / 1000)
    const t2 = performance.now()
    await page.locator('#probabilities-stop').click()
    // Since the faster rounds the whole estimate may end before Stop lands ('done'): then there is no Stop time to report.
    await page.waitForFunction(() => ['stopped', 'done'].includes(document.getElementById('probabilities')?.dataset.state ?? ''), null, { timeout: 600_000, polling: 20 })
    const stop = performance.now() - t2
    const stopped = (await page.evaluate(() => document.getElementById('probabilities')?.dataset.state)) === 'stopped'
    const status = (await page.locator('#probabilities-status').textContent()) ?? ''
    const n = stopped ? Number(/Stopped after (\d+) of/.exec(status)?.[1]) : 200
    const n0 = performance.now()
    panelProbabilities(panel.proof.commitment.draw as never, cid, n)
    const node = (performance.now() - n0) / n
    const what = 'panel of 150 from 2,000 respondents, 6 features, ±3, plan method 2'
    return [
      { name: `verifier page estimate in Chromium, ${what}: button to the first partial figures on screen (${d1} sample panels)`, value: first, unit: 'ms', goal: 'report' },
      { name: 'the same: sample panels per second in the page worker', value: Math.round(rate * 100) / 100, unit: 'panels/s', baseline: { name: 'panels per second of panelProbabilities in Node (same panels)', value: Math.round((1000 / node) * 100) / 100 }, goal: 'report' },
      { name: 'the same: 200 sample panels at that rate (the full estimate)', value: Math.round((200 / rate) * 1000), unit: 'ms', goal: 'report' },
      ...(stopped ? [{ name: `the same: Stop to the stopped table (the figures of ${n} panels)`, value: stop, unit: 'ms', goal: 'report' as const }] : []),
    ]
  })
}
