/**
 * A command that writes until stopped ends when its reader goes away: `orbitdraw beacon watch | head -1`
 * exits (0, quietly) at the next block instead of running forever.
 */
import { describe, expect, it } from 'vitest'
import { BIN, runCommand, useEmulatorWorkspace } from './helpers.js'

const ws = useEmulatorWorkspace()

describe('a closed standard output', () => {
  it('beacon watch | head -1 prints one block and exits; beacon watch stops with exit 0, no error', async () => {
    const started = Date.now()
    const r = await runCommand('sh', ['-c', `"${process.execPath}" "${BIN}" beacon watch | head -1`], { ...ws.opts, timeoutMs: 20_000 })
    expect(r.signal, r.stderr).toBeNull()
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.split('\n')[0]).toMatch(/^\d{4}-\d\d-\d\dT.*block \d+ {2}baf\w+$/)
    expect(r.stderr).not.toMatch(/unexpected error|EPIPE|stopped after/)
    expect(Date.now() - started).toBeLessThan(20_000)
    // The watcher's own exit code (pipefail: the pipeline fails if it does).
    const s = await runCommand('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" beacon watch --json | head -c 10 >/dev/null`], { ...ws.opts, timeoutMs: 20_000 })
    expect([s.signal, s.code, s.stderr]).toEqual([null, 0, expect.not.stringMatching(/error/i)])
  })
})
