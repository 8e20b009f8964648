/**
 * Commitments: commit() validation (code and path per option), the canonical DAG-JSON encoding
 * checked against an independent encoder, the CIDv1 computed by hand, and strict parsing.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sha256, sha512 } from '@noble/hashes/sha2.js'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { create as createDigest } from 'multiformats/hashes/digest'
import { commit, commitmentCid, encodeCommitment, parseCommitment, type CommitOptions, type Commitment } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { InvalidInputError, OrbitdrawError, ParseError, UnsupportedVersionError } from '../../src/core/errors.js'
import { LIMITS } from '../../src/core/limits.js'
import { participantsRoot } from '../../src/core/participants.js'
import { PROTOCOL_VERSION } from '../../src/core/version.js'
import { BEACON_NAME, buildChain, OLD_BEACON_NAME } from '../helpers/chain.js'
import { thrownBy } from '../helpers/thrown.js'

const chain = buildChain(6, 'commitment-test')
const AFTER = { sequence: 3, block: chain[3]!.cid }
const PEOPLE = ['alice', 'bob', 'carol', 'dave']
const td = new TextDecoder()
const wellFormed = (s: string): boolean => !/[\ud800-\udfff]/.test(s.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))
const v0Of = (cid: string): string => CID.createV0(CID.parse(cid).multihash as Parameters<typeof CID.createV0>[0]).toString()

function base(over: Partial<CommitOptions> = {}): CommitOptions {
  return { beacon: BEACON_NAME, target: 5, after: AFTER, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'Door prize', ...over }
}

const thrown = (fn: () => unknown): OrbitdrawError => thrownBy(fn, OrbitdrawError)

// ---- an independent reference encoder (what docs/spec.md (Core protocol) describes) ----

function b64NoPad(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64').replace(/=+$/, '')
}

/** Canonical DAG-JSON of a plain JSON value: keys sorted by UTF-8 bytes, no whitespace, JSON.stringify strings. */
function canon(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v)
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`
  const keys = Object.keys(v).sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')))
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}`
}

/** The DAG-JSON form of a commitment built by hand from its typed form. */
function referenceJson(c: Commitment): Record<string, unknown> {
  const draw: Record<string, unknown> =
    c.draw.kind === 'range'
      ? { kind: 'range', min: c.draw.min.toString(), max: c.draw.max.toString(), count: c.draw.count, distinct: c.draw.distinct }
      : c.draw.kind === 'shuffle'
        ? { kind: 'shuffle' }
        : { kind: c.draw.kind, count: (c.draw as { count: number }).count }
  const out: Record<string, unknown> = {
    version: c.version,
    beacon: c.beacon,
    target: c.target,
    after: { sequence: c.after.sequence, block: { '/': c.after.block } },
    draw,
    label: c.label,
  }
  if (c.participants) out.participants = { count: c.participants.count, root: { '/': { bytes: b64NoPad(Buffer.from(c.participants.root, 'hex')) } } }
  return out
}

const B32 = 'abcdefghijklmnopqrstuvwxyz234567'
function base32(bytes: Uint8Array): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31]
  return out
}

/** CIDv1 by hand: 0x01, varint(0x0129) = a9 02, multihash 0x12 0x20 <sha256>, multibase 'b' + base32 lower. */
function referenceCid(bytes: Uint8Array): string {
  return 'b' + base32(new Uint8Array([0x01, 0xa9, 0x02, 0x12, 0x20, ...sha256(bytes)]))
}

describe('commit() validation: every option, with code and path', () => {
  const sha512Cid = CID.createV1(raw.code, createDigest(0x13, sha512(new Uint8Array([1])))).toString()
  const cases: [name: string, options: () => CommitOptions, code: string, path: string | undefined][] = [
    ['beacon not a name', () => base({ beacon: 'not-a-name' }), 'INVALID_BEACON_NAME', '$.beacon'],
    ['beacon empty', () => base({ beacon: '' }), 'INVALID_BEACON_NAME', '$.beacon'],
    ['beacon a block CID (raw codec, not libp2p-key)', () => base({ beacon: chain[1]!.cid }), 'INVALID_BEACON_NAME', '$.beacon'],
    ['beacon a number', () => base({ beacon: 42 as unknown as string }), 'INVALID_BEACON_NAME', '$.beacon'],
    ['target a float', () => base({ target: 5.5 }), 'INVALID_COMMITMENT', '$.target'],
    ['target a string', () => base({ target: '5' as unknown as number }), 'INVALID_COMMITMENT', '$.target'],
    ['target NaN', () => base({ target: Number.NaN }), 'INVALID_COMMITMENT', '$.target'],
    ['target equal to after.sequence', () => base({ target: 3 }), 'INVALID_COMMITMENT', '$.target'],
    ['target below after.sequence', () => base({ target: 2 }), 'INVALID_COMMITMENT', '$.target'],
    ['target past 2^53', () => base({ target: 2 ** 53 }), 'INVALID_COMMITMENT', '$.target'],
    ['after missing', () => base({ after: undefined as unknown as CommitOptions['after'] }), 'INVALID_COMMITMENT', '$.after.sequence'],
    ['after.sequence negative', () => base({ after: { sequence: -1, block: AFTER.block } }), 'INVALID_COMMITMENT', '$.after.sequence'],
    ['after.sequence a float', () => base({ after: { sequence: 1.5, block: AFTER.block } }), 'INVALID_COMMITMENT', '$.after.sequence'],
    ['after.block not a string', () => base({ after: { sequence: 3, block: 7 as unknown as string } }), 'INVALID_COMMITMENT', '$.after.block'],
    ['after.block not a CID', () => base({ after: { sequence: 3, block: 'zzz' } }), 'INVALID_CID', '$.after.block'],
    ['after.block not sha2-256', () => base({ after: { sequence: 3, block: sha512Cid } }), 'UNSUPPORTED_HASH', '$.after.block'],
    ['participants missing for pick', () => base({ participants: undefined }), 'MISSING_PARTICIPANTS', '$.participants'],
    ['participants given for range', () => base({ draw: { kind: 'range', min: 1n, max: 6n, count: 1, distinct: false } }), 'UNEXPECTED_PARTICIPANTS', '$.participants'],
    ['participants not an array', () => base({ participants: 'alice' as unknown as string[] }), 'INVALID_PARTICIPANTS', '$.participants'],
    ['participant a number', () => base({ participants: ['a', 2 as unknown as string] }), 'INVALID_PARTICIPANTS', '$.participants[1]'],
    ['weighted entries for a pick', () => base({ participants: [{ entry: 'a', weight: 1 }] }), 'INVALID_PARTICIPANTS', '$.participants[0]'],
    ['plain strings for a weighted draw', () => base({ draw: { kind: 'weighted', count: 1 }, participants: ['a'] }), 'INVALID_PARTICIPANTS', '$.participants[0]'],
    ['draw kind unknown', () => base({ draw: { kind: 'lottery' } as unknown as CommitOptions['draw'] }), 'INVALID_COMMITMENT', '$.draw.kind'],
    ['pick count 0', () => base({ draw: { kind: 'pick', count: 0 } }), 'INVALID_DRAW', '$.draw.count'],
    ['pick count a float', () => base({ draw: { kind: 'pick', count: 1.5 } }), 'INVALID_DRAW', '$.draw.count'],
    ['pick count above n', () => base({ draw: { kind: 'pick', count: 5 } }), 'INVALID_DRAW', '$.draw.count'],
    ['weighted count above n', () => base({ draw: { kind: 'weighted', count: 2 }, participants: [{ entry: 'a', weight: 3 }] }), 'INVALID_DRAW', '$.draw.count'],
    ['range min a number', () => base({ participants: undefined, draw: { kind: 'range', min: 1 as unknown as bigint, max: 6n, count: 1, distinct: false } }), 'INVALID_DRAW', '$.draw'],
    ['range max below min', () => base({ participants: undefined, draw: { kind: 'range', min: 6n, max: 1n, count: 1, distinct: false } }), 'INVALID_DRAW', '$.draw.max'],
    ['range wider than 2^256', () => base({ participants: undefined, draw: { kind: 'range', min: 0n, max: 2n ** 256n, count: 1, distinct: false } }), 'INVALID_DRAW', '$.draw.max'],
    ['range count 0', () => base({ participants: undefined, draw: { kind: 'range', min: 1n, max: 6n, count: 0, distinct: false } }), 'INVALID_DRAW', '$.draw.count'],
    ['range count over maxDrawCount', () => base({ participants: undefined, draw: { kind: 'range', min: 1n, max: 6n, count: LIMITS.maxDrawCount + 1, distinct: false } }), 'INVALID_DRAW', '$.draw.count'],
    ['range distinct not a boolean', () => base({ participants: undefined, draw: { kind: 'range', min: 1n, max: 6n, count: 1, distinct: 'yes' as unknown as boolean } }), 'INVALID_DRAW', '$.draw.distinct'],
    ['range distinct count above width', () => base({ participants: undefined, draw: { kind: 'range', min: 1n, max: 6n, count: 7, distinct: true } }), 'INVALID_DRAW', '$.draw.count'],
    ['label a number', () => base({ label: 5 as unknown as string }), 'INVALID_COMMITMENT', '$.label'],
    ['label with a lone surrogate', () => base({ label: 'a\ud800b' }), 'INVALID_COMMITMENT', '$.label'],
    ['label over 1024 UTF-8 bytes', () => base({ label: '🎉'.repeat(256) + 'x' }), 'INVALID_COMMITMENT', '$.label'],
  ]
  it.each(cases)('%s', (_name, options, code, path) => {
    const err = thrown(() => commit(options()))
    expect({ code: err.code, path: err.path }).toEqual({ code, path })
    expect(err.hint.length).toBeGreaterThan(0)
  })

  it('option errors are InvalidInputError, bad CID strings included (code and path kept)', () => {
    expect(thrown(() => commit(base({ target: 3 })))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => commit(base({ draw: { kind: 'pick', count: 0 } })))).toBeInstanceOf(InvalidInputError)
    const bad = thrown(() => commit(base({ after: { sequence: 3, block: 'zzz' } })))
    expect(bad).toBeInstanceOf(InvalidInputError)
    expect(bad).not.toBeInstanceOf(ParseError)
    expect([bad.code, bad.path]).toEqual(['INVALID_CID', '$.after.block'])
  })

  it('no options object → INVALID_OPTION', () => {
    expect(thrown(() => commit(null as unknown as CommitOptions)).code).toBe('INVALID_OPTION')
    expect(thrown(() => commit(7 as unknown as CommitOptions)).code).toBe('INVALID_OPTION')
  })

  // Regression (fixed in 9e6a7fc): a null draw used to throw a bare TypeError from usesParticipants().
  it('a missing or null draw → INVALID_DRAW at $.draw', () => {
    for (const draw of [null, undefined, 'pick']) {
      const err = thrown(() => commit(base({ draw: draw as unknown as CommitOptions['draw'] })))
      expect({ code: err.code, path: err.path }).toEqual({ code: 'INVALID_DRAW', path: '$.draw' })
    }
  })

  // Regression (fixed in 9e6a7fc): participant errors used to carry the list-relative path `$[i]`.
  it('participant-list errors name $.participants… (commit and drawFromBlock)', () => {
    const { commitment } = commit(base())
    const err = thrown(() => drawFromBlock(commitment, ['alice', 'bob', 'alice', 'dave'], chain[5]!))
    expect({ code: err.code, path: err.path }).toEqual({ code: 'ENTRY_DUPLICATE', path: '$.participants[2]' })
    const secret = Uint8Array.from({ length: 32 }, (_, i) => i + 1)
    const priv = commit(base({ private: { secret } })).commitment
    expect(thrown(() => drawFromBlock(priv, ['alice', 'bob', 'alice', 'dave'], chain[5]!, { disclosure: 'winners', secret })).path).toBe('$.participants[2]')
    expect(thrown(() => commit(base({ participants: [] }))).code).toBe('PARTICIPANTS_EMPTY')
    expect(thrown(() => commit(base({ participants: ['a', 'b', 'a'] }))).code).toBe('ENTRY_DUPLICATE')
    expect(thrown(() => commit(base({ participants: ['a', ' b'] }))).code).toMatch(/^ENTRY_/)
    expect(thrown(() => commit(base({ participants: [] }))).path).toBe('$.participants')
    expect(thrown(() => commit(base({ participants: ['a', 'b', 'a'] }))).path).toBe('$.participants[2]')
    expect(thrown(() => commit(base({ participants: ['a', ' b'] }))).path).toBe('$.participants[1]')
  })

  it('weights are validated', () => {
    for (const weight of [0, -1, 1.5, 2 ** 53, Number.NaN]) {
      const err = thrown(() => commit(base({ draw: { kind: 'weighted', count: 1 }, participants: [{ entry: 'a', weight }] })))
      expect(err.code).toBe('WEIGHT_INVALID')
    }
  })

  it('label limits: exactly 1024 UTF-8 bytes (256 emoji) is accepted; empty is the default', () => {
    expect(commit(base({ label: '🎉'.repeat(256) })).commitment.label).toHaveLength(512)
    const { commitment, json } = commit(base({ label: undefined }))
    expect(commitment.label).toBe('')
    expect(json.label).toBe('')
    expect(commit(base({ label: null as unknown as string })).commitment.label).toBe('')
  })

  it('target = after.sequence + 1 is the smallest accepted target; after.sequence 0 (genesis) is fine', () => {
    expect(commit(base({ target: 4 })).commitment.target).toBe(4)
    expect(commit(base({ target: 1, after: { sequence: 0, block: chain[0]!.cid } })).commitment.target).toBe(1)
  })

  it('an Ed25519 (k51…) beacon name and a v0 after.block are accepted', () => {
    const v0 = v0Of(AFTER.block)
    const { commitment, json } = commit(base({ beacon: OLD_BEACON_NAME, after: { sequence: 3, block: v0 } }))
    expect(commitment.beacon).toBe(OLD_BEACON_NAME)
    // the link is written as given (v0); its bytes are what the CID hashes
    expect((json.after as { block: { '/': string } }).block['/']).toBe(v0)
  })
})

describe('canonical DAG-JSON encoding', () => {
  it('exact bytes of a pick commitment', () => {
    const { bytes, cid, json, commitment } = commit(base())
    const root = b64NoPad(participantsRoot(PEOPLE))
    const text =
      `{"after":{"block":{"/":"${AFTER.block}"},"sequence":3},"beacon":"${BEACON_NAME}","draw":{"count":2,"kind":"pick"},` +
      `"label":"Door prize","participants":{"count":4,"root":{"/":{"bytes":"${root}"}}},"target":5,"version":1}`
    expect(td.decode(bytes)).toBe(text)
    expect(json).toEqual(JSON.parse(text))
    expect(cid).toBe(referenceCid(bytes))
    expect(cid).toMatch(/^baguqeera[a-z2-7]{52}$/)
    expect(commitmentCid(commitment)).toBe(cid)
    expect(encodeCommitment(commitment)).toEqual(bytes)
    expect(commitment.version).toBe(PROTOCOL_VERSION)
  })

  it('the CID is CIDv1, codec dag-json (0x0129), sha2-256 of the canonical bytes', () => {
    const { bytes, cid } = commit(base())
    const c = CID.parse(cid)
    expect([c.version, c.code, c.multihash.code]).toEqual([1, 0x0129, 0x12])
    expect(Buffer.from(c.multihash.digest)).toEqual(Buffer.from(sha256(bytes)))
  })

  it('range: bigints as decimal strings, draw keys sorted (count, distinct, kind, max, min), no participants key', () => {
    const { bytes, json } = commit(base({ participants: undefined, draw: { kind: 'range', min: -(2n ** 70n), max: 2n ** 64n, count: 3, distinct: true } }))
    const text = td.decode(bytes)
    expect(text).toContain('"draw":{"count":3,"distinct":true,"kind":"range","max":"18446744073709551616","min":"-1180591620717411303424"}')
    expect(text).not.toContain('participants')
    expect(json.draw).toEqual({ count: 3, distinct: true, kind: 'range', max: '18446744073709551616', min: '-1180591620717411303424' })
    const zero = commit(base({ participants: undefined, draw: { kind: 'range', min: 0n, max: 0n, count: 1, distinct: false } }))
    expect(td.decode(zero.bytes)).toContain('"draw":{"count":1,"distinct":false,"kind":"range","max":"0","min":"0"}')
  })

  it('shuffle and weighted draws', () => {
    expect(td.decode(commit(base({ draw: { kind: 'shuffle' } })).bytes)).toContain('"draw":{"kind":"shuffle"}')
    const w = commit(base({ draw: { kind: 'weighted', count: 1 }, participants: [{ entry: 'a', weight: 2 }, { entry: 'b', weight: 1 }] }))
    expect(td.decode(w.bytes)).toContain('"draw":{"count":1,"kind":"weighted"}')
    expect(w.commitment.participants!.root).toBe(Buffer.from(participantsRoot([{ entry: 'a', weight: 2 }, { entry: 'b', weight: 1 }])).toString('hex'))
  })

  it('non-ASCII and emoji labels are raw UTF-8; control characters escaped like JSON.stringify', () => {
    const label = 'Tombola — café 抽選 🎉👩‍👩‍👧 \u2028 \u007f "q" \\ </>& \t\n\u0000\u001f'
    const { bytes } = commit(base({ label }))
    const text = td.decode(bytes)
    expect(text).toContain(`"label":${JSON.stringify(label)}`)
    expect(Buffer.from(bytes).includes(Buffer.from('🎉', 'utf8'))).toBe(true)
    expect(text).toContain('\\u0000\\u001f')
  })

  it('property: any well-formed label encodes exactly as the reference encoder and round-trips', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (label) => {
        fc.pre(Buffer.byteLength(label, 'utf8') <= LIMITS.maxLabelBytes && wellFormed(label))
        const r = commit(base({ label }))
        expect(td.decode(r.bytes)).toBe(canon(referenceJson(r.commitment)))
        expect(r.cid).toBe(referenceCid(r.bytes))
        expect(parseCommitment(r.json)).toEqual(r.commitment)
      }),
      { numRuns: 200 },
    )
  })

  it('property: every draw kind encodes exactly as the reference encoder', () => {
    const drawArb = fc.oneof(
      fc.constant({ kind: 'shuffle' as const }),
      fc.integer({ min: 1, max: 4 }).map((count) => ({ kind: 'pick' as const, count })),
      fc.tuple(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }), fc.bigInt({ min: 0n, max: 2n ** 80n }), fc.integer({ min: 1, max: 5 }), fc.boolean()).map(([min, w, count, distinct]) => ({
        kind: 'range' as const,
        min,
        max: min + w + 5n,
        count,
        distinct,
      })),
    )
    fc.assert(
      fc.property(drawArb, fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 1000 }), (draw, afterSeq, gap) => {
        const r = commit(base({ draw, participants: draw.kind === 'range' ? undefined : PEOPLE, after: { sequence: afterSeq, block: AFTER.block }, target: afterSeq + gap }))
        expect(td.decode(r.bytes)).toBe(canon(referenceJson(r.commitment)))
        expect(r.cid).toBe(referenceCid(r.bytes))
      }),
      { numRuns: 100 },
    )
  })

  it('root bytes are standard base64 without padding (32 bytes → 43 characters)', () => {
    const { json } = commit(base())
    const b = (json.participants as { root: { '/': { bytes: string } } }).root['/'].bytes
    expect(b).toMatch(/^[A-Za-z0-9+/]{43}$/)
  })

  it('commitments that differ in any field have different CIDs', () => {
    const variants = [
      base(),
      base({ label: 'Door prize ' }),
      base({ target: 6 }),
      base({ beacon: OLD_BEACON_NAME }),
      base({ after: { sequence: 2, block: AFTER.block } }),
      base({ after: { sequence: 3, block: chain[2]!.cid } }),
      base({ draw: { kind: 'pick', count: 3 } }),
      base({ draw: { kind: 'shuffle' } }),
      base({ participants: [...PEOPLE].reverse() }),
      base({ participants: [...PEOPLE, 'erin'] }),
    ]
    const cids = new Set(variants.map((o) => commit(o).cid))
    expect(cids.size).toBe(variants.length)
  })
})

describe('parseCommitment', () => {
  const pick = commit(base())
  const range = commit(base({ participants: undefined, draw: { kind: 'range', min: -5n, max: 2n ** 70n, count: 4, distinct: true } }))
  const weighted = commit(base({ draw: { kind: 'weighted', count: 2 }, participants: [{ entry: 'a', weight: 5 }, { entry: 'b', weight: 1 }, { entry: 'c', weight: 9 }] }))

  it('round-trips from the JSON value, the text and the bytes', () => {
    for (const r of [pick, range, weighted]) {
      for (const input of [r.json, td.decode(r.bytes), r.bytes]) {
        const c = parseCommitment(input)
        expect(c).toEqual(r.commitment)
        expect(encodeCommitment(c)).toEqual(r.bytes)
        expect(commitmentCid(c)).toBe(r.cid)
      }
    }
  })

  it('accepts non-canonical text (whitespace, key order) and re-encodes it canonically', () => {
    const messy = JSON.stringify({ version: 1, label: pick.json.label, target: pick.json.target, draw: pick.json.draw, beacon: pick.json.beacon, participants: pick.json.participants, after: pick.json.after }, null, 3)
    const c = parseCommitment(messy)
    expect(encodeCommitment(c)).toEqual(pick.bytes)
    expect(commitmentCid(c)).toBe(pick.cid)
  })

  type J = any // eslint-disable-line @typescript-eslint/no-explicit-any
  const mutate = (r: typeof pick, f: (j: Record<string, J>) => void): Record<string, unknown> => {
    const j = structuredClone(r.json) as Record<string, J>
    f(j)
    return j
  }
  const cases: [name: string, input: () => unknown, code: string, path: string][] = [
    ['unknown top-level field', () => mutate(pick, (j) => (j.extra = 1)), 'UNKNOWN_FIELD', '$.extra'],
    ['unknown after field', () => mutate(pick, (j) => (j.after.time = 1)), 'UNKNOWN_FIELD', '$.after.time'],
    ['unknown draw field', () => mutate(pick, (j) => (j.draw.weights = [])), 'UNKNOWN_FIELD', '$.draw.weights'],
    ['count on a shuffle', () => mutate(pick, (j) => (j.draw = { kind: 'shuffle', count: 1 })), 'UNKNOWN_FIELD', '$.draw.count'],
    ['unknown participants field', () => mutate(pick, (j) => (j.participants.salt = 'x')), 'UNKNOWN_FIELD', '$.participants.salt'],
    ['missing label', () => mutate(pick, (j) => delete j.label), 'MISSING_FIELD', '$.label'],
    ['missing target', () => mutate(pick, (j) => delete j.target), 'MISSING_FIELD', '$.target'],
    ['missing after', () => mutate(pick, (j) => delete j.after), 'MISSING_FIELD', '$.after'],
    ['missing draw.count', () => mutate(pick, (j) => delete j.draw.count), 'MISSING_FIELD', '$.draw.count'],
    ['after.block a plain string', () => mutate(pick, (j) => (j.after.block = AFTER.block)), 'INVALID_FIELD', '$.after.block'],
    ['after.sequence a string', () => mutate(pick, (j) => (j.after.sequence = '3')), 'INVALID_FIELD', '$.after.sequence'],
    ['target a float', () => mutate(pick, (j) => (j.target = 5.5)), 'INVALID_FIELD', '$.target'],
    ['target not after after.sequence', () => mutate(pick, (j) => (j.target = 3)), 'INVALID_COMMITMENT', '$.target'],
    ['root as a hex string', () => mutate(pick, (j) => (j.participants.root = pick.commitment.participants!.root)), 'INVALID_FIELD', '$.participants.root'],
    ['root of 31 bytes', () => mutate(pick, (j) => (j.participants.root = { '/': { bytes: b64NoPad(new Uint8Array(31)) } })), 'INVALID_FIELD', '$.participants.root'],
    ['participants.count 0', () => mutate(pick, (j) => (j.participants.count = 0)), 'INVALID_FIELD', '$.participants.count'],
    ['pick count above participants.count', () => mutate(pick, (j) => (j.draw.count = 5)), 'INVALID_DRAW', '$.draw.count'],
    ['pick without participants', () => mutate(pick, (j) => delete j.participants), 'INVALID_COMMITMENT', '$.participants'],
    ['range with participants', () => mutate(range, (j) => (j.participants = pick.json.participants)), 'INVALID_COMMITMENT', '$.participants'],
    ['unknown draw kind', () => mutate(pick, (j) => (j.draw.kind = 'lottery')), 'INVALID_FIELD', '$.draw.kind'],
    ['range min with a leading zero', () => mutate(range, (j) => (j.draw.min = '01')), 'INVALID_FIELD', '$.draw.min'],
    ['range min "-0"', () => mutate(range, (j) => (j.draw.min = '-0')), 'INVALID_FIELD', '$.draw.min'],
    ['range min a number', () => mutate(range, (j) => (j.draw.min = -5)), 'INVALID_FIELD', '$.draw.min'],
    ['range max "+7"', () => mutate(range, (j) => (j.draw.max = '+7')), 'INVALID_FIELD', '$.draw.max'],
    ['range distinct a string', () => mutate(range, (j) => (j.draw.distinct = 'true')), 'INVALID_FIELD', '$.draw.distinct'],
    ['range max below min', () => mutate(range, (j) => (j.draw.max = '-6')), 'INVALID_DRAW', '$.draw.max'],
    ['beacon not a name', () => mutate(pick, (j) => (j.beacon = 'x')), 'INVALID_BEACON_NAME', '$.beacon'],
    ['label a number', () => mutate(pick, (j) => (j.label = 1)), 'INVALID_FIELD', '$.label'],
    ['label over 1024 bytes', () => mutate(pick, (j) => (j.label = 'é'.repeat(513))), 'INVALID_COMMITMENT', '$.label'],
    ['an array', () => [], 'INVALID_FIELD', '$'],
    ['not JSON', () => '{"version":1,', 'INVALID_JSON', '$'],
    ['root with "=" padding (text)', () => JSON.stringify(pick.json).replace(/"bytes":"([A-Za-z0-9+/]{43})"/, '"bytes":"$1="'), 'NON_CANONICAL_BYTES', '$.participants.root'],
    ['root with "=" padding (value)', () => mutate(pick, (j) => (j.participants.root['/'].bytes += '=')), 'NON_CANONICAL_BYTES', '$.participants.root'],
    ['root with non-zero trailing bits', () => mutate(pick, (j) => (j.participants.root['/'].bytes = (j.participants.root['/'].bytes as string).slice(0, 42) + 'B')), 'INVALID_COMMITMENT', '$'],
    ['target written 8.0', () => JSON.stringify(pick.json).replace(/"target":([0-9]+)/, '"target":$1.0'), 'NON_CANONICAL_NUMBER', '$.target'],
    ['version written 1e0', () => JSON.stringify(pick.json).replace('"version":1', '"version":1e0'), 'NON_CANONICAL_NUMBER', '$.version'],
    ['a byte order mark (bytes)', () => new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(JSON.stringify(pick.json))]), 'UNEXPECTED_BOM', '$'],
    ['a malformed link', () => mutate(pick, (j) => (j.after.block = { '/': 'not-a-cid' })), 'INVALID_COMMITMENT', '$'],
    ['invalid UTF-8 bytes', () => new Uint8Array([0x7b, 0xff, 0x7d]), 'INVALID_UTF8', '$'],
  ]
  it.each(cases)('%s → ParseError', (_name, input, code, path) => {
    const err = thrown(() => parseCommitment(input()))
    expect(err).toBeInstanceOf(ParseError)
    expect({ code: err.code, path: err.path }).toEqual({ code, path })
  })

  it('unsupported versions → UnsupportedVersionError at $.version', () => {
    for (const version of [0, 3, 1.5, '1', null]) {
      const err = thrown(() => parseCommitment({ ...pick.json, version }))
      expect(err).toBeInstanceOf(UnsupportedVersionError)
      expect({ code: err.code, path: err.path }).toEqual({ code: 'UNSUPPORTED_VERSION', path: '$.version' })
    }
  })

  it('version 2 (a mixed draw) needs its drand round, and version 1 cannot name one', () => {
    const v2 = thrown(() => parseCommitment({ ...pick.json, version: 2 }))
    expect({ code: v2.code, path: v2.path }).toEqual({ code: 'INVALID_COMMITMENT', path: '$.drand' })
    const v1 = thrown(() => parseCommitment({ ...pick.json, drand: { chain: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971', round: 7, ifMissing: 'void' } }))
    expect({ code: v1.code, path: v1.path }).toEqual({ code: 'INVALID_COMMITMENT', path: '$.drand' })
    const rule = thrown(() => parseCommitment({ ...pick.json, version: 2, drand: { chain: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971', round: 7, ifMissing: 'substitute' } }))
    expect(rule.path).toBe('$.drand.ifMissing')
  })

  it('drawFromBlock refuses a typed commitment with an unknown version', () => {
    const c = { ...pick.commitment, version: 3 }
    expect(() => drawFromBlock(c, PEOPLE, chain[5]!)).toThrow(UnsupportedVersionError)
  })
})
