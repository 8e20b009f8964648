/**
 * docs/proof.schema.json describes the proof bundle. These tests keep it honest: every real proof
 * validates, malformed ones do not, and nothing `verify` accepts is rejected by the schema.
 */
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import { commit } from '../../src/commit.js'
import { draw } from '../../src/draw.js'
import { planTarget } from '../../src/beacon/plan.js'
import { verify } from '../../src/verify.js'
import { commitmentFile } from '../../src/core/commitment-file.js'
import { LIMITS } from '../../src/core/limits.js'
import { makeReceipts, parseReceipt } from '../../src/core/receipt.js'
import { OrbitdrawError } from '../../src/core/errors.js'
import { parseCommitment } from '../../src/core/commitment.js'
import { parseProof } from '../../src/core/proof.js'
import { type JsonObject } from '../../src/core/json.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { jsonSchemaFiles } from '../../scripts/json-schemas.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'

const schema = JSON.parse(readFileSync(new URL('../../docs/proof.schema.json', import.meta.url), 'utf8')) as object
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema)
const vectors = JSON.parse(readFileSync(new URL('../vectors/draws.json', import.meta.url), 'utf8')) as { cases: { name: string; proof: unknown }[] }
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T
const CHAIN = buildChain(4)
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tamper tables write deep into JSON fixtures
type Doc = Record<string, any>

/**
 * Replaces one top-level or nested value of `doc` at a pseudo-random path (`pick` among the first 400
 * paths, the root included, where nothing is replaced); returns that path.
 */
function replaceAt(doc: Record<string, unknown>, pick: number, value: unknown): (string | number)[] {
  const paths: (string | number)[][] = []
  const walk = (v: unknown, path: (string | number)[]): void => {
    paths.push(path)
    if (v !== null && typeof v === 'object' && paths.length < 400) for (const [k, x] of Object.entries(v)) walk(x, [...path, Array.isArray(v) ? Number(k) : k])
  }
  walk(doc, [])
  const path = paths[pick % paths.length]!
  if (path.length === 0) return path
  let o = doc as Record<string | number, unknown>
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>
  o[path.at(-1)!] = value
  return path
}

describe('docs/proof.schema.json', () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ beacon: { intervalMs: 200, initialBlocks: 2 } })
  })
  afterAll(async () => {
    await emu.stop()
  })

  it.each(vectors.cases.map((c) => [c.name, c.proof] as const))('vector proof %s validates', (_name, proof) => {
    expect(validate(proof), JSON.stringify(validate.errors)).toBe(true)
  })

  it('a signed network proof (RSA record, multi-block chain, private pick) validates', async () => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    const plan = await planTarget({ client, delaySeconds: 0.3 })
    const people = Array.from({ length: 30 }, (_, i) => `member-${i}`)
    const { commitment, secret } = commit({ beacon: plan.beacon, target: plan.target, after: plan.after, participants: people, draw: { kind: 'pick', count: 4 }, private: { secret: new Uint8Array(32).fill(7) } })
    const proof = clone(await draw(commitment, people, { client, disclosure: 'winners', secret, untimestamped: true }))
    expect(proof.chain.ipnsRecord).toBeDefined()
    expect(validate(proof), JSON.stringify(validate.errors)).toBe(true)
  })

  it('rejects malformed proofs', () => {
    const good = vectors.cases[0]!.proof as Record<string, unknown>
    const bad: [string, (p: Record<string, unknown>) => void][] = [
      ['unknown top-level field', (p) => (p.extra = 1)],
      ['version 3', (p) => (p.version = 3)],
      ['missing seed', (p) => delete p.seed],
      ['uppercase seed', (p) => (p.seed = (p.seed as string).toUpperCase())],
      ['no blocks', (p) => ((p.chain as { blocks: unknown[] }).blocks = [])],
      ['unpadded block base64', (p) => (((p.chain as { blocks: { bytes: string }[] }).blocks[0]!.bytes = 'YWJj'.slice(0, 3)))],
      ['outcome kind unknown', (p) => ((p.outcome as { kind: string }).kind = 'lottery')],
      ['commitment with an extra field', (p) => ((p.commitment as Record<string, unknown>).note = 'x')],
      ['after.block not a link', (p) => ((p.commitment as { after: { block: unknown } }).after.block = 'bafkrei')],
    ]
    for (const [name, mutate] of bad) {
      const p = clone(good)
      mutate(p)
      expect(validate(p), name).toBe(false)
    }
  })

  it('property: whatever verify accepts, the schema accepts (the schema is never stricter than the protocol)', async () => {
    const base = vectors.cases.map((c) => c.proof)
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: base.length - 1 }), fc.jsonValue(), fc.nat(), async (which, value, pick) => {
        const proof = clone(base[which]) as Record<string, unknown>
        replaceAt(proof, pick, value)
        const result = await verify(proof)
        if (result.ok) expect(validate(proof), JSON.stringify(validate.errors)).toBe(true)
      }),
      { numRuns: 150, seed: 20261121 },
    )
  })
})

/**
 * Each wire format is declared once (src/core/schema/); the published schemas are generated from
 * the declarations. These tests keep the published files in step and check that the parsers and
 * the published schemas agree: everything the parser accepts the schema accepts, and every shape
 * the parser refuses (a code a JSON Schema can say) the schema refuses too.
 */
describe('docs/*.schema.json, generated from src/core/schema', () => {
  const files = jsonSchemaFiles()
  const compile = (file: string) => new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(files.find((f) => f.file === file)!.text) as object)
  const proofSchema = compile('proof.schema.json')
  const commitmentSchema = compile('commitment.schema.json')
  const receiptSchema = compile('receipt.schema.json')
  const fileSchema = compile('commitment-file.schema.json')
  const blockSchema = compile('block.schema.json')
  const proofs = vectors.cases.map((c) => c.proof as Record<string, unknown>)
  const SHAPE_CODES = ['INVALID_FIELD', 'MISSING_FIELD', 'UNKNOWN_FIELD', 'INVALID_BASE64', 'LIMIT_EXCEEDED', 'NON_CANONICAL_BYTES', 'INVALID_BEACON_NAME']
  const failure = (f: () => unknown): { code: string; path?: string } | undefined => {
    try {
      f()
      return undefined
    } catch (err) {
      if (!(err instanceof OrbitdrawError)) throw err
      return { code: err.code, ...(err.path === undefined ? {} : { path: err.path }) }
    }
  }
  const receiptFor = () => {
    const people = ['ada', 'grace', 'alan', 'edsger']
    const c = commit({ beacon: BEACON_NAME, target: 9, after: { sequence: 2, block: CHAIN[2]!.cid }, participants: people, draw: { kind: 'pick', count: 2 }, private: { secret: new Uint8Array(32).fill(3) } })
    return { c, receipt: clone(makeReceipts(c, people, c.secret!).receiptFor(1)) as unknown as Record<string, unknown> }
  }

  it.each(files.map((f) => [f.file, f.text] as const))('docs/%s is what npm run schema writes (run it after changing a shape)', (file, text) => {
    expect(readFileSync(new URL(`../../docs/${file}`, import.meta.url), 'utf8')).toBe(text)
  })

  it('every vector commitment, a commitment file, a receipt and every vector block validate', () => {
    for (const p of proofs) {
      expect(commitmentSchema(p.commitment), JSON.stringify(commitmentSchema.errors)).toBe(true)
      const file = commitmentFile({ cid: p.commitmentCid as string, json: p.commitment as JsonObject }, (p.timestamps as string[] | undefined) ?? [])
      expect(fileSchema(clone(file)), JSON.stringify(fileSchema.errors)).toBe(true)
    }
    const { receipt } = receiptFor()
    expect(receiptSchema(receipt), JSON.stringify(receiptSchema.errors)).toBe(true)
    const blocks = JSON.parse(readFileSync(new URL('../vectors/blocks.json', import.meta.url), 'utf8')) as { blocks: { text: string }[] }
    for (const b of blocks.blocks) expect(blockSchema(JSON.parse(b.text)), JSON.stringify(blockSchema.errors)).toBe(true)
    for (const b of CHAIN) expect(blockSchema(JSON.parse(new TextDecoder().decode(b.bytes))), JSON.stringify(blockSchema.errors)).toBe(true)
  })

  // Each tamper shape: the parser's code and path, and the published schema refuses it too.
  const proofTampers: [string, (p: Doc) => void, string, string][] = [
    ['unknown top-level field', (p) => (p.extra = 1), 'UNKNOWN_FIELD', '$.extra'],
    ['unknown field and a missing one (the unknown one is reported first)', (p) => ((p.Seed = p.seed), delete p.seed), 'UNKNOWN_FIELD', '$.Seed'],
    ['missing seed', (p) => delete p.seed, 'MISSING_FIELD', '$.seed'],
    ['uppercase seed', (p) => (p.seed = (p.seed as string).toUpperCase()), 'INVALID_FIELD', '$.seed'],
    ['commitment an array', (p) => (p.commitment = []), 'INVALID_FIELD', '$.commitment'],
    ['commitmentCid with a dash', (p) => (p.commitmentCid = 'bafy-x'), 'INVALID_FIELD', '$.commitmentCid'],
    ['commitmentCid of 257 characters', (p) => (p.commitmentCid = 'b'.repeat(257)), 'INVALID_FIELD', '$.commitmentCid'],
    ['no blocks', (p) => (p.chain.blocks = []), 'INVALID_FIELD', '$.chain.blocks'],
    ['block bytes not base64', (p) => (p.chain.blocks[0].bytes = 'YWJj!'), 'INVALID_BASE64', '$.chain.blocks[0].bytes'],
    ['block bytes with non-zero padding bits', (p) => (p.chain.blocks[0].bytes = 'YWJ='), 'INVALID_BASE64', '$.chain.blocks[0].bytes'],
    ['block with an extra field', (p) => (p.chain.blocks[0].note = ''), 'UNKNOWN_FIELD', '$.chain.blocks[0].note'],
    ['block without cid', (p) => delete p.chain.blocks[0].cid, 'MISSING_FIELD', '$.chain.blocks[0].cid'],
    ['ipnsRecord a number', (p) => (p.chain.ipnsRecord = 5), 'INVALID_FIELD', '$.chain.ipnsRecord'],
    ['outcome kind unknown', (p) => (p.outcome.kind = 'lottery'), 'INVALID_FIELD', '$.outcome.kind'],
    ['outcome kind missing', (p) => delete p.outcome.kind, 'MISSING_FIELD', '$.outcome.kind'],
    ['outcome an array', (p) => (p.outcome = []), 'INVALID_FIELD', '$.outcome'],
    ['participants disclosure unknown', (p) => (p.participants = { disclosure: 'some', entries: [] }), 'INVALID_FIELD', '$.participants.disclosure'],
    ['a weighted entry among strings', (p) => (p.participants = { disclosure: 'full', entries: ['a', { entry: 'b', weight: 1 }] }), 'INVALID_FIELD', '$.participants.entries[1]'],
    ['a string among weighted entries', (p) => (p.participants = { disclosure: 'full', entries: [{ entry: 'a', weight: 1 }, 'b'] }), 'INVALID_FIELD', '$.participants.entries[1]'],
    ['a weight of 0', (p) => (p.participants = { disclosure: 'full', entries: [{ entry: 'a', weight: 0 }] }), 'INVALID_FIELD', '$.participants.entries[0].weight'],
    ['a weight of 1.5', (p) => (p.participants = { disclosure: 'full', entries: [{ entry: 'a', weight: 1.5 }] }), 'INVALID_FIELD', '$.participants.entries[0].weight'],
    ['a salt of 63 hex digits', (p) => (p.participants = { disclosure: 'full', entries: ['a'], salts: ['a'.repeat(63)] }), 'INVALID_FIELD', '$.participants.salts[0]'],
    ['a revealed path of 65 hashes', (p) => (p.participants = { disclosure: 'winners', revealed: [{ index: 0, entry: 'a', salt: 'a'.repeat(64), path: Array(65).fill('a'.repeat(64)) }] }), 'LIMIT_EXCEEDED', '$.participants.revealed[0].path'],
    ['an empty time-stamp token', (p) => (p.timestamps = ['']), 'INVALID_FIELD', '$.timestamps[0]'],
    ['17 time-stamp tokens', (p) => (p.timestamps = Array(17).fill('AAAA')), 'LIMIT_EXCEEDED', '$.timestamps'],
  ]
  it.each(proofTampers.map(([name, mutate, code, path]) => [name, mutate, code, path] as const))('proof tamper "%s": the parser says %s at %s, and the schema refuses it', (_name, mutate, code, path) => {
    for (const good of proofs) {
      const p = clone(good) as Doc
      mutate(p)
      expect(failure(() => parseProof(p))).toEqual({ code, path })
      expect(proofSchema(p)).toBe(false)
    }
  })

  const commitmentTampers: [string, (c: Doc) => void, string, string][] = [
    ['unknown field', (c) => (c.note = 'x'), 'UNKNOWN_FIELD', '$.note'],
    ['after.block not a link', (c) => (c.after.block = 'bafkrei'), 'INVALID_FIELD', '$.after.block'],
    // the DAG-JSON decoder refuses this one first
    ['after.block a link with an extra key', (c) => (c.after.block = { ...c.after.block, x: 1 }), 'INVALID_COMMITMENT', '$'],
    ['after.block a number', (c) => (c.after.block = 5), 'INVALID_FIELD', '$.after.block'],
    ['after.sequence negative', (c) => (c.after.sequence = -1), 'INVALID_FIELD', '$.after.sequence'],
    ['draw kind unknown', (c) => (c.draw = { kind: 'lottery' }), 'INVALID_FIELD', '$.draw.kind'],
    ['draw kind missing', (c) => (c.draw = {}), 'MISSING_FIELD', '$.draw.kind'],
    ['range bound not canonical', (c) => (c.draw = { kind: 'range', min: '01', max: '5', count: 1, distinct: false }), 'INVALID_FIELD', '$.draw.min'],
    ['pick with an extra parameter', (c) => (c.draw = { kind: 'pick', count: 1, distinct: true }), 'UNKNOWN_FIELD', '$.draw.distinct'],
    ['beacon not an IPNS name', (c) => (c.beacon = 'zQm'), 'INVALID_BEACON_NAME', '$.beacon'],
    ['label a number', (c) => (c.label = 5), 'INVALID_FIELD', '$.label'],
  ]
  const withParticipants = proofs.map((p) => p.commitment as Doc).filter((c) => c.participants !== undefined)
  const participantsTampers: [string, (c: Doc) => void, string, string][] = [
    ['root padded', (c) => (c.participants.root['/'].bytes += '='), 'NON_CANONICAL_BYTES', '$.participants.root'],
    // the DAG-JSON decoder refuses these two first
    ['root with non-zero trailing bits', (c) => (c.participants.root['/'].bytes = (c.participants.root['/'].bytes as string).slice(0, 42) + 'B'), 'INVALID_COMMITMENT', '$'],
    ['root of 31 bytes', (c) => (c.participants.root['/'].bytes = 'A'.repeat(41) + 'E'), 'INVALID_COMMITMENT', '$'],
    ['root a string', (c) => (c.participants.root = 'A'.repeat(43)), 'INVALID_FIELD', '$.participants.root'],
    ['salted false', (c) => (c.participants.salted = false), 'INVALID_FIELD', '$.participants.salted'],
    ['count 0', (c) => (c.participants.count = 0), 'INVALID_FIELD', '$.participants.count'],
  ]
  it.each([...commitmentTampers.map((t) => [...t, proofs.map((p) => p.commitment as Doc)] as const), ...participantsTampers.map((t) => [...t, withParticipants] as const)])(
    'commitment tamper "%s": the parser says %s at %s, and the schema refuses it',
    (_name, mutate, code, path, commitments) => {
      expect(commitments.length).toBeGreaterThan(0)
      for (const good of commitments) {
        const c = clone(good)
        mutate(c)
        expect(failure(() => parseCommitment(c))).toEqual({ code, path })
        expect(commitmentSchema(c)).toBe(false)
      }
    },
  )

  it('receipt and block tampers: same codes and paths as before, and the schemas refuse them', () => {
    const { receipt } = receiptFor()
    const receiptTampers: [(r: Doc) => void, string, string][] = [
      [(r) => (r.extra = 1), 'UNKNOWN_FIELD', '$.extra'],
      [(r) => (r.index = LIMITS.maxParticipants), 'INVALID_FIELD', '$.index'],
      [(r) => (r.weight = 0), 'INVALID_FIELD', '$.weight'],
      [(r) => (r.path = Array(65).fill('0'.repeat(64))), 'LIMIT_EXCEEDED', '$.path'],
      [(r) => delete r.salt, 'MISSING_FIELD', '$.salt'],
    ]
    for (const [mutate, code, path] of receiptTampers) {
      const r = clone(receipt)
      mutate(r)
      expect(failure(() => parseReceipt(r))).toEqual({ code, path })
      expect(receiptSchema(r)).toBe(false)
    }
    const blocks = JSON.parse(readFileSync(new URL('../vectors/blocks.json', import.meta.url), 'utf8')) as { malformed: { text: string; error: { code: string; path?: string } }[] }
    for (const m of blocks.malformed) {
      if (!SHAPE_CODES.includes(m.error.code) || m.error.path === '$.previous') continue
      expect(blockSchema(JSON.parse(m.text)), m.text).toBe(false)
    }
    expect(blockSchema({ data: 'eyJ9', previous: '' })).toBe(false)
  })

  it('property: on any one value replaced, the proof parser and the published proof schema agree', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: proofs.length - 1 }), fc.jsonValue({ maxDepth: 3 }), fc.nat(), (which, value, pick) => {
        const proof = clone(proofs[which]) as Record<string, unknown>
        const path = replaceAt(proof, pick, value)
        if (path.length === 0) return
        const parsed = failure(() => parseProof(proof))
        const inCommitment = path[0] === 'commitment' ? failure(() => parseCommitment(proof.commitment)) : undefined
        if (parsed === undefined && inCommitment === undefined) expect(proofSchema(proof), `${path.join('.')}: ${JSON.stringify(proofSchema.errors)}`).toBe(true)
        if (parsed !== undefined && SHAPE_CODES.includes(parsed.code)) expect(proofSchema(proof), `${path.join('.')} refused by the parser (${parsed.code})`).toBe(false)
        if (inCommitment !== undefined && SHAPE_CODES.includes(inCommitment.code) && inCommitment.code !== 'INVALID_BEACON_NAME') expect(proofSchema(proof), `${path.join('.')} refused by parseCommitment (${inCommitment.code})`).toBe(false)
      }),
      { numRuns: 400, seed: 20261123 },
    )
  })
})
