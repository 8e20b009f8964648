/**
 * drand core: chain hashes recomputed from published chain info, round times, and published rounds
 * verified byte-exactly (test/vectors/drand.json), with tamper cases that must fail.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { chainHashOf, checkChainInfo, DRAND_QUICKNET, drandInfoJson, parseDrandInfo, planRound, roundAt, roundTime } from '../../../src/core/drand/chain.js'
import { publicKeyOf, signRound, verifyRoundSignature } from '../../../src/core/drand/beacon.js'
import { roundRandomness } from '../../../src/core/drand/randomness.js'
import { OrbitdrawError } from '../../../src/core/errors.js'

const vectors = JSON.parse(readFileSync(new URL('../../vectors/drand.json', import.meta.url), 'utf8')) as {
  chains: Record<string, Record<string, unknown>>
  rounds: { chain: string; round: number; signature: string; randomness: string }[]
}

const flip = (hex: string, at: number): string => hex.slice(0, at) + ((parseInt(hex[at]!, 16) ^ 1).toString(16)) + hex.slice(at + 1)

describe('drand chain info', () => {
  it('recomputes each published chain hash (drand Info.Hash) and pins quicknet exactly', () => {
    for (const [name, json] of Object.entries(vectors.chains)) {
      const info = parseDrandInfo(json)
      expect(info.hash, name).toBe(json.hash)
      expect(chainHashOf(info)).toBe(json.hash)
    }
    const { label: _label, ...pinned } = DRAND_QUICKNET
    expect(parseDrandInfo(vectors.chains.quicknet)).toEqual(pinned)
    expect(drandInfoJson(DRAND_QUICKNET)).toEqual(vectors.chains.quicknet)
  })

  it('computes the chain hash by its definition (independent re-implementation with node:crypto)', () => {
    const q = DRAND_QUICKNET
    const head = Buffer.alloc(12)
    head.writeUInt32BE(q.period, 0)
    head.writeBigInt64BE(BigInt(q.genesis), 4)
    const h = createHash('sha256').update(head).update(Buffer.from(q.publicKey, 'hex')).update(Buffer.from(q.groupHash!, 'hex')).update('quicknet').digest('hex')
    expect(h).toBe(q.hash)
  })

  it('refuses altered info: every pinned field is covered, the scheme separately', () => {
    const q = vectors.chains.quicknet!
    for (const change of [{ period: 30 }, { genesis_time: 1692803368 }, { public_key: flip(q.public_key as string, 100) }, { groupHash: flip(q.groupHash as string, 3) }, { metadata: { beaconID: 'default' } }]) {
      expect(() => parseDrandInfo({ ...q, ...change }), JSON.stringify(change)).toThrow(OrbitdrawError)
    }
    expect(() => parseDrandInfo({ ...q, schemeID: 'pedersen-bls-chained' })).toThrow(/not supported/)
    expect(() => parseDrandInfo({ ...q, groupHash: undefined })).toThrow(/groupHash/)
    expect(() => checkChainInfo({ ...DRAND_QUICKNET, hash: 'ab'.repeat(32) })).toThrow(/not the hash of the chain's info/)
    expect(() => parseDrandInfo({ ...q, period: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_DRAND_INFO', path: '$.period' }))
  })
})

describe('drand round times', () => {
  it('round R is due at genesis + (R - 1) x period', () => {
    expect(roundTime(DRAND_QUICKNET, 1)).toBe(1692803367)
    expect(roundTime(DRAND_QUICKNET, 657413)).toBe(1692803367 + 657412 * 3)
    expect(roundAt(DRAND_QUICKNET, 1692803366)).toBe(0)
    expect(roundAt(DRAND_QUICKNET, 1692803367)).toBe(1)
    expect(roundAt(DRAND_QUICKNET, 1692803369)).toBe(1)
    expect(roundAt(DRAND_QUICKNET, 1692803370)).toBe(2)
    expect(() => roundTime(DRAND_QUICKNET, 0)).toThrow(/integer from 1/)
    expect(() => roundTime(DRAND_QUICKNET, 1.5)).toThrow(/integer from 1/)
  })

  it('plans the first round due at least the margin after the expected block time', () => {
    for (let expected = 1692803367; expected < 1692803367 + 40; expected++) {
      for (const margin of [0, 1, 5, 30]) {
        const r = planRound(DRAND_QUICKNET, expected, margin)
        expect(roundTime(DRAND_QUICKNET, r)).toBeGreaterThanOrEqual(expected + margin)
        if (r > 1) expect(roundTime(DRAND_QUICKNET, r - 1)).toBeLessThan(expected + margin)
      }
    }
  })
})

describe('drand round signatures (published rounds)', () => {
  for (const v of vectors.rounds) {
    it(`${v.chain} round ${v.round} verifies, and its randomness is SHA-256 of the signature`, () => {
      const chain = parseDrandInfo(vectors.chains[v.chain])
      expect(verifyRoundSignature(chain, v)).toBe(true)
      const randomness = Buffer.from(roundRandomness(v.signature)).toString('hex')
      expect(randomness).toBe(v.randomness)
      expect(createHash('sha256').update(Buffer.from(v.signature, 'hex')).digest('hex')).toBe(v.randomness)
    })
    it(`${v.chain} round ${v.round}: a tampered signature, another round or another key fail`, () => {
      const chain = parseDrandInfo(vectors.chains[v.chain])
      expect(verifyRoundSignature(chain, { round: v.round + 1, signature: v.signature })).toBe(false)
      expect(verifyRoundSignature(chain, { round: v.round, signature: flip(v.signature, 95) })).toBe(false)
      expect(verifyRoundSignature(chain, { round: v.round, signature: flip(v.signature, 40) })).toBe(false)
      expect(verifyRoundSignature(chain, { round: v.round, signature: v.signature.toUpperCase() })).toBe(false)
      expect(verifyRoundSignature(chain, { round: v.round, signature: v.signature.slice(0, 94) })).toBe(false)
      expect(verifyRoundSignature(chain, { round: v.round, signature: 'c0' + '00'.repeat(47) })).toBe(false) // the point at infinity
      const other = Object.values(vectors.chains).find((c) => c !== vectors.chains[v.chain])!
      expect(verifyRoundSignature(parseDrandInfo(other), v)).toBe(false)
    })
  }

  it('signs rounds that verify under its own key (the emulator chain) and not under quicknet', () => {
    const sk = new Uint8Array(32).fill(7)
    const chain = { publicKey: publicKeyOf(sk) }
    const signature = signRound(sk, 42)
    expect(verifyRoundSignature(chain, { round: 42, signature })).toBe(true)
    expect(verifyRoundSignature(chain, { round: 43, signature })).toBe(false)
    expect(verifyRoundSignature(DRAND_QUICKNET, { round: 42, signature })).toBe(false)
  })
})
