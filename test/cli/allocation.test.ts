/**
 * The allocation kinds through the real binary against an in-process emulator: `commit --participants
 * FILE.csv --stages FILE` (CSV and JSON stages files) and `--preferences CATEGORIES --units N` write the
 * commitment and the participants file, print a draw command that works as printed; draw shows the
 * sections; verify passes, and a tampered proof fails naming the check; bad stages are refused naming
 * the stage.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { printedDraw, run, useEmulatorWorkspace, type RunOptions, STAMPED_DELAY } from './helpers.js'

const ws = useEmulatorWorkspace()
let dir: string
let opts: RunOptions

beforeAll(async () => {
  dir = ws.dir
  opts = ws.opts
  const regs = Array.from({ length: 60 }, (_, i) => `R${String(i).padStart(3, '0')},${['I', 'II', 'III', 'IV'][i % 4]},${i % 3 === 0 ? 'advanced' : 'bachelor'}`)
  await writeFile(join(dir, 'registrations.csv'), `id,wage,degree\n${regs.join('\n')}\n`)
  await writeFile(join(dir, 'stages.csv'), 'name,method,count,rounding,where,weight_by,weights\nregular,weighted,12,,,wage,I=1;II=2;III=3;IV=4\nadvanced degree,pick,1/4,up,degree=advanced,,\n')
  await writeFile(join(dir, 'stages.json'), JSON.stringify([{ name: 'regular', method: 'weighted', count: 12, weightBy: 'wage', weights: { I: 1, II: 2, III: 3, IV: 4 } }, { name: 'advanced degree', method: 'pick', count: '1/4', rounding: 'up', where: { degree: ['advanced'] } }]))
  await writeFile(join(dir, 'bad-stages.csv'), 'name,method,count,where\nregular,pick,5,degree=phd\n')
  const apps = Array.from({ length: 40 }, (_, i) => `A${String(i).padStart(2, '0')},${i % 5 === 0 ? 'yes' : 'no'},${i % 2 === 0 ? 'yes' : 'no'}`)
  await writeFile(join(dir, 'applications.csv'), `id,disability,local\n${apps.join('\n')}\n`)
})

describe('orbitdraw commit --participants FILE.csv --stages FILE', () => {
  it('commits, draws as printed, shows each stage, verifies; a swapped winner fails outcome (exit 1)', async () => {
    const c = await run(['commit', '--participants', 'registrations.csv', '--stages', 'stages.csv', '--delay', STAMPED_DELAY, '-o', 'h1b.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    expect(c.stdout).toMatch(/2 stages over 60 entries, each excluding earlier winners: "regular": weighted by wage 12 of every entry; "advanced degree": pick 1\/4 \(rounded up\) of degree=advanced/)
    const args = printedDraw(c.stdout)
    expect(args).toEqual(['draw', 'h1b.json', '--participants', 'h1b.participants.txt', '-o', 'proof.json'])
    const list = (await readFile(join(dir, 'h1b.participants.txt'), 'utf8')).trim().split('\n')
    expect(list).toHaveLength(60)
    expect(list[0]).toMatch(/^R[0-9]{3}\|degree=advanced\|wage=I$/)
    const d = await run(args, opts)
    expect(d.code, d.stderr).toBe(0)
    expect(d.stdout).toMatch(/Stages:/)
    expect(d.stdout).toMatch(/^ {4}regular +60 +12 +12$/m)
    expect(d.stdout).toMatch(/^ {2}Stage 2: advanced degree \(\d+\):$/m)
    const v = await run(['verify', 'proof.json'], opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    expect(v.stdout).toContain('VERIFIED')
    expect(v.stdout).toMatch(/✓ outcome +"regular": 12 of 60 eligible; "advanced degree": \d+ of \d+ eligible/)
    const proof = JSON.parse(await readFile(join(dir, 'proof.json'), 'utf8')) as { outcome: { stages: { winners: { rank: number; index: number; entry: string }[] }[] } }
    const taken = new Set(proof.outcome.stages.flatMap((s) => s.winners.map((w) => w.index)))
    const other = list.findIndex((_, i) => !taken.has(i))
    proof.outcome.stages[0]!.winners[0] = { rank: 1, index: other, entry: list[other]! }
    await writeFile(join(dir, 'tampered.json'), JSON.stringify(proof, null, 2))
    const t = await run(['verify', 'tampered.json'], opts)
    expect(t.code).toBe(1)
    expect(t.stdout).toMatch(/✗ outcome +stage 1 \("regular"\): rank 1 should be/)
  }, 60_000)

  it('a JSON stages file makes the same commitment as the CSV one; a bad stage is refused naming it', async () => {
    const a = await run(['commit', '--participants', 'registrations.csv', '--stages', 'stages.csv', '--sequence', '999', '--json', '-o', 'a.json'], opts)
    const b = await run(['commit', '--participants', 'registrations.csv', '--stages', 'stages.json', '--sequence', '999', '--json', '-o', 'b.json'], opts)
    expect(a.code, a.stdout + a.stderr).toBe(0)
    expect(b.code, b.stderr).toBe(0)
    expect(JSON.parse(await readFile(join(dir, 'a.json'), 'utf8')).draw).toEqual(JSON.parse(await readFile(join(dir, 'b.json'), 'utf8')).draw)
    const bad = await run(['commit', '--participants', 'registrations.csv', '--stages', 'bad-stages.csv', '--sequence', '999', '-o', 'bad.json'], opts)
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toMatch(/"phd" is not a value of "degree"/)
    const none = await run(['commit', '--stages', 'stages.csv', '--sequence', '999', '-o', 'none.json'], opts)
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/--stages needs --participants FILE/)
  }, 60_000)
})

describe('orbitdraw commit --participants FILE.csv --preferences', () => {
  it('commits a preference lottery, draws as printed, shows each category, verifies', async () => {
    const c = await run(['commit', '--participants', 'applications.csv', '--preferences', 'disability:2,local:5', '--units', '10', '--delay', STAMPED_DELAY, '-o', 'housing.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    expect(c.stdout).toMatch(/preference lottery: 10 units among 40 applications, one rank for all; set-asides in priority order: "disability" 2 \(disability=yes\), "local" 5 \(local=yes\)/)
    const d = await run([...printedDraw(c.stdout).slice(0, -1), 'housing-proof.json'], opts)
    expect(d.code, d.stderr).toBe(0)
    expect(d.stdout).toMatch(/^ {2}disability \(2 of 2\):$/m)
    expect(d.stdout).toMatch(/^ {2}General pool \(3 of 3\):$/m)
    const v = await run(['verify', 'housing-proof.json'], opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    const noUnits = await run(['commit', '--participants', 'applications.csv', '--preferences', 'disability:2', '--sequence', '999', '-o', 'x.json'], opts)
    expect(noUnits.code).toBe(2)
    expect(noUnits.stderr).toMatch(/--units N/)
  }, 60_000)
})
