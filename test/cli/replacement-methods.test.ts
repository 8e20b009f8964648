/**
 * A replacement that plan method 1 cannot admit, through the real binary against an in-process
 * emulator (issue 22 item 5; docs/spec.md, Panel replacements): `commit --replacing --dropped` falls back
 * to plan method 2 (or 3) as a `panel` commit does, the commitment names it (`"plan"`), and `draw` and
 * `verify` replay it. A private panel is replaced over its own list and secret (`--secret`), the one
 * root the link to the original checks.
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

describe('orbitdraw commit --replacing a private panel', () => {
  it('needs the original --secret, commits over the same root, draws winners-only and verifies the link', async () => {
    await writeFile(join(dir, 'small.csv'), `id,group\n${Array.from({ length: 24 }, (_, i) => `s${i},${'ab'[i % 2]}`).join('\n')}\n`)
    await writeFile(join(dir, 'small-quotas.csv'), 'feature,value,min,max\ngroup,a,2,4\ngroup,b,2,4\n')
    const c = await run(['commit', '--pool', 'small.csv', '--quotas', 'small-quotas.csv', '--panel', '6', '--private', '--delay', STAMPED_DELAY, '-o', 'priv.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'priv.json', '--participants', 'priv.participants.txt', '--secret', 'priv.secret.json', '-o', 'priv.proof.json'], opts)
    expect(d.code, d.stderr).toBe(0)
    const proof = JSON.parse(await readFile(join(dir, 'priv.proof.json'), 'utf8')) as { commitment: { participants: { root: string } }; outcome: { members: { entry: string }[] } }
    await writeFile(join(dir, 'priv-dropped.txt'), `${proof.outcome.members[0]!.entry.split('|')[0]!}\n`)
    const args = ['commit', '--replacing', 'priv.proof.json', '--dropped', 'priv-dropped.txt', '--pool-list', 'priv.participants.txt', '--delay', STAMPED_DELAY, '-o', 'privr.json']
    const refused = await run(args, opts)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('the followed draw is a private list: pass --secret FILE')
    const rc = await run([...args, '--secret', 'priv.secret.json'], opts)
    expect(rc.code, rc.stderr).toBe(0)
    const file = JSON.parse(await readFile(join(dir, 'privr.json'), 'utf8')) as { commitment: { participants: { root: string; salted: boolean } } }
    expect(file.commitment.participants).toMatchObject({ root: proof.commitment.participants.root, salted: true })
    const rd = await run(['draw', 'privr.json', '--participants', 'privr.participants.txt', '--secret', 'privr.secret.json', '--original', 'priv.proof.json', '-o', 'privr.proof.json'], opts)
    expect(rd.code, rd.stderr).toBe(0)
    const rv = await run(['verify', 'privr.proof.json'], opts)
    expect(rv.code, rv.stdout + rv.stderr).toBe(0)
    expect(rv.stdout).toMatch(/✓ follow-up-link\s+follows commitment/)
    // --secret belongs to a follow-up: on a new draw it is refused before any network call.
    const stray = await run(['commit', '-p', 'priv.participants.txt', '--pick', '1', '--secret', 'priv.secret.json', '-o', 'stray.json'], opts)
    expect(stray.code).toBe(2)
    expect(stray.stderr).toContain('--secret is for a follow-up of a private list (--replacing)')
  }, 180_000)
})
