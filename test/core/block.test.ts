/**
 * Beacon blocks: real-format bytes (Go `encoding/json`, compact), the content-address check first,
 * then strict parsing that names the path of the first bad field.
 */
import { describe, expect, it } from 'vitest'
import { sha256 } from '@noble/hashes/sha2.js'
import { sha512 } from '@noble/hashes/sha2.js'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { create as createDigest } from 'multiformats/hashes/digest'
import { base58btc } from 'multiformats/bases/base58'
import { blockCid, encodeBlock, parseBlock, parseCid, sameContent } from '../../src/core/block.js'
import { IntegrityError, LimitExceededError, OrbitdrawError, ParseError } from '../../src/core/errors.js'
import { LIMITS } from '../../src/core/limits.js'
import { buildChain, fakeCtrng, flipByte, GENESIS_METADATA, rawBlock } from '../helpers/chain.js'

const enc = new TextEncoder()
const v0Of = (cid: string): string => CID.createV0(CID.parse(cid).multihash as Parameters<typeof CID.createV0>[0]).toString()
const chain = buildChain(4, 'block-test')
const genesis = chain[0]!
const b1 = chain[1]!
const b2 = chain[2]!
const V = [0, 1, 2].map((i) => fakeCtrng('block-test-values', i))

/** The exact real-format text of a non-genesis block. */
function blockText(previous: string, sequence: number, timestamp: number, ctrng: readonly string[]): string {
  return `{"previous":"/ipfs/${previous}","data":{"sequence":${sequence},"timestamp":${timestamp},"ctrng":[${ctrng.map((v) => `"${v}"`).join(',')}]}}`
}

/** Parses hand-written text under its own (correct) CID and returns the thrown error. */
function errorOf(text: string | Uint8Array): OrbitdrawError {
  const { bytes, cid } = rawBlock(text)
  try {
    parseBlock(bytes, cid)
  } catch (err) {
    expect(err).toBeInstanceOf(OrbitdrawError)
    return err as OrbitdrawError
  }
  throw new Error('parseBlock accepted a malformed block')
}

describe('real-format blocks', () => {
  it('encodeBlock writes Go-compact JSON with keys in publisher order', () => {
    const text = new TextDecoder().decode(b2.bytes)
    expect(text).toBe(blockText(b1.cid, 2, b2.timestamp, b2.ctrng))
    expect(text).not.toMatch(/\s/)
  })

  it('a hand-written non-genesis block parses into every field', () => {
    const text = blockText(b1.cid, 2, 1_760_000_120, V)
    const { bytes, cid } = rawBlock(text)
    expect(cid).toMatch(/^bafkrei[a-z2-7]{52}$/)
    const b = parseBlock(bytes, cid)
    expect(b.cid).toBe(cid)
    expect(b.bytes).toBe(bytes)
    expect(b.previous).toBe(b1.cid)
    expect(b.sequence).toBe(2)
    expect(b.timestamp).toBe(1_760_000_120)
    expect(b.ctrng).toEqual(V)
    expect(b.values.map((v) => Buffer.from(v).toString('hex'))).toEqual(V)
    expect(b.values.every((v) => v.length === 32)).toBe(true)
    expect(b.metadata).toBeUndefined()
    expect(Object.isFrozen(b)).toBe(true)
  })

  it('the CID is CIDv1 raw sha2-256 of the exact bytes', () => {
    const { bytes, cid } = rawBlock(blockText(b1.cid, 2, 7, V))
    const parsed = CID.parse(cid)
    expect(parsed.version).toBe(1)
    expect(parsed.code).toBe(0x55)
    expect(parsed.multihash.code).toBe(0x12)
    expect(Buffer.from(parsed.multihash.digest)).toEqual(Buffer.from(sha256(bytes)))
    expect(blockCid(bytes)).toBe(cid)
  })

  it('genesis: sequence 0, empty previous, empty ctrng, metadata kept', () => {
    const text = `{"previous":"","data":{"sequence":0,"timestamp":1760000000,"ctrng":[]},"metadata":${JSON.stringify(GENESIS_METADATA)}}`
    expect(new TextDecoder().decode(genesis.bytes)).toBe(text)
    const g = parseBlock(genesis.bytes, genesis.cid)
    expect(g.previous).toBeNull()
    expect(g.sequence).toBe(0)
    expect(g.ctrng).toEqual([])
    expect(g.values).toEqual([])
    expect(g.metadata).toEqual(GENESIS_METADATA)
  })

  it('genesis without a previous key and without ctrng parses too', () => {
    const b = parseBlock(...Object.values(rawBlock('{"data":{"sequence":0,"timestamp":1}}')) as [Uint8Array, string])
    expect(b.previous).toBeNull()
    expect(b.ctrng).toEqual([])
  })

  it('a non-genesis block without ctrng parses with no values (a draw later refuses it)', () => {
    const b = parseBlock(...Object.values(rawBlock(`{"previous":"/ipfs/${b1.cid}","data":{"sequence":2,"timestamp":1}}`)) as [Uint8Array, string])
    expect(b.values).toEqual([])
  })

  it('uppercase hex ctrng values are accepted and decoded', () => {
    const upper = V.map((v) => v.toUpperCase())
    const { bytes, cid } = rawBlock(blockText(b1.cid, 2, 1, upper))
    const b = parseBlock(bytes, cid)
    expect(b.ctrng).toEqual(upper)
    expect(b.values.map((v) => Buffer.from(v).toString('hex'))).toEqual(V)
  })

  it('the chain links: previous is the CID of the block before', () => {
    for (let i = 1; i < chain.length; i++) {
      expect(chain[i]!.previous).toBe(chain[i - 1]!.cid)
      expect(chain[i]!.sequence).toBe(i)
    }
  })
})

describe('content address is checked first', () => {
  it('one flipped byte anywhere → IntegrityError BLOCK_CID_MISMATCH', () => {
    for (const index of [0, 1, 20, Math.floor(b2.bytes.length / 2), b2.bytes.length - 1]) {
      const bad = flipByte(b2.bytes, index)
      let err: unknown
      try {
        parseBlock(bad, b2.cid)
      } catch (e) {
        err = e
      }
      expect(err, `byte ${index}`).toBeInstanceOf(IntegrityError)
      expect((err as IntegrityError).code).toBe('BLOCK_CID_MISMATCH')
    }
  })

  it('the hash is checked before parsing: garbage under the wrong CID is a mismatch, not a parse error', () => {
    for (const text of ['not json', '\xff\xfe', '{"data":{"sequence":"x"}}']) {
      expect(() => parseBlock(enc.encode(text), b2.cid)).toThrow(expect.objectContaining({ code: 'BLOCK_CID_MISMATCH' }))
    }
  })

  it('bytes of another block → BLOCK_CID_MISMATCH', () => {
    expect(() => parseBlock(b1.bytes, b2.cid)).toThrow(IntegrityError)
  })

  it('one trailing byte (e.g. a newline) changes the hash', () => {
    const bad = new Uint8Array([...b2.bytes, 0x0a])
    expect(() => parseBlock(bad, b2.cid)).toThrow(expect.objectContaining({ code: 'BLOCK_CID_MISMATCH' }))
  })

  it('a v0 Qm… CID with the same multihash is accepted; the parsed CID is canonical v1', () => {
    const v0 = v0Of(b2.cid)
    expect(v0).toMatch(/^Qm/)
    const b = parseBlock(b2.bytes, v0)
    expect(b.cid).toBe(b2.cid)
    expect(sameContent(v0, b2.cid)).toBe(true)
    // also as a CID object and as a base58btc v1 string
    expect(parseBlock(b2.bytes, CID.parse(v0)).cid).toBe(b2.cid)
    expect(parseBlock(b2.bytes, CID.parse(b2.cid).toString(base58btc)).cid).toBe(b2.cid)
  })

  it('a v0 CID of other content is still a mismatch', () => {
    const v0 = v0Of(b1.cid)
    expect(() => parseBlock(b2.bytes, v0)).toThrow(expect.objectContaining({ code: 'BLOCK_CID_MISMATCH' }))
  })

  it('a CID with another codec but the same sha2-256 digest is accepted (only the digest is compared)', () => {
    const dagPb = CID.createV1(0x70, CID.parse(b2.cid).multihash).toString()
    expect(parseBlock(b2.bytes, dagPb).cid).toBe(b2.cid)
  })

  it('a non-sha256 CID is rejected with ParseError UNSUPPORTED_HASH (string and CID object)', () => {
    const mh512 = createDigest(0x13, sha512(b2.bytes))
    const cid512 = CID.createV1(raw.code, mh512)
    expect(() => parseBlock(b2.bytes, cid512.toString())).toThrow(expect.objectContaining({ name: 'ParseError', code: 'UNSUPPORTED_HASH' }))
    expect(() => parseBlock(b2.bytes, cid512)).toThrow(expect.objectContaining({ name: 'ParseError', code: 'UNSUPPORTED_HASH' }))
    const identity = CID.createV1(raw.code, createDigest(0x00, b2.bytes.slice(0, 32)))
    expect(() => parseBlock(b2.bytes, identity.toString())).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_HASH' }))
  })

  it('an unparseable CID string → ParseError INVALID_CID', () => {
    for (const bad of ['', 'bafkrei', 'not a cid', `${b2.cid}x`]) {
      expect(() => parseBlock(b2.bytes, bad), bad).toThrow(expect.objectContaining({ name: 'ParseError', code: 'INVALID_CID' }))
    }
  })

  it('parseCid names the path it was given', () => {
    expect(() => parseCid('nope', '$.x')).toThrow(expect.objectContaining({ path: '$.x' }))
  })

  it('non-Uint8Array bytes → InvalidInputError', () => {
    expect(() => parseBlock('{}' as unknown as Uint8Array, b2.cid)).toThrow(expect.objectContaining({ code: 'INVALID_BLOCK_BYTES' }))
  })
})

describe('unknown fields are tolerated', () => {
  it('extra top-level, data and metadata fields', () => {
    const text = `{"previous":"/ipfs/${b1.cid}","data":{"sequence":2,"timestamp":5,"ctrng":["${V[0]}"],"signature":"abc","extra":{"x":[1,2]}},"version":"2","future":null}`
    const { bytes, cid } = rawBlock(text)
    const b = parseBlock(bytes, cid)
    expect(b.sequence).toBe(2)
    expect(b.ctrng).toEqual([V[0]])
  })

  it('keys in another order and whitespace are fine: the bytes are hashed, never re-serialized', () => {
    const text = `{ "data" : { "ctrng" : [ "${V[0]}" ], "timestamp": 5, "sequence": 2 },\n "previous": "/ipfs/${b1.cid}" }`
    const { bytes, cid } = rawBlock(text)
    const b = parseBlock(bytes, cid)
    expect(b.cid).toBe(cid)
    expect(b.bytes).toEqual(bytes)
    expect(b.previous).toBe(b1.cid)
  })

  it('a v0 previous link is accepted (kept as written; links compare by multihash)', () => {
    const v0 = v0Of(b1.cid)
    const { bytes, cid } = rawBlock(`{"previous":"/ipfs/${v0}","data":{"sequence":2,"timestamp":5,"ctrng":["${V[0]}"]}}`)
    const previous = parseBlock(bytes, cid).previous!
    expect(previous).toBe(v0)
    expect(sameContent(previous, b1.cid)).toBe(true)
  })
})

describe('malformed blocks → ParseError with the path of the first bad field', () => {
  const prev = `"/ipfs/${b1.cid}"`
  const data = (inner: string): string => `{"previous":${prev},"data":{${inner}}}`
  const good = `"sequence":2,"timestamp":5`
  const cases: [name: string, text: string, code: string, path: string][] = [
    ['sequence is a float', data(`"sequence":2.5,"timestamp":5,"ctrng":[]`), 'INVALID_FIELD', '$.data.sequence'],
    ['sequence is a string', data(`"sequence":"2","timestamp":5,"ctrng":[]`), 'INVALID_FIELD', '$.data.sequence'],
    ['sequence is negative', data(`"sequence":-1,"timestamp":5,"ctrng":[]`), 'INVALID_FIELD', '$.data.sequence'],
    ['sequence is past 2^53', data(`"sequence":9007199254740993,"timestamp":5,"ctrng":[]`), 'INVALID_FIELD', '$.data.sequence'],
    ['sequence is missing', data(`"timestamp":5,"ctrng":[]`), 'MISSING_FIELD', '$.data.sequence'],
    ['sequence is null', data(`"sequence":null,"timestamp":5,"ctrng":[]`), 'INVALID_FIELD', '$.data.sequence'],
    ['timestamp is a float', data(`"sequence":2,"timestamp":1.5,"ctrng":[]`), 'INVALID_FIELD', '$.data.timestamp'],
    ['timestamp is missing', data(`"sequence":2,"ctrng":[]`), 'MISSING_FIELD', '$.data.timestamp'],
    ['ctrng is not an array', data(`${good},"ctrng":"${V[0]}"`), 'INVALID_FIELD', '$.data.ctrng'],
    ['ctrng value has 63 hex digits', data(`${good},"ctrng":["${V[0]}","${V[1]!.slice(1)}"]`), 'INVALID_FIELD', '$.data.ctrng[1]'],
    ['ctrng value has 65 hex digits', data(`${good},"ctrng":["${V[0]}0"]`), 'INVALID_FIELD', '$.data.ctrng[0]'],
    ['ctrng value has a non-hex digit', data(`${good},"ctrng":["${V[0]}","${V[1]}","${V[2]!.slice(0, 63)}g"]`), 'INVALID_FIELD', '$.data.ctrng[2]'],
    ['ctrng value is 0x-prefixed', data(`${good},"ctrng":["0x${V[0]!.slice(2)}"]`), 'INVALID_FIELD', '$.data.ctrng[0]'],
    ['ctrng value is a number', data(`${good},"ctrng":[12]`), 'INVALID_FIELD', '$.data.ctrng[0]'],
    ['data is missing', `{"previous":${prev}}`, 'MISSING_FIELD', '$.data'],
    ['data is an array', `{"previous":${prev},"data":[]}`, 'INVALID_FIELD', '$.data'],
    ['the document is an array', '[]', 'INVALID_FIELD', '$'],
    ['the document is a string', '"block"', 'INVALID_FIELD', '$'],
    ['previous is not /ipfs/', `{"previous":"${b1.cid}","data":{${good},"ctrng":[]}}`, 'INVALID_FIELD', '$.previous'],
    ['previous is /ipns/', `{"previous":"/ipns/${b1.cid}","data":{${good},"ctrng":[]}}`, 'INVALID_FIELD', '$.previous'],
    ['previous is a path inside a CID', `{"previous":"/ipfs/${b1.cid}/x","data":{${good},"ctrng":[]}}`, 'INVALID_FIELD', '$.previous'],
    ['previous is not a CID', `{"previous":"/ipfs/hello","data":{${good},"ctrng":[]}}`, 'INVALID_CID', '$.previous'],
    ['previous is a number', `{"previous":1,"data":{${good},"ctrng":[]}}`, 'INVALID_FIELD', '$.previous'],
    ['previous is not sha2-256', `{"previous":"/ipfs/${CID.createV1(raw.code, createDigest(0x13, sha512(enc.encode('x'))))}","data":{${good},"ctrng":[]}}`, 'UNSUPPORTED_HASH', '$.previous'],
    ['non-genesis with empty previous', `{"previous":"","data":{${good},"ctrng":["${V[0]}"]}}`, 'MISSING_PREVIOUS', '$.previous'],
    ['non-genesis without previous', `{"data":{${good},"ctrng":["${V[0]}"]}}`, 'MISSING_PREVIOUS', '$.previous'],
    ['genesis with a previous link', `{"previous":${prev},"data":{"sequence":0,"timestamp":5,"ctrng":[]}}`, 'UNEXPECTED_PREVIOUS', '$.previous'],
    ['metadata is not an object', `{"previous":"","data":{"sequence":0,"timestamp":5,"ctrng":[]},"metadata":"x"}`, 'INVALID_FIELD', '$.metadata'],
    ['invalid JSON', `{"previous":${prev},"data":{${good},}}`, 'INVALID_JSON', '$'],
    ['empty bytes', '', 'INVALID_JSON', '$'],
    ['a byte-order mark in front', `\ufeff{"previous":"","data":{"sequence":0,"timestamp":5}}`, 'INVALID_JSON', '$'],
  ]
  it.each(cases)('%s', (_name, text, code, path) => {
    const err = errorOf(text)
    expect(err).toBeInstanceOf(ParseError)
    expect({ code: err.code, path: err.path }).toEqual({ code, path })
    expect(err.hint.length).toBeGreaterThan(0)
  })

  it('invalid UTF-8 → ParseError INVALID_UTF8 at $', () => {
    const text = enc.encode(`{"previous":"","data":{"sequence":0,"timestamp":5,"ctrng":[]},"metadata":{"name":"__"}}`)
    const i = text.indexOf(0x5f)
    const bad = text.slice()
    bad[i] = 0xc3 // lead byte of a 2-byte sequence…
    bad[i + 1] = 0x28 // …followed by a non-continuation byte
    const err = errorOf(bad)
    expect(err).toBeInstanceOf(ParseError)
    expect(err.code).toBe('INVALID_UTF8')
    expect(err.path).toBe('$')
    // a lone continuation byte and an overlong encoding are refused too
    for (const bytes of [[0x22, 0x80, 0x22], [0x22, 0xc0, 0xaf, 0x22], [0x22, 0xed, 0xa0, 0x80, 0x22]]) {
      expect(errorOf(new Uint8Array(bytes)).code).toBe('INVALID_UTF8')
    }
  })

  it('an oversized block → LimitExceededError, before hashing', () => {
    const big = new Uint8Array(LIMITS.maxBlockBytes + 1).fill(0x20)
    expect(() => parseBlock(big, blockCid(big))).toThrow(LimitExceededError)
    expect(() => parseBlock(big, b1.cid)).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }))
  })

  it('a block of exactly maxBlockBytes is accepted', () => {
    const head = `{"previous":"/ipfs/${b1.cid}","data":{"sequence":2,"timestamp":5,"ctrng":["${V[0]}"]},"pad":"`
    const text = head + 'x'.repeat(LIMITS.maxBlockBytes - head.length - 2) + '"}'
    expect(text.length).toBe(LIMITS.maxBlockBytes)
    const { bytes, cid } = rawBlock(text)
    expect(parseBlock(bytes, cid).sequence).toBe(2)
  })

  it('the first bad field is reported: data before ctrng entries, sequence before timestamp', () => {
    expect(errorOf(data(`"sequence":"x","timestamp":"y","ctrng":[1]`)).path).toBe('$.data.sequence')
    expect(errorOf(data(`"sequence":2,"timestamp":"y","ctrng":[1]`)).path).toBe('$.data.timestamp')
  })
})

describe('encodeBlock', () => {
  it('escapes like Go encoding/json (<, >, & and U+2028/9) in metadata', () => {
    const bytes = encodeBlock({ previous: null, sequence: 0, timestamp: 1, ctrng: [], metadata: { message: '<a&b>\u2028' } })
    expect(new TextDecoder().decode(bytes)).toBe('{"previous":"","data":{"sequence":0,"timestamp":1,"ctrng":[]},"metadata":{"message":"\\u003ca\\u0026b\\u003e\\u2028"}}')
    const b = parseBlock(bytes, blockCid(bytes))
    expect(b.metadata).toEqual({ message: '<a&b>\u2028' })
  })
})

describe('SHA2_256', () => {
  it('is the multihash code of multiformats\' sha256 hasher (a constant in the core so that it does not load node:crypto)', async () => {
    const { sha256: hasher } = await import('multiformats/hashes/sha2')
    const { SHA2_256 } = await import('../../src/core/block.js')
    expect(SHA2_256).toBe(hasher.code)
  })
})
