/**
 * No proof over `LIMITS.maxProofBytes` is ever made (`src/core/proof-size.ts`): every verifier refuses
 * one. The floor of a full disclosure is exact for ASCII entries without escapes and never above the
 * real size (fast-check over entries with quotes, backslashes and non-ASCII text); a public list whose
 * proof cannot fit is refused at commit, a full disclosure before the block, and `serializeProof` checks
 * the exact size. The limit is lowered for the tests (it is read at call time), so no test builds 256 MiB.
 */
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { utf8Length } from '../../src/core/bytes.js'
import { commitWithDigest } from '../../src/core/commitment.js'
import { prepareDrawFromDigest } from '../../src/core/draw.js'
import { commit } from '../../src/core/commitment.js'
import { DEFAULT_DRAW_KINDS } from '../../src/core/kinds/registry.js'
import { drawFromBlock, prepareDraw } from '../../src/core/draw.js'
import { LimitExceededError } from '../../src/core/errors.js'
import { LIMITS } from '../../src/core/limits.js'
import { OrganizerSecret } from '../../src/core/secret.js'
import { serializeProof, type Proof } from '../../src/core/proof.js'
import { fullDisclosureFloor } from '../../src/core/proof-size.js'
import { rankedRowsBytesFloor } from '../../src/core/kinds/ranked.js'
import { entryErrorAt } from '../../src/core/participants.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { thrownBy } from '../helpers/thrown.js'

const chain = buildChain(12, 'proof-size')
const SECRET = OrganizerSecret.fromBytes(new Uint8Array(32).fill(9))
const BASE = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, draw: { kind: 'pick' as const, count: 1 }, label: 'size' }
const REAL_LIMIT = LIMITS.maxProofBytes
const setLimit = (bytes: number): void => {
  ;(LIMITS as { maxProofBytes: number }).maxProofBytes = bytes
}
afterEach(() => {
  setLimit(REAL_LIMIT)
  vi.restoreAllMocks()
})

/** The bytes of the `participants` value in a serialized proof. */
function participantsBytes(text: string): number {
  const key = '\n  "participants": '
  const at = text.indexOf(key) + key.length
  return utf8Length(text.slice(at, text.indexOf(',\n  "chain": ', at)))
}

/**
 * The bytes the entries (and salts) add to the participants value: the value's bytes less those of the
 * same value with empty arrays. Filling `[]` adds the items and one line break with the closing
 * bracket's indent (5 bytes) per array.
 */
function listBytes(proof: Proof): number {
  const p = proof.participants as { disclosure: 'full'; entries: readonly string[]; salts?: readonly string[] }
  const empty = { ...proof, participants: { ...p, entries: [], ...(p.salts === undefined ? {} : { salts: [] }) } } as Proof
  return participantsBytes(serializeProof(proof)) - participantsBytes(serializeProof(empty)) - (p.salts === undefined ? 5 : 10)
}

describe('fullDisclosureFloor', () => {
  it('is the exact size of the entries (and salts) as serializeProof writes them, for ASCII entries JSON does not escape', () => {
    for (const salted of [false, true]) {
      const entries = ['alice', 'bob', 'carol@example.org', 'x'.repeat(300)]
      const c = commit({ ...BASE, participants: entries, ...(salted ? { private: { secret: SECRET } } : {}) })
      const proof = drawFromBlock(c.commitment, entries, chain[10]!, salted ? { secret: SECRET, disclosure: 'full' } : {})
      const chars = entries.reduce((n, e) => n + e.length, 0)
      expect(listBytes(proof)).toBe(fullDisclosureFloor(entries.length, chars, salted))
    }
  })

  it('is never above the real size, for any entries (quotes, backslashes, non-ASCII), public or salted', () => {
    const piece = fc.constantFrom('a', 'Z', '7', ' ', '"', '\\', 'é', 'ß', '€', '😀', '-')
    const entry = fc.array(piece, { minLength: 1, maxLength: 30 }).map((p) => p.join('')).filter((e) => entryErrorAt(e, 0) === null)
    fc.assert(
      fc.property(fc.uniqueArray(entry, { minLength: 1, maxLength: 12 }), fc.boolean(), (entries, salted) => {
        const c = commit({ ...BASE, participants: entries, ...(salted ? { private: { secret: SECRET } } : {}) })
        const proof = drawFromBlock(c.commitment, entries, chain[10]!, salted ? { secret: SECRET, disclosure: 'full' } : {})
        const floor = fullDisclosureFloor(entries.length, entries.reduce((n, e) => n + e.length, 0), salted)
        expect(floor).toBeLessThanOrEqual(participantsBytes(serializeProof(proof)))
      }),
      { numRuns: 150, seed: 1515 },
    )
  })
})

const thrown = (f: () => unknown): LimitExceededError => thrownBy(f, LimitExceededError)

describe('a proof no verifier could read is refused as soon as it can be known', () => {
  const entries = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi']
  // 8 entries, 36 characters: a public full disclosure takes at least 36 + 10 * 8 - 1 = 115 bytes, and
  // the pick's one winner row at least 75 more.
  const floor = fullDisclosureFloor(entries.length, 36, false) + rankedRowsBytesFloor(1)

  it('commit refuses a public list whose full disclosure would be over the limit (its only proof), not a private one', () => {
    expect(floor).toBe(190)
    setLimit(floor - 1)
    const err = thrown(() => commit({ ...BASE, participants: entries }))
    expect(err.code).toBe('LIMIT_EXCEEDED')
    expect(err.path).toBe('$.participants')
    expect(err.detail).toBe(`a full-disclosure proof of these 8 entries would take at least 190 bytes, over the limit maxProofBytes = 189 that every verifier enforces: no verifier could read it`)
    expect(err.hint).toMatch(/commit it as a private \(salted\) list .* draw with disclosure "winners"/)
    // Weighted entries count their texts.
    expect(thrown(() => commit({ ...BASE, draw: { kind: 'weighted', count: 1 }, participants: entries.map((entry) => ({ entry, weight: 2 })) })).code).toBe('LIMIT_EXCEEDED')
    // A private list can have a winners-only proof: not refused.
    expect(commit({ ...BASE, participants: entries, private: { secret: SECRET } }).commitment.participants?.salted).toBe(true)
    setLimit(floor)
    expect(commit({ ...BASE, participants: entries }).commitment.participants?.count).toBe(8)
  })

  it('commitWithDigest refuses on the caller\'s floor of the entries\' bytes for a public list only', () => {
    const digest = { count: 8, root: new Uint8Array(32), salted: false }
    setLimit(floor - 1)
    expect(thrown(() => commitWithDigest(BASE, { ...digest, entryBytes: 36 })).code).toBe('LIMIT_EXCEEDED')
    expect(commitWithDigest(BASE, digest).commitment.participants?.count).toBe(8) // no floor given: nothing to check
    expect(commitWithDigest(BASE, { ...digest, salted: true, entryBytes: 36 }).commitment.participants?.salted).toBe(true)
  })

  it('a full-disclosure draw is refused before its block; a winners-only one is not', () => {
    const publicCommit = commit({ ...BASE, participants: entries }).commitment
    const privateCommit = commit({ ...BASE, participants: entries, private: { secret: SECRET } }).commitment
    // Salts count too: 74 bytes each.
    const saltedFloor = fullDisclosureFloor(8, 36, true) + rankedRowsBytesFloor(1)
    expect(saltedFloor).toBe(115 + 74 * 8 - 1 + 75)
    setLimit(saltedFloor - 1)
    const full = thrown(() => prepareDraw(privateCommit, entries, { secret: SECRET, disclosure: 'full' }))
    expect(full.detail).toMatch(/would take at least 781 bytes, over the limit maxProofBytes = 780/)
    expect(full.hint).toMatch(/^draw a winners-only proof instead/)
    expect(prepareDraw(privateCommit, entries, { secret: SECRET, disclosure: 'winners' }).disclosure).toBe('winners')
    expect(prepareDraw(publicCommit, entries).disclosure).toBe('full') // 190 bytes fit
    setLimit(floor - 1)
    expect(thrown(() => prepareDraw(publicCommit, entries)).hint).toMatch(/^a list this large needs a winners-only proof/)
    // The same from a digest, with the caller's floor.
    const digest = { count: 8, root: new Uint8Array(32), entryBytes: 36 }
    expect(thrown(() => prepareDrawFromDigest(publicCommit, digest)).code).toBe('LIMIT_EXCEEDED')
  })

  it('serializeProof refuses a proof whose exact size is over the limit, even when the floor fits (escapes, the chain)', () => {
    const quoted = ['"a"', '"b"', 'c\\d', 'é"é']
    const c = commit({ ...BASE, participants: quoted })
    const proof = drawFromBlock(c.commitment, quoted, chain[10]!)
    const size = utf8Length(serializeProof(proof))
    setLimit(size)
    expect(() => serializeProof(proof)).not.toThrow()
    setLimit(size - 1)
    const err = thrown(() => serializeProof(proof))
    expect(err.detail).toBe(`the proof would be ${size} bytes, over the limit maxProofBytes = ${size - 1} that every verifier enforces: no verifier could read it`)
    expect(err.hint).toMatch(/^draw a winners-only proof instead/)
  })

  it('serializeProof turns a proof longer than a JavaScript string can be into the same refusal', () => {
    const c = commit({ ...BASE, participants: entries })
    const proof = drawFromBlock(c.commitment, entries, chain[10]!)
    vi.spyOn(JSON, 'stringify').mockImplementation(() => {
      throw new RangeError('Invalid string length')
    })
    expect(thrown(() => serializeProof(proof)).detail).toMatch(/^the proof would be longer than a JavaScript string can hold, over the limit maxProofBytes/)
    vi.spyOn(JSON, 'stringify').mockImplementation(() => {
      throw new RangeError('Maximum call stack size exceeded')
    })
    expect(() => serializeProof(proof)).toThrow(RangeError)
  })
})

describe('a kind whose outcome grows with the list (shuffle)', () => {
  /** The bytes of the outcome's rows (`ranking`, or `winners`): the outcome's bytes less those with an empty list, less the 5 of the closing bracket's line. */
  function rankingBytes(proof: Proof, key: 'ranking' | 'winners' = 'ranking'): number {
    const outcomeBytes = (text: string): number => {
      const key = '\n  "outcome": '
      const at = text.indexOf(key) + key.length
      return utf8Length(text.slice(at, text.indexOf(',\n  "', at)))
    }
    const empty = { ...proof, outcome: { ...proof.outcome, [key]: [] } } as Proof
    return outcomeBytes(serializeProof(proof)) - outcomeBytes(serializeProof(empty)) - 5
  }
  const entries = ['ann', 'ben', 'cat', 'dan', 'eve', 'fay', 'gus', 'hal', 'ivy']

  it('its outcome floor is the exact size of the ranking when ranks and indices have one digit, and never above it', () => {
    const shuffle = { ...BASE, draw: { kind: 'shuffle' as const } }
    const c = commit({ ...shuffle, participants: entries })
    const chars = entries.reduce((n, e) => n + e.length, 0)
    const floor = (n: number, b: number): number => DEFAULT_DRAW_KINDS.get('shuffle')!.outcomeBytesFloor!({ kind: 'shuffle' }, n, b)
    expect(rankingBytes(drawFromBlock(c.commitment, entries, chain[10]!))).toBe(floor(9, chars))
    const many = Array.from({ length: 120 }, (_, i) => `e"${i}é`)
    const c2 = commit({ ...shuffle, participants: many })
    expect(rankingBytes(drawFromBlock(c2.commitment, many, chain[10]!))).toBeGreaterThan(floor(120, many.reduce((n, e) => n + e.length, 0)))
  })

  it('pick and weighted state the floor of their winners\' rows: exact, with the winners\' entries, for one-digit ranks and indices', () => {
    const c = commit({ ...BASE, draw: { kind: 'pick', count: 4 }, participants: entries })
    const proof = drawFromBlock(c.commitment, entries, chain[10]!)
    const winners = (proof.outcome as unknown as { winners: { entry: string }[] }).winners
    const floor = DEFAULT_DRAW_KINDS.get('pick')!.outcomeBytesFloor!({ kind: 'pick', count: 4 } as never, 9, 0)
    expect(rankingBytes(proof, 'winners')).toBe(floor + winners.reduce((n, w) => n + w.entry.length, 0))
    const weighted = entries.map((entry, i) => ({ entry, weight: i + 1 }))
    const cw = commit({ ...BASE, draw: { kind: 'weighted', count: 4 }, participants: weighted })
    const pw = drawFromBlock(cw.commitment, weighted, chain[10]!)
    const ww = (pw.outcome as unknown as { winners: { entry: string }[] }).winners
    expect(rankingBytes(pw, 'winners')).toBe(DEFAULT_DRAW_KINDS.get('weighted')!.outcomeBytesFloor!({ kind: 'weighted', count: 4 } as never, 9, 0) + ww.reduce((n, w) => n + w.entry.length, 0))
    // So a private pick of many winners is refused at commit although a winners-only proof exists.
    setLimit(floor - 1)
    expect(thrown(() => commit({ ...BASE, draw: { kind: 'pick', count: 4 }, participants: entries, private: { secret: SECRET } })).detail).toMatch(/^a pick proof of these 9 entries would take at least 303 bytes/)
  })

  it('commit refuses a shuffle whose proof (the list, and the ranking of every entry) could not fit, public or private, with "split" as the way out', () => {
    const chars = entries.reduce((n, e) => n + e.length, 0)
    const publicFloor = fullDisclosureFloor(9, chars, false) + chars + rankedRowsBytesFloor(9)
    setLimit(publicFloor - 1)
    const err = thrown(() => commit({ ...BASE, draw: { kind: 'shuffle' }, participants: entries }))
    expect(err.detail).toBe(`a full-disclosure proof of these 9 entries would take at least ${publicFloor} bytes, over the limit maxProofBytes = ${publicFloor - 1} that every verifier enforces: no verifier could read it`)
    expect(err.hint).toBe('a shuffle proof carries every entry: split the list into smaller draws')
    // A private shuffle has no winners-only proof either: its full disclosure carries the salts too.
    expect(thrown(() => commit({ ...BASE, draw: { kind: 'shuffle' }, participants: entries, private: { secret: SECRET } })).hint).toMatch(/^a shuffle proof carries every entry/)
    // A pick of the same list fits.
    expect(commit({ ...BASE, participants: entries }).commitment.participants?.count).toBe(9)
    setLimit(publicFloor)
    expect(commit({ ...BASE, draw: { kind: 'shuffle' }, participants: entries }).commitment.participants?.count).toBe(9)
  })
})
