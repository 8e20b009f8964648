/**
 * The `tiebreak` kind through the real binary against an in-process emulator: commit --tiebreak,
 * draw, verify, and the ranking printed (ties broken, scores in order).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { run, useEmulatorWorkspace, STAMPED_DELAY } from './helpers.js'

const ws = useEmulatorWorkspace({ files: { 'results.txt': 'ana\nben\ncai\ndee\neli\n' } })

describe('orbitdraw commit --tiebreak', () => {
  it('commits scores, draws the ranking with ties broken, verifies; a wrong number of scores is refused', async () => {
    const bad = await run(['commit', '--participants', 'results.txt', '--tiebreak', '3,1', '--delay', STAMPED_DELAY, '-o', 'bad.json'], ws.opts)
    expect(bad.code).not.toBe(0)
    expect(bad.stdout + bad.stderr).toContain('2 score(s) for 5 participants')
    const c = await run(['commit', '--participants', 'results.txt', '--tiebreak', '7,9,7,12,7', '--delay', STAMPED_DELAY, '-o', 'tb.commitment.json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    expect(c.stdout).toContain('tie-break: rank 5 by score, 3 entries tied in 1 group(s) ordered by the seed')
    const d = await run(['draw', 'tb.commitment.json', '--participants', 'results.txt', '-o', 'tb.proof.json'], ws.opts)
    expect(d.code, d.stderr).toBe(0)
    expect(d.stdout).toMatch(/ranking \(ties broken by the seed\):\n\s+1\. dee[^\n]*\n\s+2\. ben/i)
    const proof = JSON.parse(await readFile(join(ws.dir, 'tb.proof.json'), 'utf8')) as { outcome: { ranking: { entry: string }[] } }
    expect(proof.outcome.ranking.slice(2).map((r) => r.entry).sort()).toEqual(['ana', 'cai', 'eli'])
    const v = await run(['verify', 'tb.proof.json'], ws.opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    expect(v.stdout).toContain('VERIFIED: every check passed')
  }, 60_000)
})
