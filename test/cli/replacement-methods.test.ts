/**
 * A replacement that plan method 1 cannot admit, through the real binary against an in-process
 * emulator (issue 22 item 5; docs/spec.md, Panel replacements): `commit --replacing --dropped` falls back
 * to plan method 2 (or 3) as a `panel` commit does, the commitment names it (`"plan"`), and `draw` and
 * `verify` replay it.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { run, useEmulatorWorkspace, type RunOptions, STAMPED_DELAY } from './helpers.js'

const ws = useEmulatorWorkspace()
let dir: string
let opts: RunOptions

/**
 * 16 households of 4 (64 respondents, one feature whose quotas every panel meets): only the household
 * rule refuses rounds. A panel of 15 keeps it with probability about 1.1e-4 (so the original is method
 * 3); with 14 of them dropped, the replacements (14 of 49 available in 15 households) keep it with
 * probability about 3.9e-4 whoever the members were, so method 1's gate (7 of 2,000) admits them with
 * probability below 2e-5 and the commit falls back to method 2 (or, rarely, 3).
 */
function poolCsv(): string {
  const rows = ['id,group,address']
  for (let h = 0; h < 16; h++) for (let j = 0; j < 4; j++) rows.push(`r${h}-${j},${j % 2 === 0 ? 'a' : 'b'},"${h} Ash Road"`)
  return `${rows.join('\n')}\n`
}

beforeAll(async () => {
  dir = ws.dir
  opts = ws.opts
  await writeFile(join(dir, 'pool.csv'), poolCsv())
  await writeFile(join(dir, 'quotas.csv'), 'feature,value,min,max\ngroup,a,0,15\ngroup,b,0,15\n')
})

describe('orbitdraw commit --replacing: the replacement plan falls back from method 1', () => {
  it('commits "plan": 2 (or 3), draws with --original and verifies', async () => {
    const c = await run(['commit', '--pool', 'pool.csv', '--quotas', 'quotas.csv', '--panel', '15', '--household-column', 'address', '--delay', STAMPED_DELAY, '-o', 'p.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'p.json', '--participants', 'p.participants.txt', '-o', 'p.proof.json'], opts)
    expect(d.code, d.stderr).toBe(0)
    const proof = JSON.parse(await readFile(join(dir, 'p.proof.json'), 'utf8')) as { outcome: { members: { entry: string }[] } }
    const gone = proof.outcome.members.slice(1).map((m) => m.entry.split('|')[0]!)
    await writeFile(join(dir, 'dropped.txt'), `${gone.join('\n')}\n`)
    const rc = await run(['commit', '--replacing', 'p.proof.json', '--dropped', 'dropped.txt', '--pool-list', 'p.participants.txt', '--delay', STAMPED_DELAY, '-o', 'repl.json'], opts)
    expect(rc.code, rc.stderr).toBe(0)
    const file = JSON.parse(await readFile(join(dir, 'repl.json'), 'utf8')) as { commitment: { draw: { kind: string; plan?: number; maxRounds?: number; keep: number[] } } }
    const draw = file.commitment.draw
    expect(draw.kind).toBe('panel-replacement')
    expect(draw.keep).toHaveLength(1)
    expect([2, 3]).toContain(draw.plan)
    expect(draw.maxRounds === undefined).toBe(draw.plan === 2)
    const line = rc.stdout.split('\n').find((l) => l.trim().startsWith('orbitdraw draw '))!
    const rd = await run(line.trim().split(/\s+/).slice(1), opts)
    expect(rd.code, rd.stderr).toBe(0)
    const rv = await run(['verify', 'proof.json'], opts)
    expect(rv.code, rv.stdout + rv.stderr).toBe(0)
    expect(rv.stdout).toMatch(/✓ panel-replay\s+the 1 kept member\(s\) and the 14 replacement\(s\) the seed draws/)
    expect(rv.stdout).toMatch(/✓ panel-households/)
    expect(rv.stdout).toMatch(/✓ follow-up-link/)
    // The same proof with the commitment's plan method removed is another commitment: it no longer matches the one the proof pins.
    const j = JSON.parse(await readFile(join(dir, 'proof.json'), 'utf8')) as { commitment: { draw: Record<string, unknown> } }
    delete j.commitment.draw.plan
    delete j.commitment.draw.maxRounds
    await writeFile(join(dir, 'noplan.json'), JSON.stringify(j))
    const nv = await run(['verify', 'noplan.json'], opts)
    expect(nv.code).toBe(1)
  }, 180_000)
})
