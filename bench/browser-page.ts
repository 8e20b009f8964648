/**
 * What the browser benches share: the verifier page built into a temporary directory, served on
 * loopback and opened in headless Chromium (`/usr/bin/chromium` driven by playwright-core; never a
 * downloaded browser), and the timing of a proof handed to it through the file picker.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Page } from 'playwright-core'
import { buildVerifier, type BuildVerifierResult } from '../scripts/build-verifier.js'
import { FINAL_STATES, launchChromium, serveDir } from '../test/browser/harness.js'

/** A served page: its Chromium tab, the page's URL with the engine-only policy (the benches' proofs are unsigned and untimestamped), and the build's sizes. */
export interface ServedPage {
  readonly page: Page
  readonly url: string
  readonly built: BuildVerifierResult
}

/** Builds the page into a temporary directory named after `prefix`, serves it, opens it in Chromium, runs `use`, then closes and removes everything. */
export async function withServedPage<T>(prefix: string, use: (served: ServedPage) => Promise<T>): Promise<T> {
  const outDir = await mkdtemp(join(tmpdir(), prefix))
  const built = await buildVerifier({ outDir })
  const server = await serveDir(dirname(built.htmlPath))
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    return await use({ page, url: `${server.url}/index.html?allow-unsigned=1&allow-untimestamped=1`, built })
  } finally {
    await browser.close()
    await server.close()
    await rm(outDir, { recursive: true, force: true })
  }
}

/** Hands `buffer` to the page's file picker as `name` and waits for the verdict: the milliseconds it took and the page's final state. */
export async function pickProof(page: Page, name: string, buffer: Buffer): Promise<{ ms: number; state: string }> {
  const t0 = performance.now()
  await page.locator('#file').setInputFiles({ name, mimeType: 'application/json', buffer })
  await page.waitForFunction((states) => states.includes(document.body.dataset.state ?? ''), FINAL_STATES as readonly string[], { timeout: 600_000, polling: 20 })
  const ms = performance.now() - t0
  return { ms, state: (await page.evaluate(() => document.body.dataset.state)) ?? '' }
}

/**
 * Verifies `buffer` in the page `runs` times (a fresh load each time; the first run only warms the
 * browser's caches): each run's time from file picked to verdict drawn (`whole`) and the worker's own
 * `verify` time posted with the verdict (`worker`), both sorted. Throws unless every verdict is
 * `custom` (verified under the relaxed policy of the URL).
 */
export async function timeInPage(served: ServedPage, name: string, buffer: Buffer, what: string, runs = 4): Promise<{ whole: number[]; worker: number[] }> {
  const whole: number[] = []
  const worker: number[] = []
  for (let run = 0; run < runs; run++) {
    await served.page.goto(served.url)
    const { ms, state } = await pickProof(served.page, name, buffer)
    if (state !== 'custom') throw new Error(`the page's verdict on ${what} is "${state}", not "custom" (verified under a relaxed policy)`)
    if (run === 0) continue
    whole.push(ms)
    worker.push(Number(await served.page.locator('#result').getAttribute('data-verify-ms')))
  }
  return { whole: whole.sort((a, b) => a - b), worker: worker.sort((a, b) => a - b) }
}
