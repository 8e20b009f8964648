/**
 * fast-check properties of the core: determinism, seed sensitivity to every input, the refusals of
 * drawFromBlock, pick = prefix of shuffle, outcome shapes, and "every proof verifies" (also after a
 * JSON round trip with reordered keys and new indentation).
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { CID } from 'multiformats/cid'
import { base36 } from 'multiformats/bases/base36'
import { blockCid, type BeaconBlock } from '../../src/core/block.js'
import { commit, commitmentCid, type CommitOptions } from '../../src/core/commitment.js'
import { computeOutcome } from '../../src/core/outcome.js'
import { deriveSeed } from '../../src/core/seed.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { MismatchError } from '../../src/core/errors.js'
import { pickIndices, shuffleIndices } from '../../src/core/random/shuffle.js'
import { streamFromSeed } from '../../src/core/random/stream.js'
import { validateEntry, type WeightedEntry } from '../../src/core/participants.js'
import { verify } from '../../src/core/verify.js'
import { type DrawSpec } from '../../src/core/kinds/registry.js'
import { type Proof } from '../../src/core/proof.js'
import { BEACON_NAME, buildChain, makeBlock, OLD_BEACON_NAME } from '../helpers/chain.js'
import { ENGINE_ONLY } from '../helpers/policy.js'
import { codeOf } from '../helpers/thrown.js'

const CHAIN = buildChain(24, 'properties')
const RUNS = { numRuns: 60 }

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

function isValidEntry(s: string): boolean {
  try {
    validateEntry(s)
    return true
  } catch {
    return false
  }
}

/** Valid, distinct entries (any Unicode, no edge whitespace or controls). */
const entriesArb = (min = 1, max = 12): fc.Arbitrary<string[]> =>
  fc.uniqueArray(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).filter(isValidEntry), { minLength: min, maxLength: max })

/** A target block sequence and the latest seen before it. */
const slotArb = fc.integer({ min: 2, max: CHAIN.length - 1 }).chain((target) => fc.record({ target: fc.constant(target), after: fc.integer({ min: 0, max: target - 1 }) }))

type Case = { options: CommitOptions; participants: string[] | WeightedEntry[] | undefined; block: BeaconBlock }

function drawArbFor(n: number): fc.Arbitrary<DrawSpec> {
  return fc.oneof(
    fc.constant<DrawSpec>({ kind: 'shuffle' }),
    fc.integer({ min: 1, max: n }).map<DrawSpec>((count) => ({ kind: 'pick', count })),
    fc.integer({ min: 1, max: n }).map<DrawSpec>((count) => ({ kind: 'weighted', count })),
    fc
      .tuple(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.oneof(fc.bigInt({ min: 0n, max: 20n }), fc.bigInt({ min: 0n, max: 2n ** 80n })), fc.integer({ min: 1, max: 8 }), fc.boolean())
      .map<DrawSpec>(([min, w, count, distinct]) => ({ kind: 'range', min, max: min + w + BigInt(count), count, distinct })),
  )
}

/** Random valid draw inputs: every kind. */
const caseArb: fc.Arbitrary<Case> = fc
  .tuple(entriesArb(), slotArb, fc.string({ maxLength: 20 }).filter((s) => !/[\ud800-\udfff]/.test(s.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))), fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 12, maxLength: 12 }))
  .chain(([entries, slot, label, weights]) =>
    drawArbFor(entries.length).map((draw) => {
      const participants =
        draw.kind === 'range' ? undefined : draw.kind === 'weighted' ? entries.map((entry, i) => ({ entry, weight: weights[i]! })) : entries
      const options: CommitOptions = { beacon: BEACON_NAME, target: slot.target, after: { sequence: slot.after, block: CHAIN[slot.after]!.cid }, participants, draw, label }
      return { options, participants, block: CHAIN[slot.target]! }
    }),
  )

/** A pick case (public or private draws). */
const pickCaseArb = fc.tuple(entriesArb(1, 20), slotArb).chain(([entries, slot]) =>
  fc.integer({ min: 1, max: entries.length }).map((count): Case => ({
    options: { beacon: BEACON_NAME, target: slot.target, after: { sequence: slot.after, block: CHAIN[slot.after]!.cid }, participants: entries, draw: { kind: 'pick', count }, label: 'pick' },
    participants: entries,
    block: CHAIN[slot.target]!,
  })),
)

/** The organizer secret of the private (salted) draws below. */
const SECRET = Uint8Array.from({ length: 32 }, (_, i) => (i * 29 + 7) & 255)

/** A public draw, or a private one (salted commitment, winners-only proof) of the same options. */
function draw(c: Case, disclosure: 'full' | 'winners' = 'full'): Proof {
  if (disclosure === 'full') return drawFromBlock(commit(c.options).commitment, c.participants, c.block)
  return drawFromBlock(commit({ ...c.options, private: { secret: SECRET } }).commitment, c.participants, c.block, { disclosure, secret: SECRET })
}

function seedOf(options: CommitOptions, block: Pick<BeaconBlock, 'cid' | 'values'>): string {
  return hex(deriveSeed(commit(options).cid, block))
}

/** Deep copy with every object's keys in a permuted order (by a per-object rotation from `salt`). */
function reorder(v: unknown, salt: number): unknown {
  if (Array.isArray(v)) return v.map((x, i) => reorder(x, salt + i))
  if (v === null || typeof v !== 'object') return v
  const keys = Object.keys(v).reverse()
  const r = keys.length === 0 ? 0 : salt % keys.length
  const out: Record<string, unknown> = {}
  for (const k of [...keys.slice(r), ...keys.slice(0, r)]) out[k] = reorder((v as Record<string, unknown>)[k], salt * 31 + k.length)
  return out
}

async function expectVerifies(proof: unknown): Promise<void> {
  const res = await verify(proof, ENGINE_ONLY)
  expect(res.checks.filter((c) => !c.ok)).toEqual([])
  expect(res.ok).toBe(true)
  for (const name of ['version', 'format', 'commitment-cid', 'participants', 'block-content', 'chain-links', 'chain-target', 'after-block', 'randomness', 'seed', 'outcome']) {
    expect(res.checks.some((c) => c.name === name && c.ok), name).toBe(true)
  }
}

describe('determinism', () => {
  it('the same inputs give the same proof, byte for byte', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        expect(JSON.stringify(draw(c))).toBe(JSON.stringify(draw(c)))
      }),
      RUNS,
    )
  })

  it('a block given by its v0 CID draws exactly as by its bafkrei CID (the seed hashes the canonical raw CIDv1)', () => {
    const b = CHAIN[5]!
    const v0 = CID.createV0(CID.parse(b.cid).multihash as Parameters<typeof CID.createV0>[0]).toString()
    const { commitment } = commit({ beacon: BEACON_NAME, target: 5, after: { sequence: 2, block: CHAIN[2]!.cid }, participants: ['a', 'b'], draw: { kind: 'pick', count: 1 } })
    const p0 = drawFromBlock(commitment, ['a', 'b'], { cid: v0, bytes: b.bytes })
    const p1 = drawFromBlock(commitment, ['a', 'b'], b)
    expect(p0).toEqual(p1)
    expect(p0.chain.blocks[0]!.cid).toBe(b.cid)
  })
})

describe('any change to the commitment, the participants or the block changes the seed', () => {
  const variantArb = fc.constantFrom('label', 'target', 'beacon', 'draw', 'count', 'after.sequence', 'after.block')
  it('commitment fields', () => {
    fc.assert(
      fc.property(pickCaseArb, variantArb, (c, what) => {
        const o = c.options
        const n = (c.participants as string[]).length
        const changed: CommitOptions = (() => {
          switch (what) {
            case 'label':
              return { ...o, label: `${o.label ?? ''}!` }
            case 'target':
              return { ...o, target: o.target + 1 }
            case 'beacon':
              return { ...o, beacon: OLD_BEACON_NAME }
            case 'draw':
              return { ...o, draw: { kind: 'shuffle' } }
            case 'count':
              return { ...o, draw: { kind: 'pick', count: (o.draw as { count: number }).count === n ? n - 1 || 1 : (o.draw as { count: number }).count + 1 } }
            case 'after.sequence':
              return { ...o, after: { sequence: o.after.sequence === 0 ? 1 : o.after.sequence - 1, block: o.after.block } }
            default:
              return { ...o, after: { sequence: o.after.sequence, block: CHAIN[o.after.sequence === 0 ? 1 : o.after.sequence - 1]!.cid } }
          }
        })()
        fc.pre(JSON.stringify(commit(changed).json) !== JSON.stringify(commit(o).json))
        expect(seedOf(changed, c.block)).not.toBe(seedOf(o, c.block))
      }),
      RUNS,
    )
  })

  it('participants: one entry changed, or two swapped', () => {
    fc.assert(
      fc.property(
        pickCaseArb.filter((c) => (c.participants as string[]).length >= 2),
        fc.nat(),
        fc.nat(),
        (c, a, b) => {
          const list = c.participants as string[]
          const i = a % list.length
          let j = b % list.length
          if (j === i) j = (i + 1) % list.length
          const changed = list.slice()
          changed[i] = `${list[i]}·`
          fc.pre(!list.includes(changed[i]!))
          const swapped = list.slice()
          ;[swapped[i], swapped[j]] = [swapped[j]!, swapped[i]!]
          const s0 = seedOf(c.options, c.block)
          expect(seedOf({ ...c.options, participants: changed }, c.block)).not.toBe(s0)
          expect(seedOf({ ...c.options, participants: swapped }, c.block)).not.toBe(s0)
        },
      ),
      RUNS,
    )
  })

  it('the block: any ctrng value (one bit), the number of values, or only its CID', () => {
    fc.assert(
      fc.property(pickCaseArb, fc.nat(2), fc.nat(255), fc.nat(7), (c, k, byte, bit) => {
        const b = c.block
        const s0 = seedOf(c.options, b)
        const flipped = b.ctrng.map((v, i) => {
          if (i !== k) return v
          const bytes = Buffer.from(v, 'hex')
          bytes[byte % 32] = bytes[byte % 32]! ^ (1 << bit)
          return bytes.toString('hex')
        })
        const fields = { previous: b.previous, sequence: b.sequence, timestamp: b.timestamp }
        expect(seedOf(c.options, makeBlock({ ...fields, ctrng: flipped }))).not.toBe(s0)
        expect(seedOf(c.options, makeBlock({ ...fields, ctrng: b.ctrng.slice(0, 2) }))).not.toBe(s0)
        expect(seedOf(c.options, makeBlock({ ...fields, ctrng: [...b.ctrng].reverse() }))).not.toBe(s0)
        // same ctrng values, another CID (another timestamp): the seed still changes
        const other = makeBlock({ ...fields, timestamp: b.timestamp + 1, ctrng: b.ctrng })
        expect(other.cid).not.toBe(b.cid)
        expect(seedOf(c.options, other)).not.toBe(s0)
      }),
      RUNS,
    )
  })

  it('two draws committed to the same block get different seeds', () => {
    fc.assert(
      fc.property(pickCaseArb, (c) => {
        expect(draw(c).seed).not.toBe(draw({ ...c, options: { ...c.options, label: `${c.options.label} (2)` } }).seed)
      }),
      { numRuns: 20 },
    )
  })
})

describe('drawFromBlock refuses what does not match the commitment', () => {

  it('mismatched participants → PARTICIPANTS_MISMATCH (one changed, one missing, one added, order swapped)', () => {
    fc.assert(
      fc.property(pickCaseArb.filter((c) => (c.participants as string[]).length >= 2), fc.nat(), (c, a) => {
        const { commitment } = commit(c.options)
        const list = c.participants as string[]
        const i = a % list.length
        const changed = list.slice()
        changed[i] = `${list[i]}x`
        fc.pre(!list.includes(changed[i]!))
        const swapped = list.slice()
        ;[swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!]
        for (const wrong of [changed, swapped, list.slice(1), [...list, `${list.join('')}+`]]) {
          expect(() => drawFromBlock(commitment, wrong, c.block)).toThrow(MismatchError)
          expect(codeOf(() => drawFromBlock(commitment, wrong, c.block))).toBe('PARTICIPANTS_MISMATCH')
          const priv = commit({ ...c.options, private: { secret: SECRET } }).commitment
          expect(codeOf(() => drawFromBlock(priv, wrong, c.block, { disclosure: 'winners', secret: SECRET }))).toBe('PARTICIPANTS_MISMATCH')
        }
      }),
      { numRuns: 40 },
    )
  })

  it('weighted: a changed weight → PARTICIPANTS_MISMATCH', () => {
    const list = [{ entry: 'a', weight: 1 }, { entry: 'b', weight: 2 }]
    const { commitment } = commit({ beacon: BEACON_NAME, target: 5, after: { sequence: 1, block: CHAIN[1]!.cid }, participants: list, draw: { kind: 'weighted', count: 1 } })
    expect(codeOf(() => drawFromBlock(commitment, [{ entry: 'a', weight: 1 }, { entry: 'b', weight: 3 }], CHAIN[5]!))).toBe('PARTICIPANTS_MISMATCH')
  })

  it('a block of another sequence → WRONG_BLOCK', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: CHAIN.length - 1 }), (c, seq) => {
        fc.pre(seq !== c.options.target)
        const { commitment } = commit(c.options)
        expect(() => drawFromBlock(commitment, c.participants, CHAIN[seq]!)).toThrow(MismatchError)
        expect(codeOf(() => drawFromBlock(commitment, c.participants, CHAIN[seq]!))).toBe('WRONG_BLOCK')
      }),
      { numRuns: 40 },
    )
  })

  it('a block of the right sequence from another chain still draws (authenticity is the chain check’s job), with another seed', () => {
    const other = buildChain(CHAIN.length, 'another beacon')
    fc.assert(
      fc.property(pickCaseArb, (c) => {
        expect(draw({ ...c, block: other[c.options.target]! }).seed).not.toBe(draw(c).seed)
      }),
      { numRuns: 10 },
    )
  })

  it('bytes that do not match the block CID → BLOCK_CID_MISMATCH', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { commitment } = commit(c.options)
        const bytes = c.block.bytes.slice()
        bytes[bytes.length - 3] = bytes[bytes.length - 3]! ^ 1
        expect(codeOf(() => drawFromBlock(commitment, c.participants, { cid: c.block.cid, bytes }))).toBe('BLOCK_CID_MISMATCH')
      }),
      { numRuns: 20 },
    )
  })

  it('a target block without ctrng → NO_RANDOMNESS (empty array or no field)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { commitment } = commit(c.options)
        const t = c.block
        const empty = makeBlock({ previous: t.previous, sequence: t.sequence, ctrng: [] })
        expect(codeOf(() => drawFromBlock(commitment, c.participants, empty))).toBe('NO_RANDOMNESS')
        const text = `{"previous":"/ipfs/${t.previous}","data":{"sequence":${t.sequence},"timestamp":1}}`
        const bytes = new TextEncoder().encode(text)
        expect(codeOf(() => drawFromBlock(commitment, c.participants, { cid: blockCid(bytes), bytes }))).toBe('NO_RANDOMNESS')
      }),
      { numRuns: 20 },
    )
  })
})

describe('sampling relations', () => {
  const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 })

  it('pick k = the first k of shuffle for the same seed (outcome level and primitive level)', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 1, max: 300 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }))), (seed, [n, k]) => {
        const shuffled = Array.from(shuffleIndices(streamFromSeed(seed), n))
        expect(pickIndices(streamFromSeed(seed), n, k)).toEqual(shuffled.slice(0, k))
        if (k >= 1) {
          const pick = computeOutcome(seed, { kind: 'pick', count: k }, n)
          const all = computeOutcome(seed, { kind: 'shuffle' }, n)
          expect(pick.kind === 'pick' && pick.indices).toEqual(all.kind === 'shuffle' && all.indices.slice(0, k))
        }
      }),
      { numRuns: 200 },
    )
  })

  it('shuffle is a permutation; pick and weighted are distinct subsets; range values are in bounds', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 1, max: 40 }), (seed, n) => {
        fc.pre(n >= 1)
        const s = computeOutcome(seed, { kind: 'shuffle' }, n)
        expect(s.kind === 'shuffle' && [...s.indices].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i))
        const k = 1 + (seed[0]! % n)
        for (const spec of [{ kind: 'pick', count: k }, { kind: 'weighted', count: k }] as const) {
          const o = computeOutcome(seed, spec, n, Array.from({ length: n }, (_, i) => 1 + ((i * 7919) % 13)))
          const idx = 'indices' in o ? o.indices : []
          expect(idx).toHaveLength(k)
          expect(new Set(idx).size).toBe(k)
          expect(idx.every((i) => Number.isInteger(i) && i >= 0 && i < n)).toBe(true)
        }
        for (const distinct of [false, true]) {
          const min = -(2n ** 60n) + BigInt(seed[1]!)
          const max = min + BigInt(n) - 1n
          const o = computeOutcome(seed, { kind: 'range', min, max, count: n, distinct }, 0)
          const v = o.kind === 'range' ? o.values : []
          expect(v).toHaveLength(n)
          expect(v.every((x) => x >= min && x <= max)).toBe(true)
          if (distinct) expect(new Set(v).size).toBe(n)
        }
      }),
      { numRuns: 100 },
    )
  })
})

describe('every proof from valid inputs verifies', () => {
  it('all kinds, as built', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        await expectVerifies(draw(c))
      }),
      RUNS,
    )
  })

  it('after a JSON round trip with keys reordered and re-indented (value, text, bytes)', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, fc.nat(1000), fc.constantFrom(0, 1, 2, 4, '\t'), async (c, salt, indent) => {
        const proof = draw(c)
        const moved = reorder(JSON.parse(JSON.stringify(proof)), salt)
        const text = JSON.stringify(moved, null, indent)
        await expectVerifies(JSON.parse(text))
        await expectVerifies(text)
        await expectVerifies(new TextEncoder().encode(text))
      }),
      { numRuns: 40 },
    )
  })

  it('public and private (salted, winners-only) pick: both verify, the private one reveals only its winners', async () => {
    await fc.assert(
      fc.asyncProperty(pickCaseArb, async (c) => {
        const pub = draw(c, 'full')
        const priv = draw(c, 'winners')
        // The salted commitment is another commitment (another root, CID, seed and outcome).
        expect(priv.commitmentCid).not.toBe(pub.commitmentCid)
        await expectVerifies(pub)
        await expectVerifies(reorder(JSON.parse(JSON.stringify(priv)), 7))
        const winners = priv.outcome.kind === 'pick' ? priv.outcome.winners : []
        expect(priv.participants?.disclosure).toBe('winners')
        if (priv.participants?.disclosure === 'winners') {
          expect(priv.participants.revealed.map((r) => [r.index, r.entry])).toEqual(winners.map((w) => [w.index, w.entry]))
        }
      }),
      RUNS,
    )
  })

  it('the outcome names the committed entries at their indices', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const proof = draw(c)
        const list = c.participants?.map((e) => (typeof e === 'string' ? e : e.entry)) ?? []
        const ranked = proof.outcome.kind === 'shuffle' ? proof.outcome.ranking : 'winners' in proof.outcome ? proof.outcome.winners : []
        ranked.forEach((r, i) => {
          expect(r.rank).toBe(i + 1)
          expect(r.entry).toBe(list[r.index])
        })
        if (proof.outcome.kind === 'shuffle') expect(ranked).toHaveLength(list.length)
      }),
      RUNS,
    )
  })
})

describe('deriveSeed is independent of the CID form used for the block', () => {
  it('a v0 (Qm…) or base36 form of the block CID gives the same seed as its bafkrei form', () => {
    const block = buildChain(3, 'seed-form')[2]!
    const v1 = CID.parse(block.cid)
    const v0 = CID.createV0(v1.multihash as Parameters<typeof CID.createV0>[0]).toString()
    expect(v0.startsWith('Qm')).toBe(true)
    const c = commitmentCid({ version: 1, beacon: BEACON_NAME, target: 2, after: { sequence: 1, block: block.previous! }, draw: { kind: 'range', min: 1n, max: 6n, count: 1, distinct: false }, label: '' })
    const want = deriveSeed(c, block)
    expect(deriveSeed(c, { ...block, cid: v0 })).toEqual(want)
    expect(deriveSeed(c, { ...block, cid: v1.toString(base36) })).toEqual(want)
  })
})
