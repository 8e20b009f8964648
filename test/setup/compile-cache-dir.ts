/**
 * Global setup: one private directory for the `orbitdraw` command's V8 code cache
 * (`src/cli/launcher/compile-cache.ts`) for the whole run, removed at the end. Every command the CLI
 * tests run gets it as `ORBITDRAW_COMPILE_CACHE` (`test/cli/helpers.ts`), so the suite runs the command
 * as users do (the cache on, mostly hits) without writing into the home directory.
 * `test/cli/compile-cache.test.ts` uses directories of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compile cache directory of the run's `orbitdraw` commands. */
    compileCacheDir: string
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'orbitdraw-test-compile-cache-'))
  project.provide('compileCacheDir', dir)
  return () => rmSync(dir, { recursive: true, force: true })
}
