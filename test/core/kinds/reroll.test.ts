/**
 * Published re-rolls (issue 27 item 3): `reroll` and `weighted-reroll` through the public API. Exact
 * probabilities by enumerating the sampler's every path (rational arithmetic), chi-square (alpha =
 * 0.001, fixed seeds) with a negative control that may pick past winners, commit -> drawFromBlock ->
 * verify with the followed proof carried, chained re-rolls, private lists, tampered links failing
 * their named checks, properties.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, makeReceipts, checkReceipt, verify, type Proof } from '../../../src/core/index.js'
import { computeOutcome, pickIndices, rerollDraw, streamFromSeed, uniformIndex, type RerollOutcome, type RerollOutcomeJson, type RerollSpec, type WeightedRerollSpec } from '../../../src/core/kinds/index.js'
import { withOriginal } from '../../../src/core/follow-up.js'
import { rerollReplacements, rerollSeats } from '../../../src/core/kinds/reroll.js'
import { OrganizerSecret } from '../../../src/core/secret.js'
import type { RandomStream } from '../../../src/core/random/stream.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { chiSquareTest } from '../../helpers/stats.js'
import { seedOf } from '../random/util.js'

const CHAIN = buildChain(16, 'reroll')
const after = { sequence: 5, block: CHAIN[5]!.cid }
const base = { beacon: BEACON_NAME, after, label: 'giveaway' }
const failed = (r: { checks: readonly { name: string; ok: boolean }[] }): string[] => r.checks.filter((c) => !c.ok).map((c) => c.name)
const detail = (r: { checks: readonly { name: string; detail: string }[] }, name: string): string => r.checks.find((c) => c.name === name)?.detail ?? ''
const indices = (rows: readonly { index: number }[]): number[] => rows.map((x) => x.index)
const FAKE_CID = 'bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'

/** A stream whose bytes are `script` (each byte one accepted `uniform(m)` value for m ≤ 256), then throws. */
function scripted(script: readonly number[]): RandomStream {
  let pos = 0
  return {
    nextBytes(n: number): Uint8Array {
      if (pos + n > script.length) throw new Error('need more')
      const out = Uint8Array.from(script.slice(pos, pos + n))
      pos += n
      return out
    },
    get consumed() {
      return pos
    },
  }
}

/** Rationals as [numerator, denominator] bigints, reduced. */
type Q = readonly [bigint, bigint]
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b))
const q = (n: bigint, d: bigint): Q => {
  const g = gcd(n, d)
  return [n / g, d / g]
}
const add = (a: Q, b: Q): Q => q(a[0] * b[1] + b[0] * a[1], a[1] * b[1])
const mul = (a: Q, b: Q): Q => q(a[0] * b[0], a[1] * b[1])

/**
 * The exact distribution of the fresh replacements (as "i,j,…" in seat order), by running the real
 * sampler on every path of its uniform draws. Draw t is `uniform(m_t)`, exactly uniform on [0, m_t)
 * (docs/spec.md, rejection sampling); with m_t ≤ 256 a one-byte script value u < m_t is accepted as it is,
 * so each script of values is one path, of probability Π 1/m_t. m_t is what the spec says draw t ranges
 * over: the never-won entries left (pick) or their weight left (weighted), read from the path so far.
 */
function exactFresh(spec: RerollSpec | WeightedRerollSpec, n: number, weights?: readonly number[]): Map<string, Q> {
  const out = new Map<string, Q>()
  const excluded = new Set([...spec.winners, ...spec.past])
  const never = Array.from({ length: n }, (_, i) => i).filter((i) => !excluded.has(i))
  const d = spec.follows.dropped.length
  const run = (script: readonly number[]): number[] => rerollReplacements(scripted([...script, ...new Array<number>(d).fill(0)]), spec, n, weights)
  const walk = (script: number[], t: number, p: Q): void => {
    if (t === d) {
      const key = run(script).join(',')
      out.set(key, add(out.get(key) ?? [0n, 1n], p))
      return
    }
    const chosen = run(script).slice(0, t)
    const m = weights === undefined ? never.length - t : never.filter((i) => !chosen.includes(i)).reduce((a, i) => a + weights[i]!, 0)
    expect(m).toBeLessThanOrEqual(256)
    if (m === 1) return walk(script, t + 1, p) // uniform(1) reads nothing
    for (let u = 0; u < m; u++) walk([...script, u], t + 1, mul(p, q(1n, BigInt(m))))
  }
  walk([], 0, [1n, 1n])
  return out
}

/** The ordered d-subsets of `pool` with their probability under sequential weighted draws (uniform: all weights 1). */
function definition(pool: readonly number[], d: number, w: (i: number) => number): Map<string, Q> {
  const out = new Map<string, Q>()
  const go = (left: readonly number[], chosen: number[], p: Q): void => {
    if (chosen.length === d) return void out.set(chosen.join(','), p)
    const W = left.reduce((a, i) => a + w(i), 0)
    for (const i of left) go(left.filter((x) => x !== i), [...chosen, i], mul(p, q(BigInt(w(i)), BigInt(W))))
  }
  go(pool, [], [1n, 1n])
  return out
}

function pickProof(participants: readonly string[], count: number, target = 8): { proof: Proof; cid: string } {
  const { commitment, cid } = commit({ ...base, target, draw: { kind: 'pick', count }, participants })
  return { proof: drawFromBlock(commitment, participants, CHAIN[target]!), cid }
}

const NAMES = Array.from({ length: 12 }, (_, i) => `entrant-${String(i).padStart(2, '0')}`)

describe('fresh re-roll: exact probabilities by enumeration', () => {
  const n = 7
  const participants = NAMES.slice(0, n)
  const { proof, cid } = pickProof(participants, 3)
  const winners = indices((proof.outcome as { readonly winners: readonly { readonly index: number }[] }).winners)
  const never = participants.map((_, i) => i).filter((i) => !winners.includes(i))

  it('one declined seat: each never-won entry exactly 1/4, every past winner (declined included) 0', () => {
    const spec = rerollDraw(proof, [winners[1]!], cid, 'fresh')
    const exact = exactFresh(spec, n)
    expect([...exact.keys()].sort()).toEqual(never.map(String).sort())
    for (const p of exact.values()) expect(p).toEqual([1n, 4n])
    expect(exact).toEqual(definition(never, 1, () => 1))
  })

  it('two declined seats: each ordered pair of never-won entries exactly 1/12, as the definition', () => {
    const spec = rerollDraw(proof, [winners[0]!, winners[2]!], cid, 'fresh')
    const exact = exactFresh(spec, n)
    expect(exact.size).toBe(12)
    expect(exact).toEqual(definition(never, 2, () => 1))
    for (const key of exact.keys()) for (const i of key.split(',').map(Number)) expect(winners).not.toContain(i)
  })

  it('weighted: each ordered pair has probability w_a/W · w_b/(W − w_a) over the never-won entries only', () => {
    const weights = [3, 1, 4, 1, 5, 9, 2]
    const spec: WeightedRerollSpec = { ...rerollDraw(proof, [winners[0]!, winners[1]!], cid, 'fresh'), kind: 'weighted-reroll' }
    const exact = exactFresh(spec, n, weights)
    expect(exact).toEqual(definition(never, 2, (i) => weights[i]!))
    let total: Q = [0n, 1n]
    for (const p of exact.values()) total = add(total, p)
    expect(total).toEqual([1n, 1n])
  })

  it('chi-square over 6,000 fixed seeds accepts the fresh re-roll; a negative control that may land on past winners is rejected', () => {
    const spec = rerollDraw(proof, [winners[1]!], cid, 'fresh')
    const N = 6000
    const counts = new Array<number>(never.length).fill(0)
    const control = new Array<number>(never.length).fill(0)
    const others = participants.map((_, i) => i).filter((i) => i !== winners[1])
    for (let t = 0; t < N; t++) {
      const o = computeOutcome(seedOf(50_000 + t), spec, n) as RerollOutcome<'reroll'>
      counts[never.indexOf(o.replacements[0]!)]!++
      // Control: a redraw among everyone but the declined winner, so it may land on a past winner, patched
      // by moving on to the next entry that never won (a plausible bug): never a past winner, not uniform.
      let i = others[uniformIndex(streamFromSeed(seedOf(90_000 + t)), others.length)]!
      while (winners.includes(i)) i = (i + 1) % n
      control[never.indexOf(i)]!++
    }
    expect(chiSquareTest(counts).pass).toBe(true)
    expect(chiSquareTest(control).pass).toBe(false)
  })
})

describe('next re-roll: the committed ranking', () => {
  const participants = NAMES
  const { proof, cid } = pickProof(participants, 3)
  const winners = indices((proof.outcome as { readonly winners: readonly { readonly index: number }[] }).winners)

  it('takes the next entries of the original seed\'s ranking (a pick of more winners), whatever the new block', () => {
    const longer = pickProof(participants, 6).proof // same block and participants, another commitment: another seed
    expect(longer.seed).not.toBe(proof.seed)
    const spec = rerollDraw(proof, [winners[2]!, winners[0]!], cid, 'next')
    expect(spec.follows.dropped).toEqual([...[winners[2]!, winners[0]!]].sort((a, b) => a - b))
    // The ranking of the original seed, extended: rerun its pick with count 5 on the same seed.
    const ranked = computeOutcome(Uint8Array.from(Buffer.from(proof.seed, 'hex')), { kind: 'pick', count: 5 }, participants.length) as { indices: number[] }
    expect(ranked.indices.slice(0, 3)).toEqual(winners)
    const a = computeOutcome(seedOf(1), spec, participants.length) as RerollOutcome<'reroll'>
    const b = computeOutcome(seedOf(2), spec, participants.length) as RerollOutcome<'reroll'>
    expect(a).toEqual(b)
    expect(a.replacements).toEqual(ranked.indices.slice(3, 5))
    expect(a.winners).toEqual([ranked.indices[3], winners[1], ranked.indices[4]])
    expect(a.seats).toEqual([1, 3])
  })
})

describe('reroll: commit, draw, verify with the followed proof carried', () => {
  const participants = NAMES
  const { proof: original, cid } = pickProof(participants, 4)
  const winners = indices((original.outcome as { readonly winners: readonly { readonly index: number }[] }).winners)

  function rerollProof(spec: RerollSpec | WeightedRerollSpec, target = 12, followed: Proof = original, list: readonly string[] = participants): { proof: Proof; cid: string } {
    const { commitment, cid: c } = commit({ ...base, target, draw: spec, participants: list })
    return { proof: withOriginal(drawFromBlock(commitment, list, CHAIN[target]!), followed) as Proof, cid: c }
  }

  for (const rule of ['next', 'fresh'] as const) {
    it(`${rule}: verifies, with follow-up-original, follow-up-link, reroll-kept and reroll-never-won passed`, async () => {
      const { proof } = rerollProof(rerollDraw(original, [winners[1]!], cid, rule))
      const r = await verify(proof, ENGINE_ONLY)
      expect(failed(r)).toEqual([])
      const names = r.checks.map((c) => c.name)
      for (const name of ['follow-up-original', 'follow-up-link', 'reroll-kept', 'reroll-never-won', 'outcome']) expect(names).toContain(name)
      const o = proof.outcome as RerollOutcomeJson
      expect(indices(o.winners).filter((_, r) => r !== 1)).toEqual(winners.filter((_, r) => r !== 1))
      expect(o.replacements).toEqual([o.winners[1]])
      expect(winners).not.toContain(o.replacements[0]!.index)
      expect(detail(r, 'follow-up-link')).toContain(`follows commitment ${cid}`)
    })
  }

  it('a re-roll of a re-roll: the replacement declines too, never a past winner (past carries the first declined)', async () => {
    const first = rerollProof(rerollDraw(original, [winners[0]!], cid, 'fresh'))
    const w1 = indices((first.proof.outcome as RerollOutcomeJson).winners)
    const spec = rerollDraw(first.proof, [w1[0]!], first.cid, 'next')
    expect(spec.past).toEqual([winners[0]])
    expect(spec.ranking).toBe(original.seed)
    const second = rerollProof(spec, 14, first.proof)
    const r = await verify(second.proof, ENGINE_ONLY)
    expect(failed(r)).toEqual([])
    const again = (second.proof.outcome as RerollOutcomeJson).replacements[0]!.index
    expect([...winners, ...w1]).not.toContain(again)
  })

  it('tamper: another proof as original fails follow-up-original (wrong original CID)', async () => {
    const { proof } = rerollProof(rerollDraw(original, [winners[1]!], cid, 'fresh'))
    const other = pickProof(participants, 3).proof
    const r = await verify({ ...proof, original: other }, ENGINE_ONLY)
    expect(failed(r)).toEqual(['follow-up-original', 'follow-up-link'])
    expect(detail(r, 'follow-up-original')).toContain('commitment-pinned')
    const named = rerollProof({ ...rerollDraw(original, [winners[1]!], cid, 'fresh'), follows: { ...rerollDraw(original, [winners[1]!], cid, 'fresh').follows, commitment: FAKE_CID } })
    expect(failed(await verify(named.proof, ENGINE_ONLY))).toEqual(['follow-up-original', 'follow-up-link'])
  })

  it('tamper: a declined index that was not a winner fails follow-up-link, naming it', async () => {
    const outsider = participants.findIndex((_, i) => !winners.includes(i))
    const honest = rerollDraw(original, [winners[1]!], cid, 'fresh')
    const forged = { ...honest, winners: honest.winners.map((w, r) => (r === 1 ? outsider : w)), follows: { ...honest.follows, dropped: [outsider] } }
    const r = await verify(rerollProof(forged).proof, ENGINE_ONLY)
    expect(failed(r)).toEqual(['follow-up-link'])
    expect(detail(r, 'follow-up-link')).toBe(`declined participant(s) ${outsider} were not winners of the draw it follows`)
  })

  it('tamper: a target not later than the original fails follow-up-link', async () => {
    const r = await verify(rerollProof(rerollDraw(original, [winners[1]!], cid, 'fresh'), 8).proof, ENGINE_ONLY)
    expect(failed(r)).toEqual(['follow-up-link'])
    expect(detail(r, 'follow-up-link')).toMatch(/is not later than the original's 8/)
  })

  it('tamper: a re-rolled winner who was a past winner fails outcome and reroll-never-won; a forged past list fails follow-up-link', async () => {
    const { proof } = rerollProof(rerollDraw(original, [winners[1]!], cid, 'fresh'))
    const j = JSON.parse(JSON.stringify(proof)) as { outcome: { winners: { rank: number; index: number; entry: string }[]; replacements: { rank: number; index: number; entry: string }[] } }
    const past = { rank: 2, index: winners[3]!, entry: participants[winners[3]!]! }
    j.outcome.winners[1] = past
    j.outcome.replacements[0] = past
    const r = await verify(j, ENGINE_ONLY)
    expect(failed(r)).toEqual(['outcome', 'reroll-never-won'])
    expect(detail(r, 'reroll-never-won')).toBe(`new winner ${winners[3]} (rank 2) already won (or declined) before`)
    // A commitment that forgets a winner (so a fresh draw could pick them): the link refuses it.
    const honest = rerollDraw(original, [winners[1]!], cid, 'fresh')
    const forgetful = rerollProof({ ...honest, winners: honest.winners.slice(0, 3) })
    expect(failed(await verify(forgetful.proof, ENGINE_ONLY))).toEqual(['follow-up-link'])
    const ranked = rerollProof({ ...honest, ranking: '00'.repeat(32) })
    const rr = await verify(ranked.proof, ENGINE_ONLY)
    expect(failed(rr)).toEqual(['follow-up-link'])
    expect(detail(rr, 'follow-up-link')).toMatch(/^the committed ranking seed is not the first draw's/)
  })

  it('tamper: a kept winner moved fails reroll-kept; another participants list fails follow-up-link', async () => {
    const { proof } = rerollProof(rerollDraw(original, [winners[1]!], cid, 'fresh'))
    const j = JSON.parse(JSON.stringify(proof)) as { outcome: { winners: { rank: number; index: number; entry: string }[] } }
    const [a, b] = [j.outcome.winners[0]!, j.outcome.winners[2]!]
    j.outcome.winners[0] = { ...b, rank: 1 }
    j.outcome.winners[2] = { ...a, rank: 3 }
    expect(failed(await verify(j, ENGINE_ONLY))).toEqual(['outcome', 'reroll-kept'])
    const otherList = [...participants.slice(0, -1), 'someone-else']
    const r = await verify(rerollProof(rerollDraw(original, [winners[1]!], cid, 'fresh'), 12, original, otherList).proof, ENGINE_ONLY)
    expect(failed(r)).toEqual(['follow-up-link'])
    expect(detail(r, 'follow-up-link')).toMatch(/^the re-roll is not over the same committed participants/)
  })

  it('refuses bad specs: a declined index that is no winner, a re-roll of a shuffle, too few entries that never won', () => {
    const outsider = participants.findIndex((_, i) => !winners.includes(i))
    expect(() => rerollDraw(original, [outsider], cid, 'fresh')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    const shuffled = commit({ ...base, target: 8, draw: { kind: 'shuffle' }, participants })
    expect(() => rerollDraw(drawFromBlock(shuffled.commitment, participants, CHAIN[8]!), [0], shuffled.cid, 'next')).toThrow(/cannot be re-rolled/)
    const all = pickProof(NAMES.slice(0, 4), 4)
    const spec = rerollDraw(all.proof, [indices((all.proof.outcome as RerollOutcomeJson).winners)[0]!], all.cid, 'fresh')
    expect(() => commit({ ...base, target: 12, draw: spec, participants: NAMES.slice(0, 4) })).toThrow(expect.objectContaining({ code: 'INVALID_DRAW', path: '$.draw.follows.dropped' }))
    const honest = rerollDraw(original, [winners[1]!], cid, 'fresh')
    expect(() => commit({ ...base, target: 12, draw: { ...honest, follows: { ...honest.follows, dropped: [outsider] } }, participants })).toThrow(expect.objectContaining({ code: 'INVALID_DRAW', path: '$.draw.follows.dropped[0]' }))
    expect(() => commit({ ...base, target: 12, draw: { ...honest, past: [winners[0]!] }, participants })).toThrow(expect.objectContaining({ code: 'INVALID_DRAW', path: '$.draw.past[0]' }))
  })

  it('weighted-reroll: follows a weighted draw; fresh by weight among those who never won; verifies', async () => {
    const weighted = participants.map((entry, i) => ({ entry, weight: 1 + (i % 4) }))
    const { commitment, cid: wcid } = commit({ ...base, target: 8, draw: { kind: 'weighted', count: 3 }, participants: weighted })
    const w0 = drawFromBlock(commitment, weighted, CHAIN[8]!)
    const ws = indices((w0.outcome as RerollOutcomeJson).winners)
    for (const rule of ['next', 'fresh'] as const) {
      const spec = rerollDraw(w0, [ws[2]!], wcid, rule)
      expect(spec.kind).toBe('weighted-reroll')
      const c = commit({ ...base, target: 12, draw: spec, participants: weighted })
      const proof = withOriginal(drawFromBlock(c.commitment, weighted, CHAIN[12]!), w0)
      expect(failed(await verify(proof, ENGINE_ONLY))).toEqual([])
      expect(ws).not.toContain((proof.outcome as RerollOutcomeJson).replacements[0]!.index)
    }
    // A pick re-roll cannot follow a weighted draw.
    const cross = { ...rerollDraw(w0, [ws[2]!], wcid, 'fresh'), kind: 'reroll' as const }
    const r = await verify(rerollProof(cross).proof, ENGINE_ONLY)
    expect(failed(r)).toContain('follow-up-link')
  })
})

describe('reroll of a private list: salted leaves, winners-only proof, receipts', () => {
  const secret = OrganizerSecret.from(new Uint8Array(32).fill(7))
  const participants = NAMES
  const o = commit({ ...base, target: 8, draw: { kind: 'pick', count: 3 }, participants, private: { secret } })
  const original = drawFromBlock(o.commitment, participants, CHAIN[8]!, { secret })
  const winners = indices((original.outcome as RerollOutcomeJson).winners)

  it('the re-roll (same secret) reveals only the winners, verifies, and a never-won entrant\'s receipt still checks', async () => {
    const spec = rerollDraw(original, [winners[0]!], o.cid, 'fresh')
    const c = commit({ ...base, target: 12, draw: spec, participants, private: { secret } })
    expect(c.commitment.participants).toEqual(o.commitment.participants)
    const proof = withOriginal(drawFromBlock(c.commitment, participants, CHAIN[12]!, { secret }), original) as Proof & { participants: { revealed?: unknown[] } }
    const r = await verify(proof, ENGINE_ONLY)
    expect(failed(r)).toEqual([])
    const text = JSON.stringify({ ...proof, original: undefined })
    const shown = new Set([...winners.slice(1), (proof.outcome as RerollOutcomeJson).replacements[0]!.index])
    for (let i = 0; i < participants.length; i++) expect(text.includes(participants[i]!)).toBe(shown.has(i))
    // A never-won entrant's receipt of the re-roll checks, pinned to its CID, and is the original's (same salted leaf and path).
    const loser = participants.findIndex((_, i) => !shown.has(i) && !winners.includes(i))
    const receipt = makeReceipts(c, participants, secret).receiptFor(loser)
    expect(checkReceipt(receipt, { commitment: c.cid }).ok).toBe(true)
    const before = makeReceipts(o, participants, secret).receiptFor(loser)
    expect([receipt.salt, receipt.path]).toEqual([before.salt, before.path])
    // With a fresh secret the root differs: the link refuses the re-roll.
    const other = commit({ ...base, target: 12, draw: spec, participants, private: { secret: OrganizerSecret.from(new Uint8Array(32).fill(9)) } })
    const bad = withOriginal(drawFromBlock(other.commitment, participants, CHAIN[12]!, { secret: OrganizerSecret.from(new Uint8Array(32).fill(9)) }), original)
    expect(failed(await verify(bad, ENGINE_ONLY))).toEqual(['follow-up-link'])
  })
})

describe('properties', () => {
  it('fresh: the sparse mapping of drawn positions to never-won indices equals the dense list of the spec', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 400 }), fc.uniqueArray(fc.integer({ min: 0, max: 399 }), { minLength: 1, maxLength: 120 }), fc.integer({ min: 1, max: 1_000_000 }), (n, raw, seed) => {
        const X = raw.filter((x) => x < n)
        fc.pre(X.length >= 1 && n - X.length >= 1)
        const d = Math.min(3, n - X.length)
        const spec = { kind: 'reroll', rule: 'fresh', follows: { commitment: FAKE_CID, seed: '11'.repeat(32), target: 3, dropped: [X[0]!] }, ranking: '22'.repeat(32), winners: X, past: [] } as unknown as RerollSpec
        const many = { ...spec, follows: { ...spec.follows, dropped: X.slice(0, d).sort((a, b) => a - b) } }
        const A = Array.from({ length: n }, (_, i) => i).filter((i) => !X.includes(i))
        const dense = pickIndices(streamFromSeed(seedOf(seed)), A.length, many.follows.dropped.length).map((j) => A[j]!)
        expect(rerollReplacements(streamFromSeed(seedOf(seed)), many, n)).toEqual(dense)
      }),
      { numRuns: 300, seed: 2027 },
    )
  })

  it('any declined subset, either rule: the other winners keep their ranks, no new winner ever won, counts as committed', () => {
    const n = 12
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: 6 }), fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: 4 }), fc.constantFrom('next' as const, 'fresh' as const), fc.integer({ min: 1, max: 1_000_000 }), fc.boolean(), (winners, pastRaw, rule, seed, weighted) => {
        const past = pastRaw.filter((p) => !winners.includes(p)).sort((a, b) => a - b)
        const dropped = winners.filter((_, i) => i % 2 === seed % 2)
        fc.pre(dropped.length > 0 && n - winners.length - past.length >= dropped.length)
        const spec = { kind: weighted ? 'weighted-reroll' : 'reroll', rule, follows: { commitment: FAKE_CID, seed: '11'.repeat(32), target: 3, dropped: [...dropped].sort((a, b) => a - b) }, ranking: '22'.repeat(32), winners, past } as RerollSpec
        const weights = weighted ? Array.from({ length: n }, (_, i) => 1 + ((i * 7) % 5)) : undefined
        const o = computeOutcome(seedOf(seed), spec, n, weights) as RerollOutcome<'reroll'>
        expect(o.winners).toHaveLength(winners.length)
        expect(o.replacements).toHaveLength(dropped.length)
        expect(new Set(o.winners).size).toBe(winners.length)
        winners.forEach((w, r) => {
          if (!dropped.includes(w)) expect(o.winners[r]).toBe(w)
        })
        for (const x of o.replacements) expect([...winners, ...past]).not.toContain(x)
        expect(rerollSeats(spec, o.replacements).winners).toEqual(o.winners)
      }),
      { numRuns: 200, seed: 27 },
    )
  })
})
