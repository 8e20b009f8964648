/**
 * `orbitdraw receipts` and `orbitdraw check-receipt` through the real binary (no network needed: the
 * commitment is made with the library, the secret file with serializeSecretFile).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { OrganizerSecret, serializeSecretFile } from '../../src/core/secret.js'
import { receiptFileName } from '../../src/cli/commands/receipts.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { json, run, useWorkspace } from './helpers.js'

const CHAIN = buildChain(6, 'cli receipts')
const ENTRIES = ['Ada Lovelace', 'Grace Hopper', '../../etc/passwd', 'CON', 'Zoë 🎉', '.hidden', 'a/b\\c', 'Émile']
const SECRET = OrganizerSecret.fromBytes(Uint8Array.from({ length: 32 }, (_, i) => 31 * i + 1))
let cid: string
let otherCid: string

const ws = useWorkspace()

beforeAll(async () => {
  const base = { beacon: BEACON_NAME, target: 5, after: { sequence: 3, block: CHAIN[3]!.cid }, participants: ENTRIES, draw: { kind: 'pick' as const, count: 2 }, label: 'cli receipts' }
  const c = commit({ ...base, private: { secret: SECRET } })
  cid = c.cid
  otherCid = commit({ ...base, label: 'another', private: { secret: SECRET } }).cid
  await writeFile(join(ws.dir, 'c.json'), `${JSON.stringify(c.json, null, 2)}\n`)
  await writeFile(join(ws.dir, 'c.secret.json'), serializeSecretFile(SECRET, cid), { mode: 0o600 })
  await writeFile(join(ws.dir, 'names.json'), JSON.stringify(ENTRIES))
  await writeFile(join(ws.dir, 'public.json'), `${JSON.stringify(commit(base).json, null, 2)}\n`)
})

describe('orbitdraw receipts', () => {
  it('writes one receipt per participant with safe file names, and refuses to overwrite without --force', async () => {
    const r = await run(['receipts', 'c.json', '-p', 'names.json', '--secret', 'c.secret.json', '-o', 'out', '--json'], { cwd: ws.dir })
    expect(r.code, r.stderr).toBe(0)
    const files = (await readdir(join(ws.dir, 'out'))).sort()
    expect(files).toEqual(ENTRIES.map((e, i) => receiptFileName(i, e, ENTRIES.length)).sort())
    expect(files).toHaveLength(ENTRIES.length)
    for (const f of files) expect(f).toMatch(/^[0-9]+(-[A-Za-z0-9._-]+)?\.json$/)
    expect(files).toContain('2-etc-passwd.json')
    expect(json<{ count: number }>(r).count).toBe(ENTRIES.length)
    const secretHex = SECRET.exportHex()
    expect(r.stdout + r.stderr).not.toContain(secretHex)
    for (const f of files) expect(await readFile(join(ws.dir, 'out', f), 'utf8')).not.toContain(secretHex)

    const again = await run(['receipts', 'c.json', '-p', 'names.json', '--secret', 'c.secret.json', '-o', 'out'], { cwd: ws.dir })
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/already exists; pass --force/)
    const forced = await run(['receipts', 'c.json', '-p', 'names.json', '--secret', 'c.secret.json', '-o', 'out', '--force'], { cwd: ws.dir })
    expect(forced.code, forced.stderr).toBe(0)
  })

  it('a file of lines is read as a stream: the same receipts, byte for byte, the same refusals', async () => {
    await writeFile(join(ws.dir, 'names.txt'), `${ENTRIES.join('\r\n')}\r\n`)
    const mem = await run(['receipts', 'c.json', '-p', 'names.json', '--secret', 'c.secret.json', '-o', 'mem'], { cwd: ws.dir })
    expect(mem.code, mem.stderr).toBe(0)
    const lines = await run(['receipts', 'c.json', '-p', 'names.txt', '--secret', 'c.secret.json', '-o', 'lines', '--json'], { cwd: ws.dir })
    expect(lines.code, lines.stderr).toBe(0)
    const files = (await readdir(join(ws.dir, 'lines'))).sort()
    expect(files).toEqual((await readdir(join(ws.dir, 'mem'))).sort())
    expect(json<{ files: string[] }>(lines).files).toEqual(ENTRIES.map((e, i) => receiptFileName(i, e, ENTRIES.length)))
    for (const f of files) expect(await readFile(join(ws.dir, 'lines', f), 'utf8')).toBe(await readFile(join(ws.dir, 'mem', f), 'utf8'))
    const again = await run(['receipts', 'c.json', '-p', 'names.txt', '--secret', 'c.secret.json', '-o', 'lines'], { cwd: ws.dir })
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/already exists; pass --force/)
    await writeFile(join(ws.dir, 'short.txt'), `${ENTRIES.slice(1).join('\n')}\n`)
    const short = await run(['receipts', 'c.json', '-p', 'short.txt', '--secret', 'c.secret.json', '-o', 'short'], { cwd: ws.dir })
    expect(short.code).toBe(4)
    expect(short.stderr).toMatch(/7 participants given, 8 committed/)
    await writeFile(join(ws.dir, 'dup.txt'), `${ENTRIES.join('\n')}\n${ENTRIES[0]}\n`)
    const dup = await run(['receipts', 'c.json', '-p', 'dup.txt', '--secret', 'c.secret.json', '-o', 'dup'], { cwd: ws.dir })
    expect(dup.code).toBe(4)
    expect(dup.stderr).toMatch(/dup\.txt, line 9: .*identical to line 1/)
  })

  it('a weighted CSV (--weight-column) is read as a stream: the receipts of the JSON list read whole, byte for byte', async () => {
    const weighted = ENTRIES.map((entry, i) => ({ entry, weight: 1 + (i % 3) }))
    const base = { beacon: BEACON_NAME, target: 5, after: { sequence: 3, block: CHAIN[3]!.cid }, participants: weighted, draw: { kind: 'weighted' as const, count: 2 }, label: 'cli weighted receipts' }
    const c = commit({ ...base, private: { secret: SECRET } })
    await writeFile(join(ws.dir, 'w.json'), `${JSON.stringify(c.json, null, 2)}\n`)
    await writeFile(join(ws.dir, 'w.secret.json'), serializeSecretFile(SECRET, c.cid), { mode: 0o600 })
    await writeFile(join(ws.dir, 'tickets.json'), JSON.stringify(weighted))
    const field = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)
    await writeFile(join(ws.dir, 'tickets.csv'), `id,name,tickets\n${weighted.map((w, i) => `${i},${field(w.entry)},${w.weight}`).join('\n')}\n`)
    const mem = await run(['receipts', 'w.json', '-p', 'tickets.json', '--secret', 'w.secret.json', '-o', 'wmem'], { cwd: ws.dir })
    expect(mem.code, mem.stderr).toBe(0)
    const csv = await run(['receipts', 'w.json', '-p', 'tickets.csv', '--column', 'name', '--weight-column', 'tickets', '--secret', 'w.secret.json', '-o', 'wcsv', '--json'], { cwd: ws.dir })
    expect(csv.code, csv.stderr).toBe(0)
    expect(json<{ files: string[] }>(csv).files).toEqual(ENTRIES.map((e, i) => receiptFileName(i, e, ENTRIES.length)))
    const files = (await readdir(join(ws.dir, 'wcsv'))).sort()
    expect(files).toEqual((await readdir(join(ws.dir, 'wmem'))).sort())
    for (const f of files) expect(await readFile(join(ws.dir, 'wcsv', f), 'utf8')).toBe(await readFile(join(ws.dir, 'wmem', f), 'utf8'))
    expect((JSON.parse(await readFile(join(ws.dir, 'wcsv', files[2]!), 'utf8')) as { weight: number }).weight).toBe(3)
    // The names are checked before any receipt is written (the CSV read again), and a bad row names its row.
    const again = await run(['receipts', 'w.json', '-p', 'tickets.csv', '--column', 'name', '--weight-column', 'tickets', '--secret', 'w.secret.json', '-o', 'wcsv'], { cwd: ws.dir })
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/already exists; pass --force/)
    await writeFile(join(ws.dir, 'heavier.csv'), `name,tickets\n${weighted.map((w, i) => `${field(w.entry)},${i === 4 ? 9 : w.weight}`).join('\n')}\n`)
    const heavier = await run(['receipts', 'w.json', '-p', 'heavier.csv', '--weight-column', 'tickets', '--secret', 'w.secret.json', '-o', 'wheavy'], { cwd: ws.dir })
    expect(heavier.code).toBe(4)
    expect(heavier.stderr).toMatch(/do not hash to the committed root/)
    await writeFile(join(ws.dir, 'bad.csv'), 'name,tickets\nann,2\nbob,0\n')
    const bad = await run(['receipts', 'w.json', '-p', 'bad.csv', '--weight-column', 'tickets', '--secret', 'w.secret.json', '-o', 'wbad'], { cwd: ws.dir })
    expect(bad.code).toBe(4)
    expect(bad.stderr).toMatch(/row 3: weight "0"/)
  })

  it('refuses a public commitment, a missing secret, a secret of another commitment, and a wrong list', async () => {
    const pub = await run(['receipts', 'public.json', '-p', 'names.json', '--secret', 'c.secret.json', '-o', 'pub'], { cwd: ws.dir })
    expect(pub.code).toBe(2)
    const none = await run(['receipts', 'c.json', '-p', 'names.json', '-o', 'none'], { cwd: ws.dir })
    expect(none.code).toBe(2)
    await writeFile(join(ws.dir, 'other.secret.json'), serializeSecretFile(SECRET, otherCid))
    const other = await run(['receipts', 'c.json', '-p', 'names.json', '--secret', 'other.secret.json', '-o', 'other'], { cwd: ws.dir })
    expect(other.code).toBe(4)
    expect(other.stderr).toMatch(/SECRET_MISMATCH|belongs to commitment/)
    await writeFile(join(ws.dir, 'wrong.json'), JSON.stringify([...ENTRIES].reverse()))
    const wrong = await run(['receipts', 'c.json', '-p', 'wrong.json', '--secret', 'c.secret.json', '-o', 'wrong'], { cwd: ws.dir })
    expect(wrong.code).toBe(4)
  })

  it('a secret file is read no further than its limit: /dev/zero and a large file are refused by their size (it was read whole: 622 MB for /dev/zero)', async () => {
    const zero = await run(['receipts', 'c.json', '-p', 'names.json', '--secret', '/dev/zero', '-o', 'zero', '--json'], { cwd: ws.dir })
    expect(zero.code, zero.stdout + zero.stderr).toBe(4)
    expect(json<{ error: { code: string; message: string } }>(zero).error).toMatchObject({ code: 'INVALID_SECRET_FILE', message: 'the secret file /dev/zero is over 4096 bytes: not a secret file' })
    await writeFile(join(ws.dir, 'padded.secret.json'), `${serializeSecretFile(SECRET, cid)}${' '.repeat(5000)}`)
    const padded = await run(['receipts', 'c.json', '-p', 'names.json', '--secret', 'padded.secret.json', '-o', 'padded', '--json'], { cwd: ws.dir })
    expect(padded.code).toBe(4)
    expect(json<{ error: { code: string } }>(padded).error.code).toBe('INVALID_SECRET_FILE')
    expect(padded.stdout + padded.stderr).not.toContain(SECRET.exportHex())
    const missing = await run(['receipts', 'c.json', '-p', 'names.json', '--secret', 'nope.secret.json', '-o', 'missing', '--json'], { cwd: ws.dir })
    expect(missing.code).toBe(4)
    expect(json<{ error: { code: string; message: string } }>(missing).error).toMatchObject({ code: 'FILE_UNREADABLE', message: 'cannot read the secret file nope.secret.json: ENOENT' })
  })
})

describe('orbitdraw check-receipt', () => {
  const file = (i: number): string => join('out', receiptFileName(i, ENTRIES[i]!, ENTRIES.length))

  it('exit 0 for a good receipt (pinned and not), with the entry named', async () => {
    const ok = await run(['check-receipt', file(4), '--commitment', cid], { cwd: ws.dir })
    expect(ok.code, ok.stdout + ok.stderr).toBe(0)
    expect(ok.stdout).toContain('CHECKED: "Zoë 🎉" is at position 5')
    const unpinned = await run(['check-receipt', file(4)], { cwd: ws.dir })
    expect(unpinned.code).toBe(0)
    expect(unpinned.stdout).toContain('CHECKED (not pinned)')
    const j = await run(['check-receipt', file(0), '--commitment', cid, '--json'], { cwd: ws.dir })
    expect(j.code).toBe(0)
    expect(json<{ ok: boolean; pinned: boolean; index: number; entry: string }>(j)).toMatchObject({ ok: true, pinned: true, index: 0, entry: 'Ada Lovelace' })
  })

  it('exit 1 for a wrong CID, a wrong path and a wrong salt, naming the failed check', async () => {
    const wrongCid = await run(['check-receipt', file(1), '--commitment', otherCid, '--json'], { cwd: ws.dir })
    expect(wrongCid.code).toBe(1)
    expect(json<{ checks: { name: string; ok: boolean }[] }>(wrongCid).checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['commitment-pinned'])

    const r = JSON.parse(await readFile(join(ws.dir, file(1)), 'utf8')) as { path: string[]; salt: string }
    const other = JSON.parse(await readFile(join(ws.dir, file(2)), 'utf8')) as { path: string[]; salt: string }
    await writeFile(join(ws.dir, 'bad-path.json'), JSON.stringify({ ...r, path: other.path }))
    await writeFile(join(ws.dir, 'bad-salt.json'), JSON.stringify({ ...r, salt: other.salt }))
    for (const bad of ['bad-path.json', 'bad-salt.json']) {
      const res = await run(['check-receipt', bad, '--commitment', cid], { cwd: ws.dir })
      expect(res.code, bad).toBe(1)
      expect(res.stdout).toMatch(/✗ inclusion/)
      expect(res.stdout).toContain('FAILED: inclusion')
    }
    await writeFile(join(ws.dir, 'junk.json'), '{"type":"orbitdraw-receipt","type":"x"}')
    const junk = await run(['check-receipt', 'junk.json'], { cwd: ws.dir })
    expect(junk.code).toBe(1)
    expect(junk.stdout).toMatch(/✗ format/)
    const missing = await run(['check-receipt', 'nope.json'], { cwd: ws.dir })
    expect(missing.code).toBe(4)
  })
})
