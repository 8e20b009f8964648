/**
 * Each example runs to completion (exit 0), as in CI.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, runCommand, useWorkspace } from './helpers.js'

const TSX = join(ROOT, 'node_modules/.bin/tsx')

const ws = useWorkspace()

describe('examples', () => {
  it('npm run demo (examples/demo.ts): commit, wait, draw, write, verify; exit 0', async () => {
    const r = await runCommand(TSX, [join(ROOT, 'examples/demo.ts'), '--out', join(ws.dir, 'demo-proof.json')], { timeoutMs: 60_000 })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    const [trusted, stranger] = r.stdout.split('\n6. ')
    expect(trusted).toMatch(/trusting this run's emulator beacon k\w+ and its time-stamping root explicitly/)
    expect(trusted).toMatch(/time-stamped {9}by orbitdraw emulator TSA at /)
    expect(trusted).toMatch(/Commitment time: time-stamped by orbitdraw emulator TSA at .* UTC, \d+ s before block \d+\./)
    expect(trusted).toMatch(/VERIFIED: every check passed[^\n]*\n[^\n]*Commitment bagu\w+[^\n]*\n[^\n]*Beacon: this run's emulator beacon \(k\w+…\), trusted by your settings/)
    expect(trusted).toContain('"orbitdraw demo: three prizes"')
    expect(trusted).toContain(join(ws.dir, 'demo-proof.json'))
    expect(trusted).not.toContain('✗')
    // the same proof under the default policy (Orbitport's beacons only) fails, naming why
    expect(stranger).toMatch(/FAILED: beacon-trusted, commitment-time\./)
    expect(stranger).toMatch(/✗ beacon-trusted: the commitment names untrusted beacon k\w+…/)
    expect(r.stderr).toMatch(/waiting for block \d+/)
    // It ends on a closing summary, not on the stranger's red FAILED line.
    expect(r.stdout.trimEnd().split('\n').slice(-2)[0]).toMatch(/^Done: the proof VERIFIED under the trust this run chose \(the emulator trusted explicitly\); it is in /)
  }, 70_000)

  it('examples/raffle-server/run.ts: the HTTP flow end to end; exit 0', async () => {
    const r = await runCommand(TSX, [join(ROOT, 'examples/raffle-server/run.ts')], { timeoutMs: 30_000 })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toContain('raffle server self-test: OK')
  }, 40_000)

  it('examples/sortition/run.ts: private draw of 40 out of 20,000; exit 0', async () => {
    const r = await runCommand(TSX, [join(ROOT, 'examples/sortition/run.ts'), '--out', join(ws.dir, 'assembly.json')], { timeoutMs: 30_000 })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toMatch(/none of the 19960 people not selected appears in the proof file/)
    expect(r.stdout).toMatch(/attack over the entry format recovers 0 of them/)
  }, 40_000)

  it('examples/citizens-assembly: the committed pool and quotas are the generator\'s output; run.ts draws 40 + 10 meeting every quota, verifies; exit 0', async () => {
    const g = await runCommand(TSX, [join(ROOT, 'examples/citizens-assembly/generate-pool.ts'), '--check'], { timeoutMs: 30_000 })
    expect(g.code, g.stdout + g.stderr).toBe(0)
    const out = join(ws.dir, 'assembly')
    const r = await runCommand(TSX, [join(ROOT, 'examples/citizens-assembly/run.ts'), '--out-dir', out], { timeoutMs: 120_000 })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toMatch(/1\. pool: 2400 respondents, 5 features \(age, district, education, gender, housing\); 20 quotas for 40 seats/)
    expect(r.stdout).toMatch(/time-stamped by orbitdraw emulator TSA at /)
    // every quota line is met, none is not
    expect((r.stdout.match(/^ {5}\S+ +.+ \d+ in \d+\.\.\d+ ✓$/gm) ?? []).length).toBe(20)
    expect(r.stdout).not.toMatch(/✗/)
    for (const check of ['commitment-pinned', 'commitment-time', 'beacon-authenticity', 'panel-quotas', 'panel-replay', 'revealed-winners']) expect(r.stdout).toMatch(new RegExp(`✓ ${check} `))
    expect(r.stdout).toMatch(/the proof reveals 50 respondents, the other 2350 never appear in it/)
    expect(r.stdout).toMatch(/\?trust-beacon=k\w+&commitment=bagu\w+/)
    const proof = JSON.parse(await readFile(join(out, 'assembly-proof.json'), 'utf8')) as { outcome: { kind: string; members: unknown[]; alternates: unknown[] } }
    expect([proof.outcome.kind, proof.outcome.members.length, proof.outcome.alternates.length]).toEqual(['panel', 40, 10])
    expect(await readFile(join(out, 'emulator-tsa-root.pem'), 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/)
  }, 150_000)

  it('examples/h1b-style/run.ts: 650 + 200 staged selections from 2,000, time-stamped, private, verified; rates beside exact probabilities of each stage and overall; exit 0', async () => {
    const r = await runCommand(TSX, [join(ROOT, 'examples/h1b-style/run.ts'), '--out-dir', join(ws.dir, 'h1b')], { timeoutMs: 170_000 })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toMatch(/regular 650 of 2000 eligible; advanced degree 200 of \d+ eligible/)
    expect(r.stdout).toMatch(/✓ commitment-time +time-stamped by orbitdraw emulator TSA/)
    expect(r.stdout).not.toMatch(/✗/)
    expect((r.stdout.match(/^ {3}(I|II|III|IV) +\d+ +\d+ +0\.\d{3} +0\.\d{4} +\d+ +\d+ +0\.\d{3} +0\.\d{4} +\d+ +0\.\d{3} +0\.\d{4}$/gm) ?? []).length).toBe(4)
    expect(r.stdout).toMatch(/add up to 650\.0000000\d\d \(650 selections\) and 200\.0\d\d\d \(200\)|add up to 650\.0000000\d\d \(650 selections\) and 199\.99\d\d \(200\)/)
    expect(await readFile(join(ws.dir, 'h1b', 'stages.csv'), 'utf8')).toMatch(/^name,method,count,where,weight_by,weights\n/)
  }, 180_000)

  it('examples/housing-lottery/run.ts: 500 applications, 3 categories, 40 units, verified; exit 0', async () => {
    const r = await runCommand(TSX, [join(ROOT, 'examples/housing-lottery/run.ts'), '--out-dir', join(ws.dir, 'housing')], { timeoutMs: 90_000 })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toMatch(/every category filled in priority order from its ranked list; 40 units allocated/)
    expect(r.stdout).toMatch(/^ {3}disability +4 +\d+ +4 /m)
  }, 100_000)

  it('examples/random.ts: REST client on the emulator (src orders, outage, signatures, beacon fallback); exit 0', async () => {
    const r = await runCommand(TSX, [join(ROOT, 'examples/random.ts')], { timeoutMs: 30_000 })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toMatch(/ORBITPORT_BAD_SIGNATURE/)
    expect(r.stdout).toMatch(/beacon block \d+ value #0: [0-9a-f]{64}/)
    expect(r.stdout + r.stderr).not.toContain('example-secret')
  }, 40_000)

  it('examples/verify-in-browser/run.ts: builds the page and a sample proof; exit 0', async () => {
    const r = await runCommand(TSX, [join(ROOT, 'examples/verify-in-browser/run.ts')], { timeoutMs: 60_000 })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toMatch(/file:\/\//)
  }, 70_000)
})
