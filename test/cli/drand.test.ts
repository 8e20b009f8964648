/**
 * Mixed draws through the real CLI binary against the emulator (beacon, authority and drand chain):
 * `commit --drand`, `draw`, `verify` with the either-honest wording; each attack fails its named check
 * with exit 1; a v1 draw's report says it trusts Orbitport's operator; `emulator --json` prints the chain.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { json, names, run, STAMPED_DELAY, start, useEmulatorWorkspace } from './helpers.js'

const ws = useEmulatorWorkspace({ files: { 'names.txt': names(12) } })
const drandEnv = () => ({ ...ws.opts, env: { ...ws.opts.env, ORBITDRAW_DRAND_URLS: ws.emu.url, ORBITDRAW_TRUST_DRAND: JSON.stringify(ws.emu.drand.infoJson) } })
const failedChecks = (r: { stdout: string }): string[] => (JSON.parse(r.stdout) as { checks: { name: string; ok: boolean }[] }).checks.filter((c) => !c.ok).map((c) => c.name)

describe('orbitdraw commit --drand, draw, verify', () => {
  it('a mixed draw verifies: unbiased unless both Orbitport and drand are dishonest; each attack fails its check', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '2', '--delay', STAMPED_DELAY, '--drand', '--drand-margin', '2s', '-o', 'mixed.commitment.json', '--json'], drandEnv())
    expect(c.code, c.stderr).toBe(0)
    const summary = json<{ drand: { chain: string; round: number }; commitment: { version: number } }>(c)
    expect(summary.commitment.version).toBe(2)
    expect(summary.drand.chain).toBe(ws.emu.drand.info.hash)
    const d = await run(['draw', 'mixed.commitment.json', '-p', 'names.txt', '-o', 'mixed.proof.json', '--quiet'], drandEnv())
    expect(d.code, d.stderr).toBe(0)
    expect(d.stdout).toMatch(/mixed with drand round \d+/)
    const v = await run(['verify', 'mixed.proof.json'], drandEnv())
    expect(v.code, v.stdout + v.stderr).toBe(0)
    expect(v.stdout).toMatch(/VERIFIED, unbiased unless both Orbitport and drand are dishonest/)
    expect(v.stdout).toMatch(/source-order/)

    // Without the emulator's chain in the trusted list: drand-chain-trusted fails.
    const untrusted = await run(['verify', 'mixed.proof.json', '--json'], ws.opts)
    expect(untrusted.code).toBe(1)
    expect(failedChecks(untrusted)).toEqual(['drand-chain-trusted'])
    // With the chain given by file (--trust-drand), as drand's /info serves it.
    await writeFile(join(ws.dir, 'emu-drand.json'), JSON.stringify(ws.emu.drand.infoJson))
    expect((await run(['verify', 'mixed.proof.json', '--trust-drand', 'emu-drand.json'], ws.opts)).code).toBe(0)

    const proof = JSON.parse(await readFile(join(ws.dir, 'mixed.proof.json'), 'utf8')) as { drand: { round: number; signature: string; timestamps: string[] } }
    const save = async (name: string, p: unknown): Promise<string> => {
      await writeFile(join(ws.dir, name), JSON.stringify(p))
      return name
    }
    const sig = proof.drand.signature
    const tampered = await save('tampered.json', { ...proof, drand: { ...proof.drand, signature: sig.slice(0, 90) + (sig.slice(90, 92) === '00' ? '01' : '00') + sig.slice(92) } })
    const t = await run(['verify', tampered, '--json'], drandEnv())
    expect(t.code).toBe(1)
    expect(failedChecks(t)).toEqual(['drand-signature'])
    const other = await save('other-round.json', { ...proof, drand: { ...proof.drand, round: proof.drand.round + 1, signature: ws.emu.drand.signature(proof.drand.round + 1) } })
    const o = await run(['verify', other, '--json'], drandEnv())
    expect(failedChecks(o)).toEqual(['drand-round'])
    const unstamped = await save('unstamped.json', { ...proof, drand: { ...proof.drand, timestamps: [] } })
    const u = await run(['verify', unstamped], drandEnv())
    expect(u.code).toBe(1)
    expect(u.stdout).toMatch(/source-order/)
    expect(u.stdout).not.toMatch(/VERIFIED/)
    expect(u.stdout).toMatch(/the Orbitport operator is trusted/)
  }, 90_000)

  it('a v1 draw verifies as before and says plainly it trusts Orbitport\'s operator', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', STAMPED_DELAY, '-o', 'single.commitment.json', '--json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    expect(json<{ commitment: { version: number } }>(c).commitment.version).toBe(1)
    expect((await run(['draw', 'single.commitment.json', '-p', 'names.txt', '-o', 'single.proof.json', '--quiet'], ws.opts)).code).toBe(0)
    const v = await run(['verify', 'single.proof.json'], ws.opts)
    expect(v.code).toBe(0)
    expect(v.stdout).toMatch(/VERIFIED: every check passed/)
    expect(v.stdout).toMatch(/trusts Orbitport's beacon operator/)
    expect(v.stdout).not.toMatch(/drand-/)
  }, 60_000)

  it('emulator --json prints its drand chain and the env that trusts it', async () => {
    const child = start(['emulator', '--json', '--port', '0'])
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout!.on('data', (b: Buffer) => {
          out += b.toString()
          if (out.includes('\n')) resolve(out.split('\n')[0]!)
        })
        child.on('exit', () => reject(new Error('emulator exited')))
      })
      const info = JSON.parse(line) as { drand: { url: string; info: { hash: string; schemeID: string; period: number } }; env: Record<string, string> }
      expect(info.drand.info.schemeID).toBe('bls-unchained-g1-rfc9380')
      expect(info.drand.info.period).toBe(3)
      expect(JSON.parse(info.env.ORBITDRAW_TRUST_DRAND!)).toEqual(info.drand.info)
      const res = await fetch(`${info.drand.url}/info`)
      expect(((await res.json()) as { hash: string }).hash).toBe(info.drand.info.hash)
    } finally {
      child.kill('SIGINT')
    }
  }, 30_000)
})
