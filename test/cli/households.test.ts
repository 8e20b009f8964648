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
    // Probabilities under the household rule: always an estimate (per type, averaged over its respondents), labelled, with a summary.
    const ip = await run(['inspect', 'hh.proof.json', '--probabilities', '--panels', '50'], opts)
    expect(ip.code, ip.stderr).toBe(0)
    expect(ip.stdout).toMatch(/Selection probability per type \(ESTIMATE from 50 sample panels on a stream derived from the commitment \S+ alone; 95 % interval\):/)
    expect(ip.stdout).toMatch(/per type: the average over the type's respondents under the household rule/)
    expect(ip.stdout).toMatch(/^ {4}Summary \(ESTIMATE\): lowest 0\.\d{4} \[0\.\d{4}, [01]\.\d{4}\] \(.+\), highest 0\.\d{4} \[0\.\d{4}, [01]\.\d{4}\] \(.+\), highest\/lowest [0-9.]+; equal share k\/n 0\.1667/m)
    const ij = json<{ probabilities: { kind: string; households: boolean; scope: string; summary: { equal: number; lowest: { type: string; value: number }; highest: { value: number }; ratio: number } } }>(await run(['inspect', 'hh.proof.json', '--probabilities', '--panels', '50', '--json'], opts))
    expect(ij.probabilities).toMatchObject({ kind: 'estimate', households: true, scope: 'panel', summary: { equal: 8 / 48 } })
    expect(ij.probabilities.summary.highest.value).toBeGreaterThanOrEqual(ij.probabilities.summary.lowest.value)

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
    const rp = json<{ probabilities: { kind: string; scope: string; households: boolean; types: { respondents: number }[] } }>(await run(['inspect', 'proof.json', '--probabilities', '--panels', '50', '--json'], opts))
    expect(rp.probabilities).toMatchObject({ kind: 'estimate', scope: 'replacements', households: true })
    expect((await run(['inspect', 'proof.json', '--probabilities', '--panels', '50'], opts)).stdout).toMatch(/Replacement probability per type \(ESTIMATE from 50 sample panels/)
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
})
