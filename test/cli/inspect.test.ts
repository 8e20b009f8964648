/**
 * `orbitdraw inspect FILE` through the binary: a commitment, a proof and a receipt show the same
 * recomputed CID, beacon, target, count and hex root; --online gives the target's expected time;
 * a forged CID claim, another JSON file and a missing file fail clearly.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { json, names, run, useEmulatorWorkspace } from './helpers.js'

let cid: string
let root: string
let target: number

const ws = useEmulatorWorkspace({ files: { 'names.txt': names(12) } })

beforeAll(async () => {
  const c = await run(['commit', '-p', 'names.txt', '--pick', '2', '--label', 'Door prizes', '--delay', '1s', '--private', '-o', 'c.json', '--json'], ws.opts)
  if (c.code !== 0) throw new Error(c.stderr)
  const s = json<{ cid: string; target: number; participants: { root: string } }>(c)
  ;({ cid, target } = s)
  root = s.participants.root
}, 60_000)

describe('orbitdraw inspect', () => {
  it('a commitment: CID, label, draw, count and hex root, beacon, target, the claimed time-stamp', async () => {
    const r = await run(['inspect', 'c.json'], ws.opts)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^Commitment \(read, not verified\)/)
    expect(r.stdout).toContain(`CID            ${cid}`)
    expect(r.stdout).toContain('"Door prizes"')
    expect(r.stdout).toContain('pick 2 of 12')
    expect(r.stdout).toContain(`12 entries (private list: salted), Merkle root ${root}`)
    expect(root).toMatch(/^[0-9a-f]{64}$/)
    expect(r.stdout).toContain(`beacon         ${ws.emu.beaconName}`)
    expect(r.stdout).toMatch(new RegExp(`target block {3}${target.toLocaleString('en-US')} \\(\\d+ blocks? after it\\)`))
    expect(r.stdout).toMatch(/time-stamp {5}\d{4}-\d\d-\d\dT[0-9:.]+Z \(claimed/)
  })

  it('--online says when the target is expected, or that it is out', async () => {
    const r = await run(['inspect', 'c.json', '--online', '--json'], ws.opts)
    expect(r.code, r.stderr).toBe(0)
    const j = json<{ expected: { latest: number; published: boolean; time: string } }>(r)
    expect(typeof j.expected.latest).toBe('number')
    if (j.expected.published) expect(j.expected.latest).toBeGreaterThanOrEqual(target)
    else expect(Number.isNaN(Date.parse(j.expected.time))).toBe(false)
  })

  it('a proof and a receipt show the same CID; --json keeps index 0-based beside the 1-based position', async () => {
    const d = await run(['draw', 'c.json', '-p', 'names.txt', '--secret', 'c.secret.json', '-o', 'p.json', '--quiet'], ws.opts)
    expect(d.code, d.stderr).toBe(0)
    const p = await run(['inspect', 'p.json'], ws.opts)
    expect(p.code, p.stderr).toBe(0)
    expect(p.stdout).toMatch(/^Proof \(read, not verified\)/)
    expect(p.stdout).toContain(`CID            ${cid}`)
    expect(p.stdout).toMatch(/published \d{4}-/)
    expect(p.stdout).toContain('orbitdraw verify FILE')
    const rc = await run(['receipts', 'c.json', '-p', 'names.txt', '--secret', 'c.secret.json', '-o', 'receipts'], ws.opts)
    expect(rc.code, rc.stderr).toBe(0)
    const r = await run(['inspect', join('receipts', '00-Person-1.json'), '--json'], ws.opts)
    expect(r.code, r.stderr).toBe(0)
    expect(json(r)).toMatchObject({ ok: true, kind: 'receipt', cid, receipt: { index: 0, position: 1, entry: 'Person 1' }, participants: { count: 12, root, salted: true } })
    const human = await run(['inspect', join('receipts', '00-Person-1.json')], ws.opts)
    expect(human.stdout).toContain('"Person 1", position 1 in the list')
  })

  it('a proof whose stated CID differs from its commitment is flagged', async () => {
    const proof = JSON.parse(await readFile(join(ws.dir, 'p.json'), 'utf8')) as { commitmentCid: string }
    proof.commitmentCid = proof.commitmentCid.slice(0, -4) + (proof.commitmentCid.endsWith('aaaa') ? 'bbbb' : 'aaaa')
    await writeFile(join(ws.dir, 'forged.json'), JSON.stringify(proof))
    const r = await run(['inspect', 'forged.json'], ws.opts)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(`CID            ${cid}`)
    expect(r.stdout).toMatch(/WARNING\s+the file states the CID \S+, but its commitment hashes to the CID above/)
  })

  it('refuses other JSON (exit 4, UNKNOWN_FILE_TYPE), a missing file (exit 4) and extra arguments (exit 2)', async () => {
    await writeFile(join(ws.dir, 'other.json'), '{"type":"something-else"}')
    const o = await run(['inspect', 'other.json', '--json'], ws.opts)
    expect(o.code).toBe(4)
    expect(json<{ error: { code: string } }>(o).error.code).toBe('UNKNOWN_FILE_TYPE')
    const m = await run(['inspect', 'missing.json'], ws.opts)
    expect(m.code).toBe(4)
    expect(m.stderr).toContain('cannot read file missing.json: ENOENT')
    const u = await run(['inspect', 'a', 'b'], ws.opts)
    expect(u.code).toBe(2)
    const g = await run(['inspect', 'c.json', '--gateway', 'http://127.0.0.1:1'], ws.opts)
    expect(g.code).toBe(2)
    expect(g.stderr).toContain('--online')
  })
})
