/**
 * Sortition through the real binary against an in-process emulator: `commit --pool --quotas --panel`
 * (and `--lottery`) writes the commitment and the participants file, prints a draw command that
 * works as printed; draw, verify, inspect and receipts work as for every kind; infeasible quotas
 * are refused with the smallest relaxation.
 */
import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { json, printedDraw, run, useEmulatorWorkspace, type RunOptions, STAMPED_DELAY } from './helpers.js'
import { lcg } from '../core/sortition/fixtures.js'

const ws = useEmulatorWorkspace()
let dir: string
let opts: RunOptions

/** A deterministic pool CSV: 48 respondents, gender (2), age (3), region (2). */
function poolCsv(): string {
  const rows = ['id,gender,age,region']
  const rnd = lcg(99)
  for (let i = 1; i <= 48; i++) rows.push(`r${String(i).padStart(2, '0')},${['female', 'male'][rnd(2)]},${['16-29', '30-59', '60+'][rnd(3)]},${['north', 'south'][rnd(2)]}`)
  return `${rows.join('\n')}\n`
}

/** Quotas around the proportional share (±1) for a panel of k. */
function quotasCsv(pool: string, k: number, tweak: (f: string, v: string, min: number, max: number) => [number, number] = (_f, _v, a, b) => [a, b]): string {
  const lines = pool.trim().split('\n').slice(1).map((l) => l.split(','))
  const header = ['gender', 'age', 'region']
  const out = ['feature,value,min,max']
  header.forEach((f, i) => {
    for (const v of [...new Set(lines.map((l) => l[i + 1]!))].sort()) {
      const e = (lines.filter((l) => l[i + 1] === v).length * k) / lines.length
      const [min, max] = tweak(f, v, Math.max(0, Math.floor(e) - 1), Math.ceil(e) + 1)
      out.push(`${f},${v},${min},${max}`)
    }
  })
  return `${out.join('\n')}\n`
}

beforeAll(async () => {
  dir = ws.dir
  opts = ws.opts
  const pool = poolCsv()
  await writeFile(join(dir, 'pool.csv'), pool)
  await writeFile(join(dir, 'quotas.csv'), quotasCsv(pool, 8))
  await writeFile(join(dir, 'bad-quotas.csv'), quotasCsv(pool, 8, (f, v, a, b) => (f === 'gender' ? [5, 6] : [a, b])))
})

describe('orbitdraw commit --pool --quotas --panel', () => {
  it('public panel: commit prints a draw command that works as printed; draw and verify show the panel', async () => {
    const c = await run(['commit', '--pool', 'pool.csv', '--quotas', 'quotas.csv', '--panel', '8', '--alternates', '3', '--delay', STAMPED_DELAY, '-o', 'panel.commitment.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    expect(c.stdout).toMatch(/draw\s+panel of 8 from 48 respondents meeting quotas on 3 feature\(s\), up to 3 alternate\(s\)/)
    expect(c.stdout).toContain('48 entries')
    const args = printedDraw(c.stdout)
    expect(args).toEqual(['draw', 'panel.commitment.json', '--participants', 'panel.commitment.participants.txt', '-o', 'proof.json'])
    const list = (await readFile(join(dir, 'panel.commitment.participants.txt'), 'utf8')).trim().split('\n')
    expect(list).toHaveLength(48)
    expect(list[0]).toMatch(/^r[0-9]{2}\|age=16-29\|gender=female\|region=north$/)

    const d = await run(args, opts)
    expect(d.code, d.stderr).toBe(0)
    expect(d.stdout).toMatch(/panel of 8:\n {2}Members \(8\):\n {4}in committed order \(the rank is the position, not a preference\); drawn in [0-9]+ rounds?\n\s+1\. r[0-9]{2}\|age=/)
    // the quota table, aligned, every quota met; the alternates
    expect(d.stdout).toMatch(/^ {4}Feature {2,}Value {2,}Min {2}Max {2}Selected {2}OK$/m)
    expect(d.stdout).toMatch(/^ {4}gender {2,}female {2,}\d+ +\d+ +\d+ {2}yes ✓$/m)
    expect(d.stdout).not.toContain('no ✗')
    expect(d.stdout).toMatch(/^ {2}Alternates \(3\):$/m)
    const v = await run(['verify', 'proof.json'], opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    for (const check of ['panel-size', 'panel-distinct', 'panel-members-known', 'panel-quotas', 'panel-replay']) expect(v.stdout).toContain(`✓ ${check}`)
    expect(v.stdout).toContain('VERIFIED')
    // The terminal shows the quota table and the alternates in the check details (members above them).
    expect(v.stdout).toMatch(/panel-quotas\s+the panel meets all 7 quotas: age=16-29 \d in \d\.\.\d, age=30-59/)
    expect(v.stdout).toMatch(/the alternates 1\. "r[0-9]{2}\|/)

    // A tampered member: the named checks fail, exit 1.
    const proof = JSON.parse(await readFile(join(dir, 'proof.json'), 'utf8')) as { outcome: { members: { index: number; entry: string }[] } }
    const taken = new Set(proof.outcome.members.map((m) => m.index))
    const other = list.findIndex((_, i) => !taken.has(i))
    proof.outcome.members[0] = { ...proof.outcome.members[0]!, index: other, entry: list[other]! }
    await writeFile(join(dir, 'tampered.json'), JSON.stringify(proof))
    const t = await run(['verify', 'tampered.json'], opts)
    expect(t.code).toBe(1)
    expect(t.stdout).toMatch(/✗ panel-replay/)
    expect(t.stdout).toMatch(/✗ outcome/)

    const i = await run(['inspect', 'proof.json'], opts)
    expect(i.code, i.stderr).toBe(0)
    expect(i.stdout).toContain('panel of 8')
  }, 120_000)

  it('private panel: draw --private reveals only members and alternates; receipts show each respondent\'s type', async () => {
    const c = await run(['commit', '--pool', 'pool.csv', '--quotas', 'quotas.csv', '--panel', '8', '--alternates', '2', '--private', '--delay', STAMPED_DELAY, '-o', 'private.commitment.json', '--json'], opts)
    expect(c.code, c.stderr).toBe(0)
    const summary = json<{ participantsFile: string; secretFile: string; drawCommand: string }>(c)
    expect(summary.participantsFile).toBe('private.commitment.participants.txt')
    // It lists every respondent of a private list: owner-only, as the secret file (it was 0644).
    if (process.platform !== 'win32') {
      expect((await stat(join(dir, summary.participantsFile))).mode & 0o777).toBe(0o600)
      expect((await stat(join(dir, summary.secretFile))).mode & 0o777).toBe(0o600)
    }
    expect(summary.drawCommand).toContain('--participants private.commitment.participants.txt --secret private.commitment.secret.json')
    const d = await run(['draw', 'private.commitment.json', '--participants', summary.participantsFile, '--secret', summary.secretFile, '--private', '-o', 'private.proof.json'], opts)
    expect(d.code, d.stderr).toBe(0)
    const proof = JSON.parse(await readFile(join(dir, 'private.proof.json'), 'utf8')) as { participants: { disclosure: string; revealed: unknown[] } }
    expect(proof.participants.disclosure).toBe('winners')
    expect(proof.participants.revealed.length).toBeGreaterThanOrEqual(8)
    expect(proof.participants.revealed.length).toBeLessThanOrEqual(10)
    const v = await run(['verify', 'private.proof.json'], opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    const r = await run(['receipts', 'private.commitment.json', '--participants', summary.participantsFile, '--secret', summary.secretFile, '-o', 'receipts'], opts)
    expect(r.code, r.stderr).toBe(0)
  }, 120_000)

  it('infeasible quotas: refused before any network call, with the smallest relaxation (exit 4)', async () => {
    const c = await run(['commit', '--pool', 'pool.csv', '--quotas', 'bad-quotas.csv', '--panel', '8', '--delay', '8s', '-o', 'bad.commitment.json'], opts)
    expect(c.code).toBe(4)
    expect(c.stderr).toMatch(/QUOTA_MINS_EXCEED_PANEL|mins of "gender" sum to 10/)
    expect(c.stderr).toMatch(/lower the mins of "gender" by 2 in total, or draw a panel of 10/)
  }, 120_000)

  it('inspect --probabilities: exact fractions for a fully counted plan, a labelled CID-seeded estimate otherwise (--json too)', async () => {
    const c = await run(['commit', '--pool', 'pool.csv', '--quotas', 'quotas.csv', '--panel', '8', '--exact-features', 'age', '--delay', '8s', '-o', 'est.commitment.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    const i = await run(['inspect', 'est.commitment.json', '--probabilities', '--panels', '50'], opts)
    expect(i.code, i.stderr).toBe(0)
    expect(i.stdout).toMatch(/Selection probability per type \(ESTIMATE from 50 sample panels on a stream derived from the commitment \S+ alone; 95 % interval\):/)
    expect(i.stdout).toMatch(/^ {4}age=16-29\|gender=female\|region=north +\d+ +0\.\d{4} {2}\[0\.\d{4}, [01]\.\d{4}\]$/m)
    const j = json<{ probabilities: { kind: string; panels: number; types: { type: string; estimate: number; low: number; high: number }[] } }>(await run(['inspect', 'est.commitment.json', '--probabilities', '--panels', '50', '--json'], opts))
    expect(j.probabilities.kind).toBe('estimate')
    expect(j.probabilities.panels).toBe(50)
    const again = json<typeof j>(await run(['inspect', 'est.commitment.json', '--probabilities', '--panels', '50', '--json'], opts))
    expect(again.probabilities).toEqual(j.probabilities)
    const fc = await run(['commit', '--pool', 'pool.csv', '--quotas', 'quotas.csv', '--panel', '8', '--delay', '8s', '-o', 'full.commitment.json'], opts)
    expect(fc.code, fc.stderr).toBe(0)
    const full = await run(['inspect', 'full.commitment.json', '--probabilities'], opts)
    expect(full.code, full.stderr).toBe(0)
    expect(full.stdout).toMatch(/Selection probability per type \(exact: every feature is counted exactly\):/)
    expect(full.stdout).toMatch(/ 0\.\d{12} \(\d+\/\d+\)$/m)
    const usage = await run(['inspect', 'full.commitment.json', '--panels', '5'], opts)
    expect(usage.code).toBe(2)
  }, 120_000)

  it('quotas that cannot hold together: NO_VALID_PANEL names the fewest seats to change and which quotas (HiGHS), exit 4', async () => {
    // All women are young and all men old: each feature's quotas hold alone, not together.
    await writeFile(join(dir, 'conflict-pool.csv'), `id,gender,age\n${Array.from({ length: 8 }, (_, i) => `p${i},${i < 4 ? 'female,young' : 'male,old'}`).join('\n')}\n`)
    await writeFile(join(dir, 'conflict-quotas.csv'), 'feature,value,min,max\ngender,female,3,4\ngender,male,0,1\nage,old,3,4\nage,young,0,1\n')
    const c = await run(['commit', '--pool', 'conflict-pool.csv', '--quotas', 'conflict-quotas.csv', '--panel', '4', '--delay', '8s', '-o', 'conflict.commitment.json'], opts)
    expect(c.code, c.stderr).toBe(4)
    expect(c.stderr).toMatch(/NO_VALID_PANEL|no size-4 panel/)
    expect(c.stderr).toMatch(/the smallest relaxation changes 4 seat\(s\)/)
    expect(c.stderr).toMatch(/(?:lower the min|raise the max) of "(?:gender|age)"="\w+" from \d to \d/)
    expect(c.stderr).toMatch(/4 seat\(s\) in total, the fewest of any change of the quotas; found by the HiGHS solver/)
  }, 120_000)

  it('too-tight quotas left to rejection: SORTITION_ACCEPTANCE_TOO_LOW says no panel exists and the fewest seats to change', async () => {
    // Nothing counted exactly (--exact-features ""), and the gender and age quotas conflict: every gate trial fails.
    const c = await run(['commit', '--pool', 'conflict-pool.csv', '--quotas', 'conflict-quotas.csv', '--panel', '4', '--exact-features', '', '--delay', '8s', '-o', 'tight.commitment.json'], opts)
    expect(c.code, c.stderr).not.toBe(0)
    expect(c.stderr).toMatch(/only 0 of [0-9]+ panels/)
    expect(c.stderr).toMatch(/no panel meets every quota at all/)
    expect(c.stderr).toMatch(/4 seat\(s\) in total, the fewest of any change of the quotas; found by the HiGHS solver/)
  }, 120_000)

  it('usage: --panel needs --pool and --quotas; --participants is refused; --alternates goes with --panel', async () => {
    const a = await run(['commit', '--panel', '8', '--quotas', 'quotas.csv', '-o', 'x.json'], opts)
    expect(a.code).toBe(2)
    expect(a.stderr).toMatch(/--panel needs --pool FILE/)
    const b = await run(['commit', '--panel', '8', '--pool', 'pool.csv', '--quotas', 'quotas.csv', '--participants', 'pool.csv', '-o', 'x.json'], opts)
    expect(b.code).toBe(2)
    expect(b.stderr).toMatch(/drop --participants/)
    const e = await run(['commit', '--pick', '2', '--alternates', '2', '--participants', 'pool.csv', '-o', 'x.json'], opts)
    expect(e.code).toBe(2)
    expect(e.stderr).toMatch(/--alternates/)
  }, 120_000)
})

describe('orbitdraw commit --lottery', () => {
  it('commits a portfolio, draws one panel, verifies with the lottery checks', async () => {
    // Two valid candidate panels: the panels of two earlier draws of the same pool and quotas.
    const panels: string[] = []
    for (const name of ['cand1', 'cand2']) {
      const c = await run(['commit', '--pool', 'pool.csv', '--quotas', 'quotas.csv', '--panel', '8', '--delay', '1s', '-o', `${name}.json`, '--no-timestamp'], opts)
      expect(c.code, c.stderr).toBe(0)
      const d = await run(['draw', `${name}.json`, '--participants', `${name}.participants.txt`, '-o', `${name}.proof.json`, '--quiet'], opts)
      expect(d.code, d.stderr).toBe(0)
      const p = JSON.parse(await readFile(join(dir, `${name}.proof.json`), 'utf8')) as { outcome: { members: { entry: string }[] } }
      panels.push(p.outcome.members.map((m) => m.entry.split('|')[0]).join(','))
    }
    await writeFile(join(dir, 'panels.csv'), `weight,members\n1,${panels[0]}\n3,${panels[1]}\n`)
    const c = await run(['commit', '--pool', 'pool.csv', '--quotas', 'quotas.csv', '--lottery', 'panels.csv', '--delay', STAMPED_DELAY, '-o', 'lottery.commitment.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    expect(c.stdout).toMatch(/panel lottery: one of 2 candidate panel\(s\) of 8/)
    const d = await run(printedDraw(c.stdout).map((a) => (a === 'proof.json' ? 'lottery.proof.json' : a)), opts)
    expect(d.code, d.stderr).toBe(0)
    const v = await run(['verify', 'lottery.proof.json'], opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    expect(v.stdout).toContain('✓ lottery-panels')
    expect(v.stdout).toContain('✓ lottery-winner')
  }, 120_000)
})
