/**
 * `orbitdraw beacon drand` and `beacon latest` show the drand chains trusted for mixed draws (chain hash,
 * period, genesis, scheme), as text and `--json`, through the real CLI binary: drand's quicknet by
 * default, another chain added by `--trust-drand INFO.json` or ORBITDRAW_TRUST_DRAND (read as strictly as
 * `verify` reads it), and `beacon latest` against the emulator listing its drand chain.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DRAND_QUICKNET, drandInfoJson } from '../../src/core/drand/chain.js'
import { DRAND } from '../helpers/mixed.js'
import { run, useEmulatorWorkspace } from './helpers.js'

interface DrandJson {
  hash: string
  period: number
  genesis: number
  genesisUtc: string
  scheme: string
  trustedBy: 'default' | 'you'
}

describe('orbitdraw beacon drand (offline)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orbitdraw-beacon-drand-'))
    await writeFile(join(dir, 'info.json'), JSON.stringify(drandInfoJson(DRAND)))
    await writeFile(join(dir, 'altered.json'), JSON.stringify({ ...drandInfoJson(DRAND), period: 4 }))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it("prints drand's quicknet by default: chain hash, period, genesis, scheme", async () => {
    const r = await run(['beacon', 'drand'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(`chain hash  ${DRAND_QUICKNET.hash}`)
    expect(r.stdout).toMatch(/period\s+3 s/)
    expect(r.stdout).toContain('genesis     2023-08-23 15:09:27 UTC (1692803367)')
    expect(r.stdout).toMatch(/scheme\s+bls-unchained-g1-rfc9380/)
    const j = JSON.parse((await run(['beacon', 'drand', '--json'])).stdout) as { drand: DrandJson[] }
    expect(j.drand).toEqual([expect.objectContaining({ hash: DRAND_QUICKNET.hash, period: 3, genesis: 1692803367, genesisUtc: '2023-08-23T15:09:27.000Z', scheme: 'bls-unchained-g1-rfc9380', trustedBy: 'default' })])
  })

  it('adds a chain given by --trust-drand or ORBITDRAW_TRUST_DRAND, and refuses an altered one', async () => {
    const r = await run(['beacon', 'drand', '--trust-drand', join(dir, 'info.json'), '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(r.stdout) as { drand: DrandJson[] }
    expect(j.drand.map((c) => [c.hash, c.trustedBy])).toEqual([[DRAND_QUICKNET.hash, 'default'], [DRAND.hash, 'you']])
    const env = await run(['beacon', 'drand'], { env: { ORBITDRAW_TRUST_DRAND: JSON.stringify(drandInfoJson(DRAND)) } })
    expect(env.stdout).toContain(`chain hash  ${DRAND.hash}`)
    expect(env.stdout).toContain('trusted by your settings (ORBITDRAW_TRUST_DRAND)')
    const bad = await run(['beacon', 'drand', '--trust-drand', join(dir, 'altered.json')])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/is not the hash of the chain's info/)
    const misplaced = await run(['beacon', 'get', '3', '--trust-drand', join(dir, 'info.json')])
    expect(misplaced.code).toBe(2)
    expect(misplaced.stderr).toMatch(/--trust-drand is for beacon drand and beacon latest/)
  })
})

describe('orbitdraw beacon latest (emulator)', () => {
  const ws = useEmulatorWorkspace({ files: {} })
  it("shows the beacon's head and the trusted drand chains (the emulator's own through ORBITDRAW_TRUST_DRAND)", async () => {
    const env = { ...ws.opts, env: { ...ws.opts.env, ORBITDRAW_TRUST_DRAND: JSON.stringify(ws.emu.drand.infoJson) } }
    const r = await run(['beacon', 'latest'], env)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/signed head/)
    expect(r.stdout).toContain(`chain hash  ${DRAND_QUICKNET.hash}`)
    expect(r.stdout).toContain(`chain hash  ${ws.emu.drand.info.hash}`)
    const j = JSON.parse((await run(['beacon', 'latest', '--json'], env)).stdout) as { block: { sequence: number }; drand: DrandJson[] }
    expect(j.block.sequence).toBeGreaterThan(0)
    expect(j.drand.map((c) => c.hash)).toEqual([DRAND_QUICKNET.hash, ws.emu.drand.info.hash])
  }, 30_000)
})
