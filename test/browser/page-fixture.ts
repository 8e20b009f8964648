/**
 * The one per-file fixture of the browser suites: in `beforeAll`, the verifier page built into a
 * temporary directory (so a suite never races a developer's `dist/`), served on a free loopback port,
 * and Debian's Chromium with one page open whose uncaught errors are collected; in `afterAll`, all of it
 * closed and removed. Kept apart from `harness.ts`, which the screenshot script also imports outside
 * Vitest.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { buildVerifier, type BuildVerifierResult } from '../../scripts/build-verifier.js'
import { launchChromium, serveDir } from './harness.js'

export interface VerifierPageOptions {
  /** Names the temporary directory (`orbitdraw-verifier-NAME-`). */
  name: string
  /** Builds the page with another worker entry (a registry with a test kind). */
  workerEntry?: string
  /** In-memory files served beside the page, read once the suite's earlier `beforeAll` hooks ran. */
  files?: () => Record<string, string>
}

/** What a suite reads inside its tests (each getter throws before `beforeAll` has run). */
export interface VerifierPage {
  readonly built: BuildVerifierResult
  /** The page's address, ending in `/`. */
  readonly url: string
  /** The address with the engine-only policy set through the page's link parameters. */
  readonly relaxedUrl: string
  readonly browser: Browser
  /** The page opened in `beforeAll`; suites navigate it as they need. */
  readonly page: Page
  /** Uncaught errors of that page (`pageerror`), for a suite's "no page errors" test. */
  readonly pageErrors: string[]
}

/**
 * Registers the `beforeAll`/`afterAll` pair of a browser suite and returns the handles. Call it inside
 * `describe`, after any `beforeAll` whose results `files` reads.
 */
export function useVerifierPage(options: VerifierPageOptions): VerifierPage {
  let outDir: string | undefined
  let built: BuildVerifierResult | undefined
  let server: Awaited<ReturnType<typeof serveDir>> | undefined
  let browser: Browser | undefined
  let page: Page | undefined
  const pageErrors: string[] = []

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), `orbitdraw-verifier-${options.name}-`))
    built = await buildVerifier({ outDir, ...(options.workerEntry === undefined ? {} : { workerEntry: options.workerEntry }) })
    server = await serveDir(dirname(built.htmlPath), options.files?.() ?? {})
    browser = await launchChromium()
    page = await browser.newPage()
    page.on('pageerror', (e) => pageErrors.push(String(e)))
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    if (outDir !== undefined) await rm(outDir, { recursive: true, force: true })
  })

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the verifier page fixture has no ${what} yet: read it inside a test, after beforeAll`)
    return value
  }
  return {
    get built() {
      return ready(built, 'build')
    },
    get url() {
      return ready(server, 'server').url
    },
    get relaxedUrl() {
      return `${ready(server, 'server').url}?allow-unsigned=1&allow-untimestamped=1`
    },
    get browser() {
      return ready(browser, 'browser')
    },
    get page() {
      return ready(page, 'page')
    },
    pageErrors,
  }
}
