import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Fails any test file whose output contains a client secret or an access token.
    setupFiles: ['test/setup/secret-scan.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One worker more than the cores. Vitest 4.1's own default is one fewer than the cores, which is a
    // single worker on a 2-core machine. But the CLI, emulator and browser tests spend most of their
    // time waiting for the emulator's blocks: three CLI files took 108 s of wall time for 40 s of CPU.
    // On 2 cores the whole suite took 1,211 s with one worker and 591 s with three (2026-11-28).
    maxWorkers: availableParallelism() + 1,
  },
})
