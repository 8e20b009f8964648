/**
 * `orbitdraw beacon …` and `orbitdraw random` through the real binary against an in-process emulator.
 */
import { chmod, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { startEmulator } from '../../src/emulator/index.js'
import { json, run, useEmulatorWorkspace, type RunResult } from './helpers.js'

const SECRET = 'cli-test-secret-Zq81xP'
const CLIENT_ID = 'cli-test-client'

let restEnv: Record<string, string>

const ws = useEmulatorWorkspace({ emulator: { beacon: { intervalMs: 250, keyType: 'Ed25519', initialBlocks: 5 }, rest: { clientId: CLIENT_ID, clientSecret: SECRET } } })

beforeAll(async () => {
  restEnv = { ORBITPORT_CLIENT_ID: CLIENT_ID, ORBITPORT_CLIENT_SECRET: SECRET, ORBITPORT_BASE_URL: ws.emu.url, ORBITPORT_AUTH_URL: ws.emu.url }
})

interface BlockOut {
  sequence: number
  cid: string
  previous: string | null
  timestamp: number
  ctrng: string[]
}

describe('beacon', () => {
  it('latest: the signed head, human and --json', async () => {
    const h = await run(['beacon', 'latest'], ws.opts)
    expect(h.code, h.stderr).toBe(0)
    expect(h.stdout).toContain(`beacon ${ws.emu.beaconName}`)
    expect(h.stdout).toMatch(/signed head: IPNS record #\d+ valid until/)
    expect(h.stdout).toMatch(/ctrng\[0\] {2}[0-9a-f]{64}/)
    const j = await run(['beacon', 'latest', '--json'], ws.opts)
    const head = json<{ beacon: string; authenticated: boolean; record: { sequence: string }; block: BlockOut }>(j)
    expect(head.beacon).toBe(ws.emu.beaconName)
    expect(head.authenticated).toBe(true)
    expect(head.block.sequence).toBeGreaterThanOrEqual(5)
    expect(head.block.ctrng).toHaveLength(3)
    expect(ws.emu.beacon.bySequence(head.block.sequence)?.cid).toBe(head.block.cid)
  })

  it('get N and block CID return the same verified block', async () => {
    const g = await run(['beacon', 'get', '2', '--json'], ws.opts)
    expect(g.code, g.stderr).toBe(0)
    const b2 = json<BlockOut>(g)
    expect(b2.sequence).toBe(2)
    expect(b2.cid).toBe(ws.emu.beacon.bySequence(2)!.cid)
    const c = await run(['beacon', 'block', b2.cid, '--json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    expect(json<BlockOut>(c)).toEqual(b2)
    const human = await run(['beacon', 'get', '0'], ws.opts)
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/^block 0 {2}bafkrei/)
    expect(human.stdout).toContain('(none: genesis)')
  })

  it('watch --count N prints N consecutive new blocks and exits 0', async () => {
    const w = await run(['beacon', 'watch', '--count', '3', '--json'], ws.opts)
    expect(w.code, w.stderr).toBe(0)
    const lines = w.stdout.trim().split('\n').map((l) => JSON.parse(l) as BlockOut & { authenticated: boolean })
    expect(lines).toHaveLength(3)
    expect(lines[1]!.sequence).toBe(lines[0]!.sequence + 1)
    expect(lines[2]!.sequence).toBe(lines[1]!.sequence + 1)
    expect(lines[1]!.previous).toBe(lines[0]!.cid)
    for (const l of lines) expect(l.authenticated).toBe(true)
    const h = await run(['beacon', 'watch', '--count', '1'], ws.opts)
    expect(h.code).toBe(0)
    expect(h.stderr).toMatch(/watching .* for 1 new block/)
    expect(h.stdout).toMatch(/block \d+ {2}bafkrei/)
  })
})

function noSecret(r: RunResult): void {
  expect(r.stdout).not.toContain(SECRET)
  expect(r.stderr).not.toContain(SECRET)
}

describe('random', () => {
  it('values from the emulator REST endpoint with env credentials; the secret never appears', async () => {
    const r = await run(['random'], { cwd: ws.dir, env: restEnv })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^[0-9a-f]{64} {2}satellite/)
    noSecret(r)
    const j = await run(['random', '--src', 'derived', '--count', '3', '--json'], { cwd: ws.dir, env: restEnv })
    expect(j.code, j.stderr).toBe(0)
    const out = json<{ ok: boolean; values: { source: string; hex: string; signatureVerified: boolean }[] }>(j)
    expect(out.values).toHaveLength(3)
    for (const v of out.values) {
      expect(v.source).toBe('derived')
      expect(v.hex).toMatch(/^[0-9a-f]{64}$/)
    }
    expect(new Set(out.values.map((v) => v.hex)).size).toBe(3)
    noSecret(j)
  })

  it('--src order, --public-key verification (good key ✓, wrong key exit 1)', async () => {
    const r = await run(['random', '--src', 'satellite,derived', '--public-key', ws.emu.rest.publicKeyHex, '--json'], { cwd: ws.dir, env: restEnv })
    expect(r.code, r.stderr).toBe(0)
    expect(json<{ values: { source: string; signatureVerified: boolean }[] }>(r).values[0]).toMatchObject({ source: 'satellite', signatureVerified: true })
    const other = (await startEmulator({ beacon: { intervalMs: 0, keyType: 'Ed25519' } }))
    const wrongKey = other.rest.publicKeyHex
    await other.stop()
    const bad = await run(['random', '--public-key', wrongKey], { cwd: ws.dir, env: restEnv })
    expect(bad.code, bad.stderr).toBe(1)
    expect(bad.stderr).toMatch(/ORBITPORT_BAD_SIGNATURE/)
    noSecret(bad)
  })

  it('--credentials FILE instead of the environment', async () => {
    const file = join(ws.dir, 'orbitport.json')
    await writeFile(file, JSON.stringify({ clientId: CLIENT_ID, clientSecret: SECRET, baseUrl: ws.emu.url, authUrl: ws.emu.url }))
    await chmod(file, 0o600)
    const r = await run(['random', '--credentials', file], { cwd: ws.dir })
    expect(r.code, r.stderr).toBe(0)
    noSecret(r)
  })

  it('no credentials: exit 2 saying where they go; refused credentials: exit 4 without echoing the secret', async () => {
    const none = await run(['random'], { cwd: ws.dir, env: { ORBITPORT_BASE_URL: ws.emu.url } })
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/set ORBITPORT_CLIENT_ID and ORBITPORT_CLIENT_SECRET in the environment, or pass --credentials FILE/)
    const wrong = await run(['random', '--json'], { cwd: ws.dir, env: { ...restEnv, ORBITPORT_CLIENT_SECRET: `${SECRET}-wrong` } })
    expect(wrong.code, wrong.stdout).toBe(4)
    expect(json(wrong)).toMatchObject({ ok: false, exitCode: 4, error: { code: 'ORBITPORT_TOKEN_REJECTED' } })
    noSecret(wrong)
    const badFile = join(ws.dir, 'broken.json')
    await writeFile(badFile, '{ not json')
    const bf = await run(['random', '--credentials', badFile], { cwd: ws.dir })
    expect(bf.code).toBe(4)
    expect(bf.stderr).toMatch(/is not valid JSON/)
  })
})
