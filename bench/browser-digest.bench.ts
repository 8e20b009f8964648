/**
 * `participantsRoot` of 1,000,000 entries inside headless Chromium (`/usr/bin/chromium` driven by
 * playwright-core; never a downloaded browser) beside the specialised single-thread SHA-256 yardstick
 * (bench/yardstick-sha256.ts) in the same page, alternating (median of 5 after one warm-up pair): the
 * digest the verifier page computes, against the least hashing one thread can do (issue 15: <= 1.3x).
 * The two functions are bundled with esbuild for the browser (as the page is) and run in a dedicated
 * Web Worker started from a blob: URL (where the page runs verify); both roots are checked equal. `npm run bench -- browser-digest`.
 */
import { build } from 'esbuild'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { launchChromium } from '../test/browser/harness.js'
import type { BenchRow } from './harness.js'

const N = 1_000_000
const here = dirname(fileURLToPath(import.meta.url))

export default async function (): Promise<BenchRow[]> {
  const bundle = await build({ entryPoints: [join(here, 'browser', 'digest-entry.ts')], bundle: true, minify: true, format: 'iife', platform: 'browser', target: ['es2022'], write: false, logLevel: 'silent' })
  const code = bundle.outputFiles[0]!.text
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    await page.goto('about:blank')
    // In a dedicated Web Worker started from a blob: URL, as the verifier page runs its verify.
    const r = await page.evaluate(
      ([source, n]) =>
        new Promise<{ value: number; baseline: number; root: string }>((resolve, reject) => {
          const worker = new Worker(URL.createObjectURL(new Blob([`${source}\nonmessage = (e) => postMessage(orbitdrawDigestBench(e.data, 5, 1))`], { type: 'text/javascript' })))
          worker.onmessage = (e: MessageEvent<{ value: number; baseline: number; root: string }>) => resolve(e.data)
          worker.onerror = (e) => reject(new Error(e.message))
          worker.postMessage(n)
        }),
      [code, N] as const,
    )
    return [
      {
        name: 'participantsRoot in Chromium, 1,000,000 entries (validate + UTF-8 + MTH), in a Web Worker (as the page runs verify)',
        value: r.value,
        unit: 'ms',
        baseline: { name: 'specialised SHA-256 yardstick in the same page: 1M pre-padded leaves + 999,999 nodes', value: r.baseline },
        goal: '<= 1.3x baseline',
        met: r.value <= 1.3 * r.baseline,
      },
    ]
  } finally {
    await browser.close()
  }
}
