/**
 * Commit's target window through the binary: a unit is required, a short window warns, a target
 * months away needs --force and is shown in days; `--wait-timeout` expiry and a network loss during
 * `draw` are told in the CLI's words (nothing written, run it again); a proof given to `draw` is named.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatDuration, MAX_COMMITMENT_FILE_BYTES } from '../../src/cli/common.js'
import { closedPort, json, names, run, useEmulatorWorkspace } from './helpers.js'

const ws = useEmulatorWorkspace({ files: { 'names.txt': names(4) } })

describe('commit --delay', () => {
  it('a bare number is refused: the unit is required', async () => {
    const r = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', '10'], ws.opts)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--delay needs a unit: 10s, 10m or 10h (got "10")')
  })

  it('a window under 2 minutes warns on stderr that there is little time to publish', async () => {
    const r = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', '5s', '--no-timestamp', '-o', 'short.json'], ws.opts)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/warning: the target block is only ~\d+s away: the CID must be published \(and time-stamped\) before it appears/)
    const long = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', '3m', '--no-timestamp', '-o', 'long.json'], ws.opts)
    expect(long.code, long.stderr).toBe(0)
    expect(long.stderr).not.toContain('warning')
  })

  it('a target more than 30 days away needs --force; with it, the wait is shown in days', async () => {
    const r = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', '400d', '--no-timestamp', '-o', 'far.json'], ws.opts)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/~400d\d\dh from now; pass --force if you mean a target that far away/)
    const f = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', '400d', '--no-timestamp', '-o', 'far.json', '--force'], ws.opts)
    expect(f.code, f.stderr).toBe(0)
    expect(f.stdout).toMatch(/\(in ~400d\d\dh\)/)
    expect(formatDuration(86_400_000 * 2 + 3_600_000 * 5)).toBe('2d05h')
    expect(formatDuration(86_400_000 * 1500)).toBe('1,500d00h')
  })
})

describe('draw: waiting and network failures in the CLI\'s words', () => {
  it('--wait-timeout expiry is not called a network failure, and says what to do', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', '10m', '--no-timestamp', '-o', 'later.json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'later.json', '-p', 'names.txt', '--wait-timeout', '1s', '--quiet', '-o', 'x.proof.json'], ws.opts)
    expect(d.code).toBe(3)
    expect(d.stderr).toMatch(/^orbitdraw: gave up waiting \(--wait-timeout 1s\): block \d+ did not appear/)
    expect(d.stderr).not.toContain('network failure')
    expect(d.stderr).toContain('nothing was written; run the same command again: the outcome is fixed by the commitment')
    expect(d.stderr).toContain('--wait-timeout')
    expect(d.stderr).not.toMatch(/timeoutMs|waitFor\(\)/)
  })

  it('a network loss says nothing was written and to run the same command again; hints name CLI flags', async () => {
    const port = await closedPort()
    const d = await run(['draw', 'later.json', '-p', 'names.txt', '--quiet', '-o', 'y.proof.json', '--gateway', `http://127.0.0.1:${port}`, '--json'], ws.opts)
    expect(d.code).toBe(3)
    const e = json<{ error: { message: string; hint: string } }>(d).error
    expect(e.hint).toContain('nothing was written; run the same command again: the outcome is fixed by the commitment')
    expect(e.hint).not.toMatch(/timeoutMs|`failures`/)
  })

  it('a proof given where a commitment is expected says so', async () => {
    const proof = { type: 'orbitdraw-proof', version: 1 }
    await writeFile(join(ws.dir, 'a.proof.json'), JSON.stringify(proof))
    const d = await run(['draw', 'a.proof.json', '-p', 'names.txt'], ws.opts)
    expect(d.code).toBe(4)
    expect(d.stderr).toContain('a.proof.json is a proof, not a commitment')
    expect(d.stderr).toContain("orbitdraw verify a.proof.json")
  })

  it('a proof too large to be a commitment is still named as a proof, not by its size', async () => {
    await writeFile(join(ws.dir, 'big.proof.json'), `{"type":"orbitdraw-proof","version":1,"pad":"${'x'.repeat(MAX_COMMITMENT_FILE_BYTES + 10)}"}`)
    const d = await run(['draw', 'big.proof.json', '-p', 'names.txt'], ws.opts)
    expect(d.code).toBe(4)
    expect(d.stderr).toContain('big.proof.json is a proof, not a commitment')
    expect(d.stderr).not.toMatch(/bytes/)
  })
})
