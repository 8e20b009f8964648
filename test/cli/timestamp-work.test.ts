/**
 * `orbitdraw verify` of a genuine proof with hostile time-stamp tokens added (issue 23, item 1), through
 * the real binary: the verdict stays the genuine one, every hostile token is refused by name, and the
 * signature checks reported stay within the proof's budget (work shown by counts, never by timing).
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CID } from 'multiformats/cid'
import { beforeAll, describe, expect, it } from 'vitest'
import { bytesToBase64 } from '../../src/core/bytes.js'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { serializeProof, type Proof } from '../../src/core/proof.js'
import { LIMITS } from '../../src/core/limits.js'
import { createTestTsa } from '../../src/emulator/tsa.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { hostileToken, nameGridToken } from '../helpers/hostile-tokens.js'
import { json, run, useWorkspace } from './helpers.js'

const ws = useWorkspace()
const PEOPLE = ['Amara', 'Bruno', 'Chen', 'Dalia', 'Emil']

interface Report {
  ok: boolean
  checks: { name: string; ok: boolean; detail: string }[]
  commitmentTime: { tokens: { ok: boolean; problem: string | null; signatureChecks: number }[] }
}

beforeAll(async () => {
  const chain = buildChain(10, 'cli timestamp work')
  const targetTime = chain[8]!.timestamp
  const tsa = createTestTsa({ seed: new Uint8Array(32).fill(4), now: () => (targetTime - 300) * 1000 })
  const { commitment } = commit({ beacon: BEACON_NAME, target: 8, after: { sequence: 6, block: chain[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 } })
  const drawn = drawFromBlock(commitment, PEOPLE, chain[8]!)
  const at = { digest: CID.parse(drawn.commitmentCid).multihash.digest, genTime: (targetTime - 300) * 1000 }
  const hostile = [hostileToken(15, true, 'cli dup', at).token, hostileToken(15, false, 'cli keys', at).token, ...Array.from({ length: 13 }, (_, i) => nameGridToken(3, `cli grid ${i}`, at).token)]
  const blocks = chain.slice(6).reverse().map((b) => ({ cid: b.cid, bytes: bytesToBase64(b.bytes) }))
  const proof = (tokens: Uint8Array[]): string => serializeProof({ ...drawn, timestamps: tokens.map((t) => bytesToBase64(t)), chain: { blocks } } as Proof)
  await writeFile(join(ws.dir, 'tsa.pem'), tsa.rootPem)
  await writeFile(join(ws.dir, 'with-genuine.proof.json'), proof([...hostile, tsa.issue(at.digest)]))
  await writeFile(join(ws.dir, 'hostile-only.proof.json'), proof(hostile))
  // issue 23, item 3: root -> CA (pathLen 0) -> CA -> TSA, under the same root as tsa above
  const deep = createTestTsa({ seed: new Uint8Array(32).fill(4), now: () => (targetTime - 300) * 1000, intermediates: [{ name: 'CA one', pathLen: 0 }, { name: 'CA two' }] })
  await writeFile(join(ws.dir, 'path-len.proof.json'), proof([deep.issue(at.digest)]))
  const fine = createTestTsa({ seed: new Uint8Array(32).fill(4), now: () => (targetTime - 300) * 1000, intermediates: [{ name: 'CA one', pathLen: 1 }, { name: 'CA two' }] })
  await writeFile(join(ws.dir, 'path-len-1.proof.json'), proof([fine.issue(at.digest)]))
}, 60_000)

describe('verify: hostile time-stamp tokens added to a proof', () => {
  it('with the genuine token last: commitment-time passes; duplicates, the over-cost token and the tokens past the budget are refused by name', async () => {
    const v = await run(['verify', 'with-genuine.proof.json', '--allow-unsigned', '--trust-tsa', 'tsa.pem', '--json'], { cwd: ws.dir })
    const r = json<Report>(v)
    expect(r.checks.find((c) => c.name === 'commitment-time')?.ok).toBe(true)
    const tokens = r.commitmentTime.tokens
    expect(tokens).toHaveLength(LIMITS.maxTimestampTokens)
    expect(tokens[0]).toMatchObject({ problem: 'TIMESTAMP_DUPLICATE_CERTIFICATE', signatureChecks: 0 })
    expect(tokens[1]).toMatchObject({ problem: 'TIMESTAMP_LIMIT_EXCEEDED', signatureChecks: 0 })
    expect(tokens[15]).toMatchObject({ ok: true, signatureChecks: 2 })
    expect(tokens.some((t) => t.problem === 'TIMESTAMP_LIMIT_EXCEEDED' && t.signatureChecks === 0)).toBe(true)
    expect(tokens.reduce((n, t) => n + t.signatureChecks, 0)).toBeLessThanOrEqual(LIMITS.maxTimestampSignatureChecksPerProof)
  })
  it('hostile tokens alone: exit 1, commitment-time fails naming the problems, the work still within the budget', async () => {
    const v = await run(['verify', 'hostile-only.proof.json', '--allow-unsigned', '--trust-tsa', 'tsa.pem', '--json'], { cwd: ws.dir })
    expect(v.code).toBe(1)
    const r = json<Report>(v)
    const c = r.checks.find((x) => x.name === 'commitment-time')!
    expect(c.ok).toBe(false)
    expect(c.detail).toContain('have the same issuer, subject')
    expect(c.detail).toContain('maxTimestampSignatureChecksPerToken = 32')
    expect(r.commitmentTime.tokens[0]!.problem).toBe('TIMESTAMP_DUPLICATE_CERTIFICATE')
    expect(r.commitmentTime.tokens.reduce((n, t) => n + t.signatureChecks, 0)).toBeLessThanOrEqual(LIMITS.maxTimestampSignatureChecksPerProof)
  })
})

describe('verify: pathLenConstraint (RFC 5280 6.1.4)', () => {
  it('root -> CA (pathLen 0) -> CA -> TSA: exit 1, commitment-time fails with TIMESTAMP_PATH_LEN_EXCEEDED; with pathLen 1 it verifies', async () => {
    const v = await run(['verify', 'path-len.proof.json', '--allow-unsigned', '--trust-tsa', 'tsa.pem', '--json'], { cwd: ws.dir })
    expect(v.code).toBe(1)
    const r = json<Report>(v)
    expect(r.checks.find((c) => c.name === 'commitment-time')).toMatchObject({ ok: false })
    expect(r.commitmentTime.tokens[0]!.problem).toBe('TIMESTAMP_PATH_LEN_EXCEEDED')
    const ok = await run(['verify', 'path-len-1.proof.json', '--allow-unsigned', '--trust-tsa', 'tsa.pem', '--json'], { cwd: ws.dir })
    expect(json<Report>(ok).checks.find((c) => c.name === 'commitment-time')).toMatchObject({ ok: true })
  })
})
