/**
 * One person per household through the real binary against an in-process emulator (issue 22 item 4):
 * `commit --pool --quotas --panel --household-column` commits the households (never the addresses);
 * draw and verify name `panel-households`; a tampered member fails it; bad household values are refused.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { json, run, useEmulatorWorkspace, type RunOptions, STAMPED_DELAY } from './helpers.js'
import { lcg } from '../core/sortition/fixtures.js'

const ws = useEmulatorWorkspace()
let dir: string
let opts: RunOptions

/** 48 respondents, gender (2) and age (3), about 20 addresses written in varying case and spacing. */
function poolCsv(emptyAt = -1): string {
  const rows = ['id,gender,age,address']
  const rnd = lcg(7)
  for (let i = 1; i <= 48; i++) {
    const h = rnd(20)
    const address = i === emptyAt ? '  ' : rnd(2) === 0 ? `"${h} High  Street, Leeds"` : `"${h} HIGH STREET, leeds "`
    rows.push(`r${String(i).padStart(2, '0')},${['female', 'male'][rnd(2)]},${['16-29', '30-59', '60+'][rnd(3)]},${address}`)
  }
  return `${rows.join('\n')}\n`
}

const QUOTAS = 'feature,value,min,max\ngender,female,2,6\ngender,male,2,6\nage,16-29,1,5\nage,30-59,1,5\nage,60+,1,5\n'

beforeAll(async () => {
  dir = ws.dir
  opts = ws.opts
  await writeFile(join(dir, 'pool.csv'), poolCsv())
  await writeFile(join(dir, 'empty.csv'), poolCsv(5))
  await writeFile(join(dir, 'quotas.csv'), QUOTAS)
})

describe('orbitdraw commit --panel --household-column', () => {
  it('commits households, draws and verifies with panel-households; a housemate swapped in fails it', async () => {
    const c = await run(['commit', '--pool', 'pool.csv', '--quotas', 'quotas.csv', '--panel', '8', '--alternates', '3', '--household-column', 'address', '--delay', STAMPED_DELAY, '-o', 'hh.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    expect(c.stdout).toMatch(/panel of 8 from 48 respondents meeting quotas on 2 feature\(s\), at most one member per household, up to 3 alternate\(s\)/)
    const commitment = JSON.parse(await readFile(join(dir, 'hh.json'), 'utf8')) as { commitment?: { draw: { households: number[][] } }; draw?: { households: number[][] } }
    const text = JSON.stringify(commitment)
    expect(text).not.toMatch(/high/i)
    const list = (await readFile(join(dir, 'hh.participants.txt'), 'utf8')).trim().split('\n')
    expect(list[0]).toMatch(/^r[0-9]{2}\|age=[^|]+\|gender=(female|male)$/) // the address is not a feature
    const d = await run(['draw', 'hh.json', '--participants', 'hh.participants.txt', '-o', 'hh.proof.json'], opts)
    expect(d.code, d.stderr).toBe(0)
    const v = await run(['verify', 'hh.proof.json'], opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    expect(v.stdout).toMatch(/✓ panel-households\s+no two of the 8 members share one of the [0-9]+ committed household\(s\)/)
    // Probabilities under the household rule: per type and household size, exact (the pool is small enough to count), with a summary.
    const ip = await run(['inspect', 'hh.proof.json', '--probabilities'], opts)
    expect(ip.code, ip.stderr).toBe(0)
    expect(ip.stdout).toMatch(/Selection probability per type \(exact: counted with the household rule, per type and household size\):/)
    expect(ip.stdout).toMatch(/per type and household size \(1 = alone\): the average over the group's respondents under the household rule/)
    expect(ip.stdout).toMatch(/^ {4}Type +Household +Respondents +Probability$/m)
    expect(ip.stdout).toMatch(/^ {4}Summary: lowest 0\.\d{6} \(.+, household of \d+\), highest 0\.\d{6} \(.+, household of \d+\), highest\/lowest [0-9.]+; equal share k\/n 0\.166667/m)
    const ij = json<{ probabilities: { kind: string; households: boolean; scope: string; types: { household: number; respondents: number; decimal: string }[]; summary: { equal: number; lowest: { type: string; value: number; household: number }; highest: { value: number }; ratio: number } } }>(await run(['inspect', 'hh.proof.json', '--probabilities', '--json'], opts))
    expect(ij.probabilities).toMatchObject({ kind: 'exact', households: true, scope: 'panel', summary: { equal: 8 / 48 } })
    expect(ij.probabilities.summary.highest.value).toBeGreaterThanOrEqual(ij.probabilities.summary.lowest.value)
    expect(ij.probabilities.types.reduce((x, t) => x + Number(t.decimal) * t.respondents, 0)).toBeCloseTo(8, 9)
    expect(new Set(ij.probabilities.types.map((t) => t.household)).size).toBeGreaterThan(1)

    const proof = JSON.parse(await readFile(join(dir, 'hh.proof.json'), 'utf8')) as { commitment: { draw: { households: number[][] } }; outcome: { members: { rank: number; index: number; entry: string }[] } }
    const members = proof.outcome.members.map((m) => m.index)
    const group = proof.commitment.draw.households.find((g) => g.some((i) => members.includes(i)) && g.some((i) => !members.includes(i)))!
    const mate = group.find((i) => !members.includes(i))!
    const at = members.findIndex((m) => !group.includes(m))
    proof.outcome.members[at] = { rank: at + 1, index: mate, entry: list[mate]! }
    await writeFile(join(dir, 'hh.tampered.json'), JSON.stringify(proof))
    const t = await run(['verify', 'hh.tampered.json'], opts)
    expect(t.code).toBe(1)
    expect(t.stdout).toMatch(/✗ panel-households\s+members [0-9]+ and [0-9]+ share a committed household/)

    // Two members drop out: a replacement committed to a later block, drawn with the original carried, verified.
    const drawn = JSON.parse(await readFile(join(dir, 'hh.proof.json'), 'utf8')) as { outcome: { members: { entry: string }[] } }
    const gone = [drawn.outcome.members[0]!.entry.split('|')[0]!, drawn.outcome.members[3]!.entry.split('|')[0]!]
    await writeFile(join(dir, 'dropped.txt'), `${gone.join('\n')}\n`)
    const rc = await run(['commit', '--replacing', 'hh.proof.json', '--dropped', 'dropped.txt', '--pool-list', 'hh.participants.txt', '--delay', STAMPED_DELAY, '-o', 'repl.json'], opts)
    expect(rc.code, rc.stderr).toBe(0)
    expect(rc.stdout).toMatch(/replacement of 2 member\(s\) of the panel of 8 from 48 respondents/)
    const line = rc.stdout.split('\n').find((l) => l.trim().startsWith('orbitdraw draw '))!
    expect(line).toContain('--original hh.proof.json')
    const rd = await run(line.trim().split(/\s+/).slice(1), opts)
    expect(rd.code, rd.stderr).toBe(0)
    const rv = await run(['verify', 'proof.json'], opts)
    expect(rv.code, rv.stdout + rv.stderr).toBe(0)
    expect(rv.stdout).toMatch(/✓ follow-up-original\s+the original proof verifies/)
    expect(rv.stdout).toMatch(/✓ follow-up-link\s+follows commitment/)
    expect(rv.stdout).toMatch(/✓ panel-households/)
    const rp = json<{ probabilities: { kind: string; scope: string; households: boolean; types: { respondents: number }[] } }>(await run(['inspect', 'proof.json', '--probabilities', '--json'], opts))
    expect(rp.probabilities).toMatchObject({ kind: 'exact', scope: 'replacements', households: true })
    expect((await run(['inspect', 'proof.json', '--probabilities'], opts)).stdout).toMatch(/Replacement probability per type \(exact: counted with the household rule, per type and household size\)/)
    const repl = JSON.parse(await readFile(join(dir, 'proof.json'), 'utf8')) as { outcome: { members: { entry: string }[]; replacements: unknown[] }; original: { outcome: { members: { entry: string }[] } } }
    expect(repl.outcome.replacements).toHaveLength(2)
    const kept = drawn.outcome.members.map((m) => m.entry).filter((e) => !gone.includes(e.split('|')[0]!))
    expect(kept.every((e) => repl.outcome.members.some((m) => m.entry === e))).toBe(true)
    // The draw refuses to run without the original; verify names the missing original.
    const missing = await run(['draw', 'repl.json', '--participants', 'repl.participants.txt', '-o', 'x.json'], opts)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--original PROOF')
    const { original: _, ...bare } = repl
    await writeFile(join(dir, 'bare.json'), JSON.stringify(bare))
    const bv = await run(['verify', 'bare.json'], opts)
    expect(bv.code).toBe(1)
    expect(bv.stdout).toMatch(/✗ follow-up-original\s+the proof does not carry the original proof/)
  }, 180_000)

  it('an empty household value or an unknown column is refused before any network call', async () => {
    const e = await run(['commit', '--pool', 'empty.csv', '--quotas', 'quotas.csv', '--panel', '8', '--household-column', 'address', '--delay', '8s', '-o', 'e.json'], opts)
    expect(e.code).not.toBe(0)
    expect(e.stderr).toContain('SORTITION_HOUSEHOLD_INVALID')
    expect(e.stderr).toContain('respondent "r05" has an empty household value')
    const u = await run(['commit', '--pool', 'pool.csv', '--quotas', 'quotas.csv', '--panel', '8', '--household-column', 'street', '--delay', '8s', '-o', 'u.json'], opts)
    expect(u.code).not.toBe(0)
    expect(u.stderr).toContain('has no column "street"')
  }, 120_000)

  it('probabilities with households over the exact count\'s budget: the ESTIMATE per type and household size, text and JSON, the same figures twice', async () => {
    // 300 respondents on three features, 150 households of two: too many to count exactly with the rule.
    const rows = ['id,a,b,c,address']
    for (let i = 0; i < 300; i++) rows.push(`p${String(i).padStart(3, '0')},${['x', 'y'][i % 2]},${['u', 'v', 'w', 'z'][Math.floor(i / 2) % 4]},${['m', 'n'][Math.floor(i / 8) % 2]},"${i % 150} Mill Lane"`)
    await writeFile(join(dir, 'big.csv'), `${rows.join('\n')}\n`)
    await writeFile(join(dir, 'big-quotas.csv'), 'feature,value,min,max\na,x,5,7\na,y,5,7\nb,u,2,4\nb,v,2,4\nb,w,2,4\nb,z,2,4\nc,m,5,7\nc,n,5,7\n')
    const c = await run(['commit', '--pool', 'big.csv', '--quotas', 'big-quotas.csv', '--panel', '12', '--household-column', 'address', '--delay', '8s', '-o', 'big.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    const t = await run(['inspect', 'big.json', '--probabilities', '--panels', '20'], opts)
    expect(t.code, t.stderr).toBe(0)
    expect(t.stdout).toMatch(/Selection probability per type \(ESTIMATE from 20 sample panels on a stream derived from the commitment \S+ alone; 95 % interval\):/)
    expect(t.stdout).toMatch(/^ {4}Type +Household +Respondents +Estimate +95 % interval$/m)
    expect(t.stdout).toMatch(/^ {4}a=x\|b=u\|c=m +2 +\d+ +0\.\d{4} +\[0\.\d{4}, [01]\.\d{4}\]$/m)
    const j = json<{ probabilities: { kind: string; households: boolean; types: { household: number; estimate: number }[] } }>(await run(['inspect', 'big.json', '--probabilities', '--panels', '20', '--json'], opts))
    expect(j.probabilities).toMatchObject({ kind: 'estimate', households: true })
    expect(j.probabilities.types.every((x) => x.household === 2)).toBe(true)
    expect(json<typeof j>(await run(['inspect', 'big.json', '--probabilities', '--panels', '20', '--json'], opts))).toEqual(j)
  }, 180_000)

  it('when a gate with households refuses, the commit tries the next plan method (method 2 here), draws and verifies; a rule no panel keeps is refused, naming it', async () => {
    // 20 respondents: households of 4, 4, 4 and 3, five alone; k = 9: about 1 round in 875 keeps the rule,
    // too few for method 1's gate (7 of 2,000), enough for method 2's (12 within 40,000).
    const sizes = [4, 4, 4, 3]
    const rows = ['id,g,address']
    let n = 0
    sizes.forEach((size, h) => {
      for (let j = 0; j < size; j++) rows.push(`h${h}-${j},${n++ % 2 === 0 ? 'a' : 'b'},"${h} Mill Lane"`)
    })
    for (let j = 0; j < 5; j++) rows.push(`s${j},${n++ % 2 === 0 ? 'a' : 'b'},alone ${j}`)
    await writeFile(join(dir, 'tight.csv'), `${rows.join('\n')}\n`)
    await writeFile(join(dir, 'loose.csv'), 'feature,value,min,max\ng,a,0,9\ng,b,0,9\n')
    const c = await run(['commit', '--pool', 'tight.csv', '--quotas', 'loose.csv', '--panel', '9', '--household-column', 'address', '--delay', STAMPED_DELAY, '-o', 'tight.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    const file = JSON.parse(await readFile(join(dir, 'tight.json'), 'utf8')) as { commitment?: { draw: { plan?: number; households: number[][] } }; draw?: { plan?: number; households: number[][] } }
    const committed = (file.commitment ?? file) as { draw: { plan?: number; households: number[][] } }
    expect(committed.draw.plan).toBe(2)
    expect(committed.draw.households).toHaveLength(4)
    const d = await run(['draw', 'tight.json', '--participants', 'tight.participants.txt', '-o', 'tight.proof.json'], opts)
    expect(d.code, d.stderr).toBe(0)
    const v = await run(['verify', 'tight.proof.json'], opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    expect(v.stdout).toMatch(/✓ panel-households\s+no two of the 9 members share one of the 4 committed household\(s\)/)
    // k = 10 from 4 households and 5 people alone: no panel keeps the rule.
    const r = await run(['commit', '--pool', 'tight.csv', '--quotas', 'loose.csv', '--panel', '10', '--household-column', 'address', '--delay', '8s', '-o', 'never.json'], opts)
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('SORTITION_ACCEPTANCE_TOO_LOW')
    expect(r.stderr).toMatch(/only 0 of [0-9]+ trial panels met every quota and had at most one member per household \(at least 12 needed; plan method 1 kept 0 of 2000; plan methods 2 and 3/)
    expect(r.stderr).toMatch(/large households make most panels break the household rule/)
  }, 180_000)
})
