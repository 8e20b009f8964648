/**
 * `orbitdraw verify` under the verifier's trust policy, through the real binary: the defaults are
 * strict (Orbitport's beacons, signed head), trust is added knowingly with flags, and every relaxed
 * rule is visible on the verdict's first line.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { CID } from 'multiformats/cid'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { bytesToBase64 } from '../../src/core/bytes.js'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { serializeProof } from '../../src/core/proof.js'
import { createTestTsa } from '../../src/emulator/tsa.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { json, names, run, useEmulatorWorkspace, STAMPED_DELAY } from './helpers.js'

let cid: string

// trust: false, no ORBITDRAW_TRUST_BEACONS or ORBITDRAW_TRUST_TSA: the verifier trusts only Orbitport's
// beacons and the built-in time-stamping roots unless a flag says otherwise. The organizer time-stamps
// with the emulator's authority (ORBITDRAW_TSA).
const ws = useEmulatorWorkspace({ trust: false, files: { 'names.txt': names(10) } })

beforeAll(async () => {
  await writeFile(join(ws.dir, 'emulator-tsa.pem'), ws.emu.tsaRootPem)
  const c = await run(['commit', '-p', 'names.txt', '--pick', '2', '--delay', STAMPED_DELAY, '--trust-tsa', 'emulator-tsa.pem', '-o', 'own.commitment.json', '--json'], ws.opts)
  expect(c.code, c.stderr).toBe(0)
  cid = json<{ cid: string }>(c).cid
  const d = await run(['draw', 'own.commitment.json', '-p', 'names.txt', '-o', 'own.proof.json', '--quiet'], ws.opts)
  expect(d.code, d.stderr).toBe(0)

  // an organizer's forgery: made-up blocks that hash to their own CIDs, naming the real Orbitport beacon, no record
  const chain = buildChain(6, 'forged')
  const people = names(10).trim().split('\n')
  const { commitment } = commit({ beacon: BEACON_NAME, target: 5, after: { sequence: 3, block: chain[3]!.cid }, participants: people, draw: { kind: 'pick', count: 2 } })
  const drawn = drawFromBlock(commitment, people, chain[5]!)
  await writeFile(join(ws.dir, 'unsigned.proof.json'), serializeProof({ ...drawn, chain: { blocks: chain.slice(3).reverse().map((b) => ({ cid: b.cid, bytes: bytesToBase64(b.bytes) })) } }))
}, 30_000)

describe('verify: trusted beacons', () => {
  it('a proof on a beacon the verifier does not trust (here the emulator’s) fails beacon-trusted by default, exit 1, saying how to trust it', async () => {
    const v = await run(['verify', 'own.proof.json'], ws.opts)
    expect(v.code).toBe(1)
    expect(v.stdout.split('\n')[0]).toBe('FAILED: beacon-trusted, commitment-time.')
    expect(v.stdout).toMatch(/Beacon: untrusted beacon k51qzi5uqu…\./)
    expect(v.stdout).toContain(`✗ beacon-trusted`)
    expect(v.stdout).toContain(`--trust-beacon ${ws.emu.beaconName}`)
  })

  it('--trust-beacon NAME trusts it knowingly; the emulator authority is not trusted yet, so commitment-time fails', async () => {
    const v = await run(['verify', 'own.proof.json', '--trust-beacon', ws.emu.beaconName], ws.opts)
    expect(v.code).toBe(1)
    expect(v.stdout.split('\n')[0]).toBe('FAILED: commitment-time.')
    expect(v.stdout).toMatch(/✗ commitment-time\s+no carried time-stamp proves that the commitment existed before block \d+: token #1: .*--trust-tsa FILE/)
  })

  it('--trust-beacon NAME and --trust-tsa FILE: the strict verdict, naming the beacon and the time-stamp', async () => {
    const v = await run(['verify', 'own.proof.json', '--trust-beacon', ws.emu.beaconName, '--trust-tsa', 'emulator-tsa.pem'], ws.opts)
    expect(v.code, v.stdout).toBe(0)
    expect(v.stdout.split('\n')[0]).toBe('VERIFIED: every check passed on its own evidence.')
    expect(v.stdout).toMatch(/Beacon: beacon from --trust-beacon \(k51qzi5uqu…\), trusted by your settings\./)
    expect(v.stdout).toContain('✓ beacon-authenticity')
    expect(v.stdout).toMatch(/Commitment time: time-stamped by orbitdraw emulator TSA at .* UTC, \d+ s before block \d+\./)
    const j = json<{ verdict: string; beacon: { trusted: boolean; source: string } }>(await run(['verify', 'own.proof.json', '--trust-beacon', ws.emu.beaconName, '--trust-tsa', 'emulator-tsa.pem', '--json'], ws.opts))
    expect(j.verdict).toBe('verified')
    expect(j.beacon).toMatchObject({ trusted: true, source: 'caller' })
  })

  it('--trust-tsa takes a file named with a comma (never split), and a DER root as well as PEM', async () => {
    await writeFile(join(ws.dir, 'tsa,root.pem'), ws.emu.tsaRootPem)
    const der = Buffer.from(ws.emu.tsaRootPem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64')
    expect(der[0]).toBe(0x30)
    await writeFile(join(ws.dir, 'tsa-root.der'), der)
    for (const file of ['tsa,root.pem', 'tsa-root.der']) {
      const v = await run(['verify', 'own.proof.json', '--trust-beacon', ws.emu.beaconName, '--trust-tsa', file], ws.opts)
      expect(v.code, `${file}: ${v.stdout}${v.stderr}`).toBe(0)
    }
  })

  it('--trust-tsa reads at most its limit (/dev/zero is refused by size) and refuses a PEM file with a byte that is not UTF-8', async () => {
    const zero = await run(['verify', 'own.proof.json', '--trust-tsa', '/dev/zero'], ws.opts)
    expect(zero.code).toBe(2)
    expect(zero.stderr).toMatch(/--trust-tsa \/dev\/zero: the file is over \d+ bytes, too long for a set of root certificates/)
    const pem = Buffer.from(ws.emu.tsaRootPem, 'utf8')
    await writeFile(join(ws.dir, 'bad-byte.pem'), Buffer.concat([Buffer.from('# root \xff\n', 'latin1'), pem]))
    const bad = await run(['verify', 'own.proof.json', '--trust-tsa', 'bad-byte.pem'], ws.opts)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--trust-tsa bad-byte\.pem: .*UTF-8/)
    const drand = await run(['verify', 'own.proof.json', '--trust-drand', '/dev/zero'], ws.opts)
    expect(drand.code).toBe(2)
    expect(drand.stderr).toMatch(/--trust-drand \/dev\/zero: the file is over 65536 bytes/)
  })

  it('an invalid --trust-beacon is a usage error (exit 2)', async () => {
    const v = await run(['verify', 'own.proof.json', '--trust-beacon', 'nope'], ws.opts)
    expect(v.code).toBe(2)
    expect(v.stderr).toMatch(/--trust-beacon: trust\.beacons\[0\] is not an IPNS name/)
  })
})

describe('verify: signed head required', () => {
  it('made-up unsigned blocks naming the real Orbitport beacon fail beacon-authenticity (exit 1)', async () => {
    const v = await run(['verify', 'unsigned.proof.json'], ws.opts)
    expect(v.code).toBe(1)
    expect(v.stdout.split('\n')[0]).toBe('FAILED: beacon-authenticity, commitment-time.')
    expect(v.stdout).toMatch(/Beacon: Orbitport randomness beacon \(k2k4r8lvom…\)\./)
    expect(v.stdout).toMatch(/✗ beacon-authenticity\s+the proof carries no signed IPNS record/)
  })

  it('--allow-unsigned accepts it knowingly: exit 0, but the first line says NOT FULLY VERIFIED and names the relaxed rule', async () => {
    const v = await run(['verify', 'unsigned.proof.json', '--allow-unsigned', '--allow-untimestamped'], ws.opts)
    expect(v.code).toBe(0)
    expect(v.stdout.split('\n')[0]).toMatch(/^NOT FULLY VERIFIED: every check passed, but only because you relaxed 2 rules/)
    expect(v.stdout).toMatch(/Relaxed: unsigned blocks allowed/)
    expect(v.stdout).toMatch(/Relaxed: commitments without a valid time-stamp allowed: .*check that the organizer published the commitment CID before then/)
    expect(v.stdout).toMatch(/~ beacon-authenticity/)
    expect(v.stdout).toMatch(/~ commitment-time/)
    expect(v.stdout).not.toMatch(/^VERIFIED/m)
    const j = json<{ ok: boolean; verdict: string; relaxed: string[] }>(await run(['verify', 'unsigned.proof.json', '--allow-unsigned', '--allow-untimestamped', '--json'], ws.opts))
    expect(j).toMatchObject({ ok: true, verdict: 'verified-relaxed' })
    expect(j.relaxed).toHaveLength(2)
  })
})

describe('verify: commitment time', () => {
  it('a late commitment (the same draw, time-stamped after its target block) fails commitment-time (exit 1)', async () => {
    const proof = JSON.parse(await readFile(join(ws.dir, 'own.proof.json'), 'utf8')) as { timestamps: string[]; commitmentCid: string; chain: { blocks: { cid: string; bytes: string }[] } }
    // the organizer asks the authority again after the block is out: the new token's time is after the block's
    const late = createTestTsa({ now: () => Date.now() + 60_000 })
    await writeFile(join(ws.dir, 'late-tsa.pem'), late.rootPem)
    proof.timestamps = [bytesToBase64(late.issue(CID.parse(proof.commitmentCid).multihash.digest))]
    await writeFile(join(ws.dir, 'late.proof.json'), JSON.stringify(proof))
    const v = await run(['verify', 'late.proof.json', '--trust-beacon', ws.emu.beaconName, '--trust-tsa', 'late-tsa.pem'], ws.opts)
    expect(v.code).toBe(1)
    expect(v.stdout.split('\n')[0]).toBe('FAILED: commitment-time.')
    const j = json<{ commitmentTime: { tokens: { problem: string }[] } }>(await run(['verify', 'late.proof.json', '--trust-beacon', ws.emu.beaconName, '--trust-tsa', 'late-tsa.pem', '--json'], ws.opts))
    expect(j.commitmentTime.tokens[0]!.problem).toBe('TIMESTAMP_LATE')
  })
})

describe('verify: pinned commitment', () => {
  it('--commitment CID: the announced CID passes; another fails commitment-pinned (exit 1)', async () => {
    const ok = await run(['verify', 'own.proof.json', '--trust-beacon', ws.emu.beaconName, '--trust-tsa', 'emulator-tsa.pem', '--commitment', cid], ws.opts)
    expect(ok.code, ok.stdout).toBe(0)
    expect(ok.stdout).toContain(`Commitment ${cid}: the one you pinned.`)
    const other = await run(['verify', 'own.proof.json', '--trust-beacon', ws.emu.beaconName, '--trust-tsa', 'emulator-tsa.pem', '--commitment', 'baguqeeraa4gfymdn5u5d4w4q3d3ffsuv6pqa5xybcbcwtj2qbnthjgrjuyta'], ws.opts)
    expect(other.code).toBe(1)
    expect(other.stdout.split('\n')[0]).toBe('FAILED: commitment-pinned.')
  })
})

describe('verify: trust from the environment is named in every verdict', () => {
  // What `orbitdraw emulator` prints: once exported, every later verify of that shell trusts the emulator.
  const envTrust = () => ({ ...ws.opts, env: { ...ws.opts.env, ORBITDRAW_TRUST_BEACONS: ws.emu.beaconName, ORBITDRAW_TRUST_TSA: Buffer.from(ws.emu.tsa.rootDer).toString('base64') } })
  const line = () => `  Trust from the environment, not from flags: beacon ${ws.emu.beaconName} (ORBITDRAW_TRUST_BEACONS); time-stamping root "orbitdraw emulator TSA root" (ORBITDRAW_TRUST_TSA). Unset ORBITDRAW_TRUST_BEACONS and ORBITDRAW_TRUST_TSA to verify with your own trust only.`

  it('a verified verdict says which beacon and which root came from the environment, in text and --json', async () => {
    const v = await run(['verify', 'own.proof.json', '--commitment', cid], envTrust())
    expect(v.code, v.stdout).toBe(0)
    expect(v.stdout.split('\n')[0]).toBe('VERIFIED: every check passed on its own evidence.')
    expect(v.stdout.split('\n')).toContain(line())
    const j = json<{ verdict: string; trustFromEnvironment: unknown }>(await run(['verify', 'own.proof.json', '--commitment', cid, '--json'], envTrust()))
    expect(j.verdict).toBe('verified')
    expect(j.trustFromEnvironment).toEqual([
      { variable: 'ORBITDRAW_TRUST_BEACONS', kind: 'beacon', value: ws.emu.beaconName },
      { variable: 'ORBITDRAW_TRUST_TSA', kind: 'time-stamping root', value: 'orbitdraw emulator TSA root' },
    ])
  })

  it('a drand chain ORBITDRAW_TRUST_DRAND adds is named too (not when a --trust-drand file replaces it)', async () => {
    const info = JSON.stringify(ws.emu.drand.infoJson)
    const env = { ...ws.opts, env: { ...ws.opts.env, ORBITDRAW_TRUST_DRAND: info } }
    const args = ['verify', 'own.proof.json', '--trust-beacon', ws.emu.beaconName, '--trust-tsa', 'emulator-tsa.pem']
    const j = json<{ verdict: string; trustFromEnvironment: unknown }>(await run([...args, '--json'], env))
    expect(j.verdict).toBe('verified')
    expect(j.trustFromEnvironment).toEqual([{ variable: 'ORBITDRAW_TRUST_DRAND', kind: 'drand chain', value: ws.emu.drand.info.hash }])
    const text = await run(args, env)
    expect(text.stdout.split('\n')).toContain(`  Trust from the environment, not from flags: drand chain "${ws.emu.drand.info.hash}" (ORBITDRAW_TRUST_DRAND). Unset ORBITDRAW_TRUST_DRAND to verify with your own trust only.`)
    await writeFile(join(ws.dir, 'drand-info.json'), info)
    expect(json<Record<string, unknown>>(await run([...args, '--trust-drand', 'drand-info.json', '--json'], env))).not.toHaveProperty('trustFromEnvironment')
  })

  it('a failed verdict and an unreadable file say it too; the same trust given by flags is not called environment trust', async () => {
    const failed = await run(['verify', 'unsigned.proof.json'], envTrust())
    expect(failed.code).toBe(1)
    expect(failed.stdout.split('\n')).toContain(line())
    await writeFile(join(ws.dir, 'not-a-proof.json'), '{"type":"orbitdraw-proof"')
    const unreadable = await run(['verify', 'not-a-proof.json'], envTrust())
    expect(unreadable.code).toBe(4)
    expect(unreadable.stdout.split('\n')).toContain(line())
    const flags = await run(['verify', 'own.proof.json', '--trust-beacon', ws.emu.beaconName, '--trust-tsa', 'emulator-tsa.pem'], ws.opts)
    expect(flags.code).toBe(0)
    expect(flags.stdout).not.toMatch(/Trust from the environment/)
    expect(json<Record<string, unknown>>(await run(['verify', 'own.proof.json', '--trust-beacon', ws.emu.beaconName, '--trust-tsa', 'emulator-tsa.pem', '--json'], ws.opts))).not.toHaveProperty('trustFromEnvironment')
  })
})
