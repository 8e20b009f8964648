/**
 * `parseProof` runs the declared proof shape (src/core/schema/proof.ts). These tests check that it
 * behaves exactly as the hand-written parser it replaced (kept as a test-only oracle in
 * test/helpers/proof-hand-parser.ts): on random and mutated proofs, the same parsed value, or the
 * same error (class, code, path, detail and hint), multi-fault order included.
 */
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { drawKinds } from '../../src/core/kinds/kind.js'
import { LIMITS } from '../../src/core/limits.js'
import { OrbitdrawError } from '../../src/core/errors.js'
import { parseProof, serializeProof } from '../../src/core/proof.js'
import { pickKind } from '../../src/core/kinds/pick.js'
import { rangeKind } from '../../src/core/kinds/range.js'
import { type DrawSpec } from '../../src/core/kinds/registry.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { handParseProof } from '../helpers/proof-hand-parser.js'
import { makeProof } from '../browser/fixtures.js'

type Json = unknown
type Outcome = { ok: true; value: unknown } | { ok: false; error: { name: string; code: string; path?: string; detail: string; hint: string } }

function run(parse: (x: unknown) => unknown, input: unknown): Outcome {
  try {
    return { ok: true, value: parse(input) }
  } catch (err) {
    if (!(err instanceof OrbitdrawError)) throw err
    return { ok: false, error: { name: err.constructor.name, code: err.code, ...(err.path === undefined ? {} : { path: err.path }), detail: err.detail, hint: err.hint } }
  }
}

/**
 * The four ways the errors' words may differ (never their class, code or path): an unknown field's
 * hint lists the allowed fields in the order they are declared and checked (the hand parser had its
 * own order), and its detail quotes the field's name as a JSON string (the path names it too); an array with a hole names the first hole's index (the hand parser's detail quoted its
 * own words as "the string ..."); a bad base64 string is described, with its hint, as the other
 * shapes describe it (the hand parser's words depended on the fault and did not say what it got).
 */
function words(o: Outcome): Outcome {
  if (o.ok) return o
  const e = o.error
  if (e.code === 'UNKNOWN_FIELD') return { ok: false, error: { ...e, detail: 'unknown field', hint: e.hint.replace(/: (.*)$/, (_m, list: string) => `: ${list.split(', ').sort().join(', ')}`) } }
  if (e.code === 'INVALID_BASE64') return { ok: false, error: { ...e, detail: 'not canonical base64', hint: 'use canonical base64' } }
  const hole = /missing item at index (\d+)/.exec(e.detail)
  if (hole !== null) return { ok: false, error: { ...e, detail: `a missing item at index ${hole[1]}` } }
  return o
}

/** The same outcome from both parsers, up to {@link words}. */
function same(shape: (x: unknown) => unknown, hand: (x: unknown) => unknown, input: unknown, name?: string): Outcome {
  const a = run(shape, input)
  expect(words(a), name).toEqual(words(run(hand, input)))
  return a
}

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T
const vectors = JSON.parse(readFileSync(new URL('../vectors/draws.json', import.meta.url), 'utf8')) as { cases: { name: string; proof: Json }[] }
const CHAIN = buildChain(12, 'proof-parse')

/** A proof of `draw` over `people`, public or salted (full disclosure with salts, or winners only). */
function proofOf(draw: DrawSpec, people: string[] | { entry: string; weight: number }[], salted: false | 'full' | 'winners' = false): Json {
  const secret = salted === false ? undefined : { secret: new Uint8Array(32).fill(5) }
  const c = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: CHAIN[7]!.cid }, participants: people as string[], draw, label: 'differential', ...(secret === undefined ? {} : { private: secret }) })
  const proof = drawFromBlock(c.commitment, people as string[], CHAIN[10]!, salted === false ? {} : { disclosure: salted, secret: c.secret! })
  return JSON.parse(serializeProof(proof)) as Json
}

let bases: Json[] = []

beforeAll(async () => {
  const weighted = [
    { entry: 'ada', weight: 3 },
    { entry: 'grace', weight: 1 },
    { entry: 'alan', weight: 2 },
  ]
  bases = [
    ...vectors.cases.map((c) => c.proof),
    proofOf({ kind: 'weighted', count: 2 }, weighted),
    proofOf({ kind: 'pick', count: 2 }, ['a', 'b', 'c', 'd', 'e'], 'full'),
    proofOf({ kind: 'pick', count: 2 }, ['a', 'b', 'c', 'd', 'e'], 'winners'),
    clone(await makeProof({ signed: 'Ed25519' })), // signed IPNS record, five blocks, an RFC 3161 token
  ]
})

/** Every path of a JSON value (object keys and array indices), the root included. */
function pathsOf(value: Json, limit = 600): (string | number)[][] {
  const paths: (string | number)[][] = []
  const walk = (v: Json, path: (string | number)[]): void => {
    paths.push(path)
    if (v !== null && typeof v === 'object' && paths.length < limit) for (const [k, x] of Object.entries(v)) walk(x, [...path, Array.isArray(v) ? Number(k) : k])
  }
  walk(value, [])
  return paths
}

/** Values a mutation may write: near-misses of the proof's own values, and any JSON. */
const replacement = fc.oneof(
  fc.constantFrom<Json>('', 'a'.repeat(64), 'A'.repeat(64), 'a'.repeat(63), 'AAAA', 'YWJ=', 'YWJj!', 'b'.repeat(257), 'bafy-x', 0, -1, 1, 1.5, 2 ** 53, null, true, {}, [], ['a'], [{ entry: 'a', weight: 1 }], { entry: 'a', weight: 0 }, { index: 0, entry: 'a', salt: 'a'.repeat(64), path: [] }, { kind: 'pick', winners: [] }, { disclosure: 'full', entries: [] }, { disclosure: 'winners', revealed: [] }, 'full', 'winners', 'pick', 'lottery', Array(17).fill('AAAA'), Array(65).fill('a'.repeat(64))),
  fc.jsonValue({ maxDepth: 3 }),
)

type Edit = { kind: 'set'; pick: number; value: Json } | { kind: 'delete'; pick: number } | { kind: 'add'; pick: number; key: string; value: Json } | { kind: 'swap'; pick: number }
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), pick: fc.nat(), value: replacement }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('add' as const), pick: fc.nat(), key: fc.constantFrom('extra', 'entry', 'weight', 'salts', 'ipnsRecord', 'timestamps', 'participants', 'kind', 'Seed', 'constructor', 'prototype', '__proto__'), value: replacement }),
  fc.record({ kind: fc.constant('swap' as const), pick: fc.nat() }),
)

/** Applies an edit at a pseudo-randomly chosen path: set a value, delete a key or item, add a key, or reverse an array. */
function apply(doc: Json, e: Edit): Json {
  const paths = pathsOf(doc)
  const path = paths[e.pick % paths.length]!
  if (path.length === 0) return e.kind === 'set' ? e.value : doc
  let parent = doc as Record<string | number, Json>
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, Json>
  const key = path.at(-1)!
  const target = parent[key]
  switch (e.kind) {
    case 'set':
      parent[key] = e.value
      break
    case 'delete':
      if (Array.isArray(parent)) parent.splice(key as number, 1)
      else delete parent[key]
      break
    case 'add':
      // an own field, even "__proto__" (as JSON.parse makes it)
      if (target !== null && typeof target === 'object' && !Array.isArray(target)) Object.defineProperty(target, e.key, { value: e.value, enumerable: true, writable: true, configurable: true })
      else if (Array.isArray(target)) target.push(e.value)
      break
    case 'swap':
      if (Array.isArray(target)) target.reverse()
      break
  }
  return doc
}

describe('parseProof (the declared shape) against the former hand-written parser', () => {
  it('every base proof parses to the same value', () => {
    expect(bases.length).toBeGreaterThan(20)
    for (const p of bases) {
      expect(same(parseProof, handParseProof, p).ok).toBe(true)
      // and from its text, as a verifier reads it
      expect(same(parseProof, handParseProof, JSON.stringify(p)).ok).toBe(true)
    }
  })

  it('property: one to four random edits of a proof give the same value or the same error (class, code, path, detail, hint)', () => {
    let failures = 0
    const codes = new Set<string>()
    fc.assert(
      fc.property(fc.nat(), fc.array(edit, { minLength: 1, maxLength: 4 }), (which, edits) => {
        let doc = clone(bases[which % bases.length])
        for (const e of edits) doc = apply(doc, e)
        const shape = same(parseProof, handParseProof, doc)
        if (!shape.ok) {
          failures++
          codes.add(`${shape.error.code} ${shape.error.path?.replace(/\[\d+\]/g, '[]') ?? ''}`)
        }
      }),
      { numRuns: 4000, seed: 20261123 },
    )
    // The edits reach the parser's failures, not only harmless changes.
    expect(failures).toBeGreaterThan(2000)
    expect(codes.size).toBeGreaterThan(60)
  })

  it('property: any JSON value, and any JSON value in place of a top-level field, give the same outcome', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.constantFrom('commitment', 'commitmentCid', 'participants', 'chain', 'seed', 'outcome', 'timestamps'), (value, which, key) => {
        same(parseProof, handParseProof, value)
        const doc = clone(bases[which % bases.length]) as Record<string, Json>
        doc[key] = value
        same(parseProof, handParseProof, doc)
      }),
      { numRuns: 1500, seed: 7 },
    )
  })

  it('faults in the large arrays: the first bad entry, weight, salt, revealed winner or outcome row is reported at its index, salts before entries', () => {
    const full = bases.find((p) => (p as { participants?: { salts?: unknown } }).participants?.salts !== undefined) as { participants: { entries: Json[]; salts: Json[] } }
    const weighted = bases.find((p) => typeof (p as { participants?: { entries?: Json[] } }).participants?.entries?.[0] === 'object') as { participants: { entries: Json[] } }
    const shuffle = bases.find((p) => (p as { outcome: { kind: string } }).outcome.kind === 'shuffle') as { outcome: { ranking: Json[] } }
    const winners = bases.find((p) => (p as { participants?: { disclosure?: string } }).participants?.disclosure === 'winners') as { participants: { revealed: Json[] } }
    const cases: [string, Json, (d: never) => void][] = [
      ['a number among string entries', full, (d: typeof full) => (d.participants.entries[2] = 5)],
      ['a bad entry and a bad salt (the salt is checked first)', full, (d: typeof full) => ((d.participants.entries[3] = null), (d.participants.salts[1] = 'x'))],
      ['entries not an array and a bad salt (the entries are checked first)', full, (d: typeof full) => ((d.participants.entries = {} as never), (d.participants.salts[1] = 'x'))],
      ['a hole in the entries', full, (d: typeof full) => delete d.participants.entries[1]],
      ['undefined among the salts', full, (d: typeof full) => (d.participants.salts[0] = undefined)],
      ['a weighted entry with an extra field', weighted, (d: typeof weighted) => ((d.participants.entries[1] as Record<string, Json>).x = 1)],
      ['a weighted entry without weight', weighted, (d: typeof weighted) => delete (d.participants.entries[2] as Record<string, Json>).weight],
      ['a weighted entry inheriting its weight', weighted, (d: typeof weighted) => (d.participants.entries[0] = Object.assign(Object.create({ weight: 1 }) as object, { entry: 'a' }))],
      ['a weight past 2^53', weighted, (d: typeof weighted) => ((d.participants.entries[0] as Record<string, Json>).weight = 2 ** 53)],
      ['entries over the limit', full, (d: typeof full) => (d.participants.entries.length = LIMITS.maxParticipants + 1)],
      ['a revealed winner with a bad hash in its path', winners, (d: typeof winners) => ((d.participants.revealed[1] as { path: Json[] }).path[1] = 'A'.repeat(64))],
      ['a revealed winner with a hole in its path', winners, (d: typeof winners) => delete (d.participants.revealed[0] as { path: Json[] }).path[0]],
      ['a revealed winner with 65 hashes', winners, (d: typeof winners) => ((d.participants.revealed[0] as { path: Json[] }).path = Array(65).fill('a'.repeat(64)))],
      ['a revealed winner with an extra field', winners, (d: typeof winners) => ((d.participants.revealed[1] as Record<string, Json>).note = 1)],
      ['a revealed winner inheriting its salt', winners, (d: typeof winners) => (d.participants.revealed[0] = Object.assign(Object.create({ salt: 'a'.repeat(64) }) as object, { index: 0, entry: 'a', path: [] }))],
      ['an outcome row with rank 0', shuffle, (d: typeof shuffle) => ((d.outcome.ranking[4] as Record<string, Json>).rank = 0)],
      ['an outcome row with an extra field', shuffle, (d: typeof shuffle) => ((d.outcome.ranking[2] as Record<string, Json>).note = '')],
      ['an outcome row without entry, and a later one not an object', shuffle, (d: typeof shuffle) => (delete (d.outcome.ranking[1] as Record<string, Json>).entry, (d.outcome.ranking[3] = 'x'))],
      ['an outcome row inheriting its index', shuffle, (d: typeof shuffle) => (d.outcome.ranking[0] = Object.assign(Object.create({ index: 0 }) as object, { rank: 1, entry: 'a' }))],
      ['a hole in the outcome rows', shuffle, (d: typeof shuffle) => delete d.outcome.ranking[2]],
      ['outcome rows over the limit', shuffle, (d: typeof shuffle) => (d.outcome.ranking.length = LIMITS.maxParticipants + 1)],
    ]
    for (const [name, base, mutate] of cases) {
      const doc = clone(base)
      ;(mutate as (d: Json) => void)(doc)
      expect(same(parseProof, handParseProof, doc, name).ok, name).toBe(false)
    }
  })

  it('a field named __proto__, constructor or prototype is refused where the hand parser refused it, and the commitment is passed on as it is', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      for (const p of bases) {
        const text = JSON.stringify(p)
        for (const at of ['{', '"outcome":{', '"chain":{', '"commitment":{']) {
          const i = text.indexOf(at)
          if (i < 0) continue
          const edited = `${text.slice(0, i + at.length)}"${key}":1,${text.slice(i + at.length)}`
          const value = JSON.parse(edited) as Json
          const shape = same(parseProof, handParseProof, value, `${key} after ${at}`)
          if (at === '"commitment":{') expect(Object.prototype.hasOwnProperty.call((shape as { value: { commitment: object } }).value.commitment, key)).toBe(true)
          else expect(shape.ok).toBe(false)
          same(parseProof, handParseProof, edited, `${key} after ${at}, from text`)
        }
      }
    }
  })

  it('with a registry of fewer kinds: the same values, and the same error for a kind it lacks', () => {
    const kinds = drawKinds([pickKind, rangeKind])
    const shape = (x: unknown) => parseProof(x, { kinds })
    const hand = (x: unknown) => handParseProof(x, { kinds })
    for (const p of bases) same(shape, hand, p)
    const shuffle = bases.find((x) => (x as { outcome: { kind: string } }).outcome.kind === 'shuffle')
    expect(run(shape, shuffle)).toMatchObject({ ok: false, error: { code: 'INVALID_FIELD', path: '$.outcome.kind', hint: 'use pick or range' } })
  })
})
