/**
 * The browser verifier page (built here into a temporary directory, served on loopback) in headless
 * Chromium (`/usr/bin/chromium` driven by playwright-core; never a downloaded browser): time from
 * handing it the 1,000,000-entry public pick-3 proof (file picker) to its verdict, median of 3, beside
 * `verify` of the same bytes in this Node process (`JSON.parse` + `verify`, same policy: engine checks
 * only, set through the page's link parameters). Also reports the page's size. Then the 2,000-respondent,
 * k = 40 `panel` proof (bench/panel-fixture.ts, the same as bench/sortition.bench.ts): the page
 * worker's own `verify` time (goal < 10 s, issue 14) and the page's time to verdict, beside `verify`
 * of the same bytes in Node.
 */
import { verify } from '../src/core/verify.js'
import { timeInPage, withServedPage } from './browser-page.js'
import { timeMs, type BenchRow } from './harness.js'
import { bigProof, ENGINE_ONLY } from './proof-fixture.js'
import { panelProof2000 } from './panel-fixture.js'

const N = 1_000_000

export default async function (): Promise<BenchRow[]> {
  return withServedPage('orbitdraw-bench-verifier-', async (served) => {
    const { built } = served
    const { text } = bigProof(N)
    const { whole: times } = await timeInPage(served, 'proof.json', Buffer.from(text), 'the benchmark proof')
    const node = await timeMs(async () => {
      const r = await verify(JSON.parse(text), ENGINE_ONLY)
      if (!r.ok) throw new Error('verify failed')
    }, 3, 1)
    // The panel proof: the worker's verify time (posted back with the verdict) and the whole page time.
    const panel = panelProof2000()
    const { worker, whole } = await timeInPage(served, 'panel.json', Buffer.from(panel.text), 'the panel proof')
    const panelNode = await timeMs(async () => {
      const r = await verify(JSON.parse(panel.text), ENGINE_ONLY)
      if (!r.ok) throw new Error('verify failed on the panel proof')
    }, 3, 1)
    return [
      { name: `verifier page worker's verify in Chromium: panel of 40 from 2,000 respondents, 6 features, 10 alternates (${Math.round(panel.text.length / 1024)} KiB proof)`, value: worker[1]!, unit: 'ms', baseline: { name: 'verify of the same proof in Node', value: panelNode }, goal: '< 10000 ms', met: worker[1]! < 10_000 },
      { name: 'verifier page in Chromium: the same panel proof, file picked to verdict drawn', value: whole[1]!, unit: 'ms', baseline: { name: 'verify of the same proof in Node', value: panelNode }, goal: 'report' },
      { name: `verifier page in Chromium: 1,000,000-entry proof (${(text.length / 1e6).toFixed(1)} MB) to verdict`, value: times[1]!, unit: 'ms', baseline: { name: 'verify of the same bytes in Node', value: node }, goal: 'report' },
      { name: 'verifier page size (one HTML file), minified + gzip', value: built.page.gzip / 1024, unit: 'KiB', goal: 'report' },
      { name: 'verifier page size, minified', value: built.page.min / 1024, unit: 'KiB', goal: 'report' },
    ]
  })
}
