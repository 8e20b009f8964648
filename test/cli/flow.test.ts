/**
 * The full organizer flow through the real binary against an in-process emulator:
 * commit → draw → verify (public and private), tampering, overwrite refusal, --json shapes.
 */
import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { json, names, run, useEmulatorWorkspace, STAMPED_DELAY } from './helpers.js'

const ws = useEmulatorWorkspace({ files: { 'names.txt': names(20) } })

describe('commit → draw → verify', () => {
  it('public draw: human output, proof verifies offline and online', async () => {
    // 8 s ahead: this test watches draw wait for the block, so the target must still be in the future
    // after two CLI start-ups on a loaded 2-core machine (blocks come every 250 ms).
    const c = await run(['commit', '--participants', 'names.txt', '--pick', '3', '--label', 'CLI test', '--delay', STAMPED_DELAY, '-o', 'public.commitment.json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    expect(c.stdout).toMatch(/CID\s+bagu/)
    expect(c.stdout).toMatch(/Publish BEFORE block \d+/)
    expect(c.stdout).toContain('20 entries')
    const file = JSON.parse(await readFile(join(ws.dir, 'public.commitment.json'), 'utf8')) as { type: string; cid: string; commitment: { target: number; beacon: string; label: string }; timestamps: string[] }
    const commitment = file.commitment
    expect(file.type).toBe('orbitdraw-commitment')
    expect(file.timestamps).toHaveLength(1)
    expect(c.stdout).toMatch(/time-stamp\s+\S+ by orbitdraw emulator TSA/)
    expect(commitment.beacon).toBe(ws.emu.beaconName)
    expect(commitment.label).toBe('CLI test')

    const d = await run(['draw', 'public.commitment.json', '--participants', 'names.txt', '-o', 'public.proof.json'], ws.opts)
    expect(d.code, d.stderr).toBe(0)
    expect(d.stdout).toMatch(/winners:\n\s+1\. Person \d+/)
    // the commitment file's time-stamp tokens are carried into the proof
    const carried = JSON.parse(await readFile(join(ws.dir, 'public.proof.json'), 'utf8')) as { timestamps?: string[] }
    expect(carried.timestamps).toEqual(file.timestamps)
    // progress: one line per new block when stderr is not a terminal, no carriage returns
    expect(d.stderr).toMatch(/waiting for block \d+: latest \d+, \d+ blocks? to go, ~\d+s left/)
    expect(d.stderr).not.toContain('\r')
    expect(d.stderr).toMatch(new RegExp(`block ${commitment.target} is out`))

    const v = await run(['verify', 'public.proof.json'], ws.opts)
    expect(v.code, v.stderr).toBe(0)
    expect(v.stdout).toMatch(/✓ ipns-record-signature/)
    expect(v.stdout).toContain('VERIFIED: every check passed')
    expect(v.stdout).not.toContain('✗')

    const online = await run(['verify', 'public.proof.json', '--online'], ws.opts)
    expect(online.code, online.stdout + online.stderr).toBe(0)
    expect(online.stdout).toMatch(/✓ online-blocks/)
    expect(online.stdout).toMatch(/✓ online-chain/)
  })

  it('private draw (commit --private, draw --secret --private): only the winners are in the proof, each with its salt and inclusion path', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '2', '--private', '--delay', STAMPED_DELAY, '-o', 'private.commitment.json', '--json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    expect(json<{ secretFile: string }>(c).secretFile).toBe('private.commitment.secret.json')
    const secretStat = await stat(join(ws.dir, 'private.commitment.secret.json'))
    expect(secretStat.mode & 0o777).toBe(0o600)
    const secretHex = (JSON.parse(await readFile(join(ws.dir, 'private.commitment.secret.json'), 'utf8')) as { secret: string }).secret
    expect(c.stdout + c.stderr).not.toContain(secretHex)
    expect(await readFile(join(ws.dir, 'private.commitment.json'), 'utf8')).toContain('"salted": true')
    // without the secret, or a public-list --private: refused before waiting
    const noSecret = await run(['draw', 'private.commitment.json', '-p', 'names.txt', '--private', '-o', 'x.proof.json', '--quiet'], ws.opts)
    expect(noSecret.code).toBe(2)
    expect(noSecret.stderr).toMatch(/--secret FILE/)
    const d = await run(['draw', 'private.commitment.json', '-p', 'names.txt', '--secret', 'private.commitment.secret.json', '--private', '-o', 'private.proof.json', '--json', '--quiet'], ws.opts)
    expect(d.code, d.stderr).toBe(0)
    expect(d.stderr).toBe('')
    const summary = json<{ disclosure: string; outcome: { winners: { entry: string }[] } }>(d)
    expect(summary.disclosure).toBe('winners')
    const proofText = await readFile(join(ws.dir, 'private.proof.json'), 'utf8')
    const proof = JSON.parse(proofText) as { participants: { disclosure: string; revealed: { entry: string; path: string[] }[] } }
    expect(proof.participants.disclosure).toBe('winners')
    expect(proof.participants.revealed).toHaveLength(2)
    for (const r of proof.participants.revealed) expect(r.path.length).toBeGreaterThan(0)
    const winners = new Set(summary.outcome.winners.map((w) => w.entry))
    for (let i = 1; i <= 20; i++) {
      const name = `Person ${i}`
      if (!winners.has(name)) expect(proofText).not.toContain(`"${name}"`)
    }
    expect(proofText).not.toContain(secretHex)
    expect(d.stdout + d.stderr).not.toContain(secretHex)
    const v = await run(['verify', 'private.proof.json', '--json'], ws.opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    expect(json<{ ok: boolean }>(v).ok).toBe(true)
  })

  it('draw --private of a public commitment is refused: its paths would leak the other entries', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '2', '--delay', STAMPED_DELAY, '-o', 'public2.commitment.json', '--json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'public2.commitment.json', '-p', 'names.txt', '--private', '-o', 'public2.proof.json', '--quiet'], ws.opts)
    expect(d.code).toBe(2)
    expect(d.stderr).toMatch(/commit with --private/)
  })

  it('--json shapes of commit, draw and verify', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--shuffle', '--delay', STAMPED_DELAY, '-o', 'shuffle.commitment.json', '--json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const cs = json<Record<string, unknown>>(c)
    expect(cs).toMatchObject({ ok: true, file: 'shuffle.commitment.json', beacon: ws.emu.beaconName, authenticated: true, draw: { kind: 'shuffle' }, participants: { count: 20 } })
    expect(cs.cid).toMatch(/^bagu/)
    expect(typeof cs.target).toBe('number')
    expect(cs.target as number).toBeGreaterThan((cs.after as { sequence: number }).sequence)
    expect(Date.parse(cs.estimatedTime as string)).not.toBeNaN()

    const d = await run(['draw', 'shuffle.commitment.json', '-p', 'names.txt', '-o', 'shuffle.proof.json', '--json'], ws.opts)
    expect(d.code, d.stderr).toBe(0)
    const ds = json<Record<string, unknown>>(d)
    expect(ds).toMatchObject({ ok: true, file: 'shuffle.proof.json', commitmentCid: cs.cid, disclosure: 'full', authenticated: true, target: { sequence: cs.target } })
    expect((ds.outcome as { ranking: unknown[] }).ranking).toHaveLength(20)

    const v = await run(['verify', 'shuffle.proof.json', '--json'], ws.opts)
    const vs = json<{ ok: boolean; authenticated: boolean; checks: { name: string; ok: boolean }[]; outcome: { kind: string } }>(v)
    expect(vs.ok).toBe(true)
    expect(vs.authenticated).toBe(true)
    expect(vs.checks.map((x) => x.name)).toEqual(expect.arrayContaining(['commitment-cid', 'participants', 'chain-links', 'ipns-record-signature', 'seed', 'outcome']))
    expect(vs.outcome.kind).toBe('shuffle')
  })

  it('range draw (no participants) and weighted draw from a CSV weight column', async () => {
    // 32 blocks of 250 ms: the same 8 s as STAMPED_DELAY, so the time-stamp lands before the target under load (24 did not at load 9).
    const c = await run(['commit', '--range', '1..49', '--count', '6', '--distinct', '--sequence', String(ws.emu.beacon.head().sequence + 32), '-o', 'lotto.json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'lotto.json', '-o', 'lotto.proof.json', '--json'], ws.opts)
    expect(d.code, d.stderr).toBe(0)
    const values = json<{ outcome: { values: string[] } }>(d).outcome.values
    expect(values).toHaveLength(6)
    expect(new Set(values).size).toBe(6)
    for (const x of values) expect(Number(x)).toBeGreaterThanOrEqual(1)

    await writeFile(join(ws.dir, 'tickets.csv'), 'name,tickets\nAda,5\nBen,1\n"Cruz, Dana",3\nEve,2\n')
    const w = await run(['commit', '-p', 'tickets.csv', '--column', 'name', '--weight-column', 'tickets', '--weighted', '2', '--delay', STAMPED_DELAY, '-o', 'weighted.json'], ws.opts)
    expect(w.code, w.stderr).toBe(0)
    const wd = await run(['draw', 'weighted.json', '-p', 'tickets.csv', '--column', 'name', '--weight-column', 'tickets', '-o', 'weighted.proof.json'], ws.opts)
    expect(wd.code, wd.stderr).toBe(0)
    expect((await run(['verify', 'weighted.proof.json'], ws.opts)).code).toBe(0)
  })
})

describe('draw and verify refusals', () => {
  it('a tampered proof fails verification with exit 1 and names the failed check', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '3', '--delay', STAMPED_DELAY, '-o', 'tamper.commitment.json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'tamper.commitment.json', '-p', 'names.txt', '-o', 'tamper.proof.json', '--json'], ws.opts)
    expect(d.code, d.stderr).toBe(0)
    const proof = JSON.parse(await readFile(join(ws.dir, 'tamper.proof.json'), 'utf8')) as { outcome: { winners: { entry: string; index: number }[] }; seed: string }

    // 1. claim another winner (a real participant, so the participants section still checks)
    const loser = Array.from({ length: 20 }, (_, i) => i).find((i) => !proof.outcome.winners.some((w) => w.index === i))!
    const forged = structuredClone(proof)
    forged.outcome.winners[0] = { ...forged.outcome.winners[0]!, index: loser, entry: `Person ${loser + 1}` }
    await writeFile(join(ws.dir, 'forged.json'), JSON.stringify(forged))
    const v = await run(['verify', 'forged.json'], ws.opts)
    expect(v.code).toBe(1)
    expect(v.stdout).toMatch(/✗ outcome/)
    expect(v.stdout).toMatch(/FAILED: outcome/)
    const vj = await run(['verify', 'forged.json', '--json'], ws.opts)
    expect(vj.code).toBe(1)
    const failed = json<{ ok: boolean; checks: { name: string; ok: boolean }[] }>(vj).checks.filter((x) => !x.ok).map((x) => x.name)
    expect(failed).toEqual(['outcome'])

    // 2. a changed seed
    const seeded = { ...proof, seed: proof.seed.replace(/^./, (ch) => (ch === '0' ? '1' : '0')) }
    await writeFile(join(ws.dir, 'seeded.json'), JSON.stringify(seeded))
    const s = await run(['verify', 'seeded.json'], ws.opts)
    expect(s.code).toBe(1)
    expect(s.stdout).toMatch(/✗ seed/)
  })

  it('refuses to overwrite an existing proof unless --force, before waiting', async () => {
    await writeFile(join(ws.dir, 'exists.json'), '{}')
    const c = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', '3s', '-o', 'force.commitment.json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'force.commitment.json', '-p', 'names.txt', '-o', 'exists.json'], ws.opts)
    expect(d.code).toBe(2)
    expect(d.stderr).toMatch(/exists\.json already exists; pass --force/)
    expect(d.stderr).not.toMatch(/waiting for block/)
    expect(await readFile(join(ws.dir, 'exists.json'), 'utf8')).toBe('{}')
    const f = await run(['draw', 'force.commitment.json', '-p', 'names.txt', '-o', 'exists.json', '--force', '--quiet'], ws.opts)
    expect(f.code, f.stderr).toBe(0)
    expect((await run(['verify', 'exists.json'], ws.opts)).code).toBe(0)
    // commit refuses the same way
    const again = await run(['commit', '-p', 'names.txt', '--pick', '1', '-o', 'force.commitment.json'], ws.opts)
    expect(again.code).toBe(2)
  })

  it('participants that do not match the commitment: exit 4 at once, no waiting', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', '1h', '-o', 'far.commitment.json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    await writeFile(join(ws.dir, 'other.txt'), names(20, 'Someone'))
    // The target is an hour away: only failing before any wait finishes within the runner's timeout.
    const d = await run(['draw', 'far.commitment.json', '-p', 'other.txt', '-o', 'far.proof.json'], ws.opts)
    expect(d.code).toBe(4)
    expect(d.stderr).toMatch(/do not hash to the committed root/)
    expect(d.stderr).toMatch(/what to do: pass exactly the committed list/)
    await writeFile(join(ws.dir, 'fewer.txt'), names(19))
    const f = await run(['draw', 'far.commitment.json', '-p', 'fewer.txt', '-o', 'far.proof.json', '--json'], ws.opts)
    expect(f.code).toBe(4)
    expect(json<{ ok: boolean; exitCode: number; error: { code: string } }>(f)).toMatchObject({ ok: false, exitCode: 4, error: { code: 'PARTICIPANTS_MISMATCH' } })
  })

  it('a corrupt commitment or proof file is bad input (exit 4)', async () => {
    await writeFile(join(ws.dir, 'junk.json'), '{"version": 1, "nope": true')
    const d = await run(['draw', 'junk.json', '-p', 'names.txt', '-o', 'junk.proof.json'], ws.opts)
    expect(d.code).toBe(4)
    expect(d.stderr).toMatch(/commitment is not valid/)
    const missing = await run(['verify', 'does-not-exist.json'], ws.opts)
    expect(missing.code).toBe(4)
    expect(missing.stderr).toMatch(/cannot read proof does-not-exist\.json: ENOENT/)
  })

  it('--json with the file on standard output (-o -): the summary on stderr escapes what a terminal must not receive raw', async () => {
    // Found by the third fuzzing pass: this one summary was plain JSON.stringify, so a label's U+202E or C1
    // control reached the terminal, where every other --json output escapes them.
    const c = await run(['commit', '-p', 'names.txt', '--pick', '1', '--label', 'tricky \u202e label \u009b', '--delay', STAMPED_DELAY, '-o', '-', '--json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    expect(c.stderr, c.stderr).not.toMatch(/[\u202e\u009b]/)
    expect(c.stderr).toContain('tricky \\u202e label \\u009b')
    expect((JSON.parse(c.stderr.trim().split('\n').pop()!) as { commitment?: unknown; cid?: string }).cid).toMatch(/^bagu/)
    // The draw's summary, with the proof on standard output, goes through the same escaping (its entries
    // cannot hold such characters: the list's rules refuse them; this checks the path itself).
    await writeFile(join(ws.dir, 'tricky.commitment.json'), c.stdout)
    const d = await run(['draw', 'tricky.commitment.json', '-p', 'names.txt', '-o', '-', '--json'], ws.opts)
    expect(d.code, d.stderr).toBe(0)
    expect(d.stderr, d.stderr).not.toMatch(/[\u202e\u009b]/)
    expect(JSON.parse(d.stdout)).toMatchObject({ type: 'orbitdraw-proof' })
  })

  it('reads participants from standard input', async () => {
    const c = await run(['commit', '-p', '-', '--pick', '1', '--delay', STAMPED_DELAY, '-o', '-'], { ...ws.opts, input: names(5) })
    expect(c.code, c.stderr).toBe(0)
    const commitment = (JSON.parse(c.stdout) as { commitment: { participants: { count: number } } }).commitment
    expect(commitment.participants.count).toBe(5)
    expect(c.stderr).toMatch(/CID\s+bagu/)
  })
})
