/**
 * Progress while a large participants file is hashed: `commit` and `draw` of a file over 8 MiB say how far
 * they are, one line per tenth in a log (stderr not a terminal); a small file gets no such line.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HASH_PROGRESS_FROM_BYTES } from '../../src/cli/hash-progress.js'
import { run, useEmulatorWorkspace } from './helpers.js'

const ws = useEmulatorWorkspace()

describe('hashing progress', () => {
  it('commit and draw of a file over 8 MiB print hashing progress by tenths; a small file prints none', { timeout: 120_000 }, async () => {
    const count = Math.ceil(HASH_PROGRESS_FROM_BYTES / 19) + 10_000 // 19 bytes a line
    const lines = Array.from({ length: count }, (_, i) => `entrant-${String(i).padStart(10, '0')}`)
    await writeFile(join(ws.dir, 'big.txt'), `${lines.join('\n')}\n`)
    const c = await run(['commit', '-p', 'big.txt', '--pick', '1', '--private', '--delay', '1s', '-o', 'big.commitment.json', '--no-timestamp'], { ...ws.opts, timeoutMs: 100_000 })
    expect(c.code, c.stderr).toBe(0)
    const steps = c.stderr.split('\n').filter((l) => l.startsWith('hashing big.txt: '))
    expect(steps[0]).toMatch(/^hashing big\.txt: \d+% \(\d+ of \d+ MiB\)$/)
    expect(steps.at(-1)).toMatch(/^hashing big\.txt: 100% /)
    expect(steps.length).toBeLessThanOrEqual(11)
    const d = await run(['draw', 'big.commitment.json', '-p', 'big.txt', '--secret', 'big.commitment.secret.json', '-o', 'big.proof.json'], { ...ws.opts, timeoutMs: 100_000 })
    expect(d.code, d.stderr).toBe(0)
    expect(d.stderr).toMatch(/^hashing big\.txt: 100% /m)
    await writeFile(join(ws.dir, 'small.txt'), 'a\nb\nc\n')
    const s = await run(['commit', '-p', 'small.txt', '--pick', '1', '--delay', '1s', '-o', 'small.commitment.json', '--no-timestamp'], ws.opts)
    expect(s.code, s.stderr).toBe(0)
    expect(s.stderr).not.toContain('hashing')
  })
})
