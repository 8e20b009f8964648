/**
 * Fuzz suite: fast-check arbitrary bytes, text and JSON into every parser (block, commitment, proof,
 * IPNS record, participants files in the CLI's three formats) and random proofs (valid ones mutated
 * at random paths, and arbitrary JSON) into verify. Every case must either succeed, throw a typed
 * OrbitdrawError, or (verify) return failed checks: never a raw TypeError/RangeError, never an
 * `internal` check, and never a hang (each case is timed against a bound). Fixed seeds, explicit
 * numRuns: the same cases every run.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkEntries, parseParticipants } from '../../src/cli/participants-file.js'
import { blockCid, encodeBlock, parseBlock } from '../../src/core/block.js'
import { parseCommitment } from '../../src/core/commitment.js'
import { decodeJsonInput, findDuplicateKey } from '../../src/core/json.js'
import { LIMITS } from '../../src/core/limits.js'
import { ParseError } from '../../src/core/errors.js'
import { parseIpnsRecord, verifyIpnsRecord } from '../../src/core/ipns/record.js'
import { parseProof } from '../../src/core/proof.js'
import { verify } from '../../src/core/verify.js'
import { networkFixtures, pureFixtures, type Fixture } from './fixtures.js'
import { isTyped, recordFigures } from './helpers.js'

type J = any // eslint-disable-line @typescript-eslint/no-explicit-any

const counts: Record<string, { cases: number; typedErrors: number; accepted: number; slowestMs: number }> = {}

function tally(name: string, outcome: 'typed' | 'ok', ms: number): void {
  const c = (counts[name] ??= { cases: 0, typedErrors: 0, accepted: 0, slowestMs: 0 })
  c.cases++
  if (outcome === 'typed') c.typedErrors++
  else c.accepted++
  c.slowestMs = Math.max(c.slowestMs, Math.round(ms))
}

/** Runs one synchronous parser case: success or a typed error (the slowest case is recorded as a figure; a hang fails on the runner's timeout). */
function parseCase(name: string, fn: () => unknown): void {
  const t = performance.now()
  let outcome: 'typed' | 'ok' = 'ok'
  try {
    fn()
  } catch (err) {
    if (!isTyped(err)) throw new Error(`${name}: untyped ${String((err as Error)?.name)}: ${String((err as Error)?.message ?? err)}`, { cause: err })
    outcome = 'typed'
  }
  tally(name, outcome, performance.now() - t)
}

async function asyncCase(name: string, fn: () => Promise<unknown>): Promise<void> {
  const t = performance.now()
  let outcome: 'typed' | 'ok' = 'ok'
  try {
    await fn()
  } catch (err) {
    if (!isTyped(err)) throw new Error(`${name}: untyped ${String((err as Error)?.name)}: ${String((err as Error)?.message ?? err)}`, { cause: err })
    outcome = 'typed'
  }
  tally(name, outcome, performance.now() - t)
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s)
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.json({ maxDepth: 4 }), fc.string({ unit: 'grapheme', maxLength: 200 }))
const anyJson = fc.jsonValue({ maxDepth: 5 })
/** Values a mutation may put anywhere: any JSON plus hostile shapes. */
const hostile = fc.oneof(
  anyJson,
  fc.constantFrom(-1, 0, 1, -0, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, 0.5, '', 'A', '0', '-0', '00', '/ipfs/', 'bafkrei', 'z', 'Qm', null, true, false, [], {}, { '/': 'bafkrei' }, { '/': { bytes: '' } }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }).map((b) => b.toString()),
)

/** Block-shaped JSON: mostly right keys with arbitrary values, so parsing gets past the first field. */
const blockish = fc.record(
  {
    previous: fc.oneof(fc.constant(''), fc.constant('/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'), hostile),
    data: fc.oneof(fc.record({ sequence: fc.oneof(fc.nat(), hostile), timestamp: fc.oneof(fc.nat(), hostile), ctrng: fc.oneof(fc.array(fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), hostile), { maxLength: 4 }), hostile) }, { requiredKeys: [] }), hostile),
    metadata: hostile,
  },
  { requiredKeys: [] },
)

let fixtures: Fixture[] = []
let records: Uint8Array[] = []
let stop: (() => Promise<void>) | undefined
beforeAll(async () => {
  const net = await networkFixtures()
  stop = net.stop
  fixtures = [...pureFixtures().main, ...net.fixtures]
  records = net.fixtures.filter((f) => f.kind === 'public pick').map((f) => Buffer.from(f.proof.chain.ipnsRecord, 'base64'))
}, 60_000)
afterAll(async () => {
  await stop?.()
  const total = Object.values(counts).reduce((a, c) => a + c.cases, 0)
  recordFigures('fuzz', { perTarget: counts, totalCases: total })
})

describe('parsers take arbitrary input and throw only typed errors', () => {
  it('parseBlock: arbitrary bytes (with their own CID and with a wrong one), text and block-shaped JSON', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 400 }), anyText.map(enc), blockish.map((b) => enc(JSON.stringify(b)))), fc.boolean(), (bytes, ownCid) => {
        parseCase('parseBlock', () => parseBlock(bytes, ownCid ? blockCid(bytes) : 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'))
      }),
      { seed: 0x0b10c, numRuns: 3000 },
    )
  })
  it('parseBlock: real blocks with one byte changed and re-addressed', () => {
    const real = encodeBlock({ previous: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', sequence: 7, timestamp: 1_760_000_000, ctrng: ['00'.repeat(32), 'ab'.repeat(32)] })
    fc.assert(
      fc.property(fc.nat({ max: real.length - 1 }), fc.integer({ min: 0, max: 255 }), (at, b) => {
        const x = real.slice()
        x[at] = b
        parseCase('parseBlock (mutated real block)', () => parseBlock(x, blockCid(x)))
      }),
      { seed: 0xb10c2, numRuns: 2000 },
    )
  })
  it('parseCommitment: arbitrary JSON values, text and bytes', () => {
    fc.assert(
      fc.property(fc.oneof(anyJson, anyText, anyText.map(enc)), (v) => parseCase('parseCommitment', () => parseCommitment(v))),
      { seed: 0xc0111, numRuns: 2000 },
    )
  })
  it('parseCommitment: real commitments with one field replaced by a hostile value', () => {
    const base = fixtures.map((f) => f.proof.commitment)
    fc.assert(
      fc.property(fc.nat({ max: base.length - 1 }), fc.nat(), hostile, (i, pick, v) => {
        const c = JSON.parse(JSON.stringify(base[i]))
        const paths = allPaths(c)
        setPath(c, paths[pick % paths.length]!, v)
        parseCase('parseCommitment (mutated)', () => parseCommitment(c))
      }),
      { seed: 0xc0112, numRuns: 2000 },
    )
  })
  it('parseProof: arbitrary JSON values, text and bytes', () => {
    fc.assert(
      fc.property(fc.oneof(anyJson, anyText, anyText.map(enc), fc.uint8Array({ maxLength: 300 })), (v) => parseCase('parseProof', () => parseProof(v))),
      { seed: 0x9f00f, numRuns: 2000 },
    )
  })
  it('parseIpnsRecord / verifyIpnsRecord: arbitrary bytes and real records with bytes changed', async () => {
    const name = fixtures.find((f) => f.keyType === 'Ed25519')!.proof.commitment.beacon as string
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 600 }), fc.tuple(fc.nat({ max: records.length - 1 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 })).map(([r, edits]) => {
        const x = records[r]!.slice()
        for (const [at, b] of edits) x[at % x.length] = b
        return x
      })), async (bytes) => {
        parseCase('parseIpnsRecord', () => parseIpnsRecord(bytes))
        await asyncCase('verifyIpnsRecord', () => verifyIpnsRecord(bytes, name))
      }),
      { seed: 0x1795, numRuns: 1500 },
    )
  })
  it('parseParticipants: lines, csv and json files of arbitrary text', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom('lines', 'csv', 'json') as fc.Arbitrary<'lines' | 'csv' | 'json'>, fc.option(fc.constantFrom('1', '2', 'name', 'weight', '0')), (text, format, column) => {
        parseCase(`parseParticipants (${format})`, () => checkEntries(parseParticipants(text, format, column === null ? {} : format === 'csv' ? { column, weightColumn: '2' } : {}), format, 'fuzz'))
      }),
      { seed: 0x9a5, numRuns: 3000 },
    )
  })
  it('parseParticipants: csv-shaped text with quotes, separators and weights', () => {
    const cell = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('"', '""', ',', '\r\n', '\n', 'a"b', '"a,b"', '5', '0', '-1', '1e3'))
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }), (rows) => {
        const text = rows.map((r) => r.join(',')).join('\n')
        parseCase('parseParticipants (csv-shaped)', () => checkEntries(parseParticipants(text, 'csv', { column: '1', weightColumn: '2' }), 'csv', 'fuzz'))
      }),
      { seed: 0xc5f, numRuns: 1500 },
    )
  })
  it('decodeJsonInput: nesting bombs of arbitrary shape and size are refused unparsed, in bounded memory', () => {
    // Memory the whole property may use (heap before/after, the inputs included): 64 MB.
    const MAY_USE_BYTES = 64 * 1024 * 1024
    const before = process.memoryUsage().heapUsed
    fc.assert(
      fc.property(fc.array(fc.constantFrom('[', '{"k":', '[0,', '{"a":1,"b":'), { minLength: 1, maxLength: 4 }), fc.integer({ min: 65, max: 400_000 }), fc.boolean(), (opens, depth, asBytes) => {
        let text = ''
        for (let i = 0; i < depth; i++) text += opens[i % opens.length]
        const input = asBytes ? enc(text) : text
        parseCase('decodeJsonInput (nesting bombs)', () => {
          try {
            decodeJsonInput(input, { what: 'proof', maxBytes: LIMITS.maxProofBytes, integersOnly: true, tooLarge: () => new ParseError('INVALID_INPUT', 'unreachable', 'x') })
          } catch (err) {
            expect((err as { code?: string }).code).toBe('JSON_TOO_DEEP')
            throw err
          }
          throw new Error('a nesting bomb was accepted')
        })
      }),
      { seed: 0xb0b, numRuns: 200 },
    )
    const after = process.memoryUsage().heapUsed
    expect(after - before, `heap grew by ${after - before} bytes`).toBeLessThan(MAY_USE_BYTES)
  })
  it('decodeJsonInput: arbitrary bytes and text give the parsed value or a typed error, and bytes agree with their text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 300 }), anyText.map(enc), fc.json({ maxDepth: 6 }).map(enc)), (bytes) => {
        const opts = { what: 'doc', maxBytes: 1 << 20, integersOnly: false, tooLarge: () => new ParseError('INVALID_INPUT', 'unreachable', 'x') }
        let fromBytes: unknown
        let bytesError: string | undefined
        parseCase('decodeJsonInput (bytes)', () => {
          try {
            fromBytes = decodeJsonInput(bytes, opts)
          } catch (err) {
            bytesError = (err as { code?: string }).code
            throw err
          }
        })
        // Valid UTF-8 decodes to text that must give the same answer as a string.
        let text: string | undefined
        try {
          text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
        } catch {
          expect(bytesError).toBe('INVALID_UTF8')
        }
        if (text !== undefined) {
          let fromText: unknown
          let textError: string | undefined
          try {
            fromText = decodeJsonInput(text, opts)
          } catch (err) {
            textError = (err as { code?: string }).code
          }
          expect(textError).toBe(bytesError)
          expect(fromText).toEqual(fromBytes)
        }
      }),
      { seed: 0xdec0de, numRuns: 2000 },
    )
  })
  it('findDuplicateKey finds nothing in what JSON.stringify writes, and finds an injected duplicate', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), anyJson, { minKeys: 1, maxKeys: 5 }), fc.string({ maxLength: 6 }), (o, k) => {
        const text = JSON.stringify(o)
        expect(findDuplicateKey(text)).toBeUndefined()
        const dup = `{${JSON.stringify(k)}:1,${text.slice(1, -1)}${text.length > 2 ? ',' : ''}${JSON.stringify(k)}:2}`
        expect(findDuplicateKey(dup)?.key).toBe(k)
        tally('findDuplicateKey', 'ok', 0)
      }),
      { seed: 0xd0b, numRuns: 1000 },
    )
  })
})

function allPaths(v: J, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = prefix.length > 0 ? [prefix] : []
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...allPaths(x, [...prefix, i])))
  else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) out.push(...allPaths(v[k], [...prefix, k]))
  return out
}

function setPath(root: J, path: (string | number)[], value: unknown): void {
  const parent = path.slice(0, -1).reduce((o: J, s) => o[s], root)
  const key = path[path.length - 1]!
  if (value === undefined) delete parent[key]
  else parent[key] = value
}

describe('verify takes random proofs and only reports failed checks', () => {
  it('valid proofs mutated at 1 to 3 random paths (values replaced, fields deleted)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 14 }), fc.array(fc.tuple(fc.nat(), fc.option(hostile, { freq: 4 })), { minLength: 1, maxLength: 3 }), fc.boolean(), async (fi, edits, asText) => {
        const p = JSON.parse(JSON.stringify(fixtures[fi % fixtures.length]!.proof))
        for (const [pick, v] of edits) {
          const paths = allPaths(p)
          if (paths.length === 0) break
          setPath(p, paths[pick % paths.length]!, v === null ? undefined : v)
        }
        await verifyCase(asText ? JSON.stringify(p) : p)
      }),
      { seed: 0x5e1f, numRuns: 2500 },
    )
  })
  it('arbitrary JSON values, text and bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyJson, anyText, fc.uint8Array({ maxLength: 300 }), fc.constantFrom(undefined, null, 0, Symbol('x'), () => 1, new Map(), Object.create(null))), async (v) => verifyCase(v)),
      { seed: 0xa11, numRuns: 1500 },
    )
  })
  it('proof-shaped objects: right top-level keys, arbitrary values', async () => {
    const base = fixtures[0]!.proof
    await fc.assert(
      fc.asyncProperty(fc.record({ commitment: fc.oneof(fc.constant(base.commitment), hostile), commitmentCid: fc.oneof(fc.constant(base.commitmentCid), hostile), participants: fc.oneof(fc.constant(base.participants), hostile), chain: fc.oneof(fc.constant(base.chain), hostile, fc.record({ blocks: fc.array(fc.record({ cid: hostile, bytes: hostile })), ipnsRecord: hostile }, { requiredKeys: ['blocks'] })), seed: fc.oneof(fc.constant(base.seed), hostile), outcome: fc.oneof(fc.constant(base.outcome), hostile) }, { requiredKeys: [] }), async (parts) => verifyCase({ type: base.type, version: base.version, ...parts })),
      { seed: 0x5a9e, numRuns: 1500 },
    )
  })
})

async function verifyCase(input: unknown): Promise<void> {
  const t = performance.now()
  const r = await verify(input)
  const ms = performance.now() - t
  const internal = r.checks.find((c) => c.name === 'internal')
  expect(internal?.detail, 'verify caught an untyped error').toBeUndefined()
  expect(r.checks.length).toBeGreaterThan(0)
  tally('verify', r.ok ? 'ok' : 'typed', ms)
}
