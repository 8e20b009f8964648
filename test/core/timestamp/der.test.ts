/**
 * The core's own DER reader (src/core/timestamp/der.ts) against the `asn1js`-based reader it replaced
 * (kept here as the reference, `asn1js` being still a dependency of the emulator): on the real tokens,
 * responses and roots the trees are identical, and so are every OBJECT IDENTIFIER and time read from
 * them; on generated DER both agree; on mutated input the new reader accepts nothing the old one
 * refused, and what it accepts reads the same. Then its DER rules, one refusal at a time.
 */
import * as asn1js from 'asn1js'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { base64ToBytes } from '../../../src/core/bytes.js'
import { decodeDer, DerError, oid, time, type Der, type TagClass } from '../../../src/core/timestamp/der.js'
import { DIGICERT_ASSURED_ID_ROOT_CA_PEM, DIGICERT_TRUSTED_ROOT_G4_PEM, USERTRUST_RSA_CERTIFICATION_AUTHORITY_PEM } from '../../../src/core/timestamp/roots.js'

// ---- the reference: the reader as it was on asn1js (same checks, same tree, same value decoders) ----

interface OldDer extends Omit<Der, 'children'> {
  readonly children: readonly OldDer[]
  readonly block: asn1js.AsnType
}
const CLASSES: readonly TagClass[] = ['universal', 'application', 'context', 'private']

function oldDecode(bytes: Uint8Array, where: string, maxNodes = 10_000): OldDer {
  if (bytes.length === 0) throw new DerError(where, 'empty input')
  const copy = bytes.slice()
  const decoded = asn1js.fromBER(copy)
  if (decoded.offset === -1 || decoded.result.error !== '') throw new DerError(where, 'not valid DER')
  if (decoded.offset !== copy.length) throw new DerError(where, 'trailing bytes')
  const budget = { left: maxNodes }
  return convert(decoded.result, where, budget)
}

function convert(block: asn1js.AsnType, where: string, budget: { left: number }): OldDer {
  if (--budget.left < 0) throw new DerError(where, 'too many ASN.1 nodes')
  const base = block as asn1js.BaseBlock
  const id = base.idBlock
  const raw = base.valueBeforeDecodeView
  if (base.lenBlock.isIndefiniteForm) throw new DerError(where, 'indefinite length (BER, not DER)')
  const headerLength = base.lenBlock.blockLength + id.blockLength
  const cls = CLASSES[id.tagClass - 1]
  if (cls === undefined) throw new DerError(where, 'unknown tag class')
  const children: OldDer[] = []
  if (id.isConstructed) {
    const value = (base.valueBlock as unknown as { value?: asn1js.AsnType[] }).value
    if (!Array.isArray(value)) throw new DerError(where, 'constructed value without children')
    value.forEach((child, i) => children.push(convert(child, `${where}[${i}]`, budget)))
  }
  return { cls, tag: id.tagNumber, constructed: id.isConstructed, raw, content: raw.subarray(headerLength), children, where, block }
}

function oldOid(n: OldDer): string {
  const value = (n.block as asn1js.ObjectIdentifier).getValue()
  if (value === '') throw new Error('not an OID')
  return value
}

function oldTimeMs(n: OldDer): number {
  return (n.block as asn1js.UTCTime).toDate().getTime()
}

// ---- comparison ----

function sameTree(a: Der, b: OldDer): void {
  expect({ cls: a.cls, tag: a.tag, constructed: a.constructed, where: a.where, n: a.children.length }).toEqual({ cls: b.cls, tag: b.tag, constructed: b.constructed, where: b.where, n: b.children.length })
  expect(Buffer.from(a.raw).equals(Buffer.from(b.raw))).toBe(true)
  expect(Buffer.from(a.content).equals(Buffer.from(b.content))).toBe(true)
  if (a.cls === 'universal' && a.tag === 6 && !a.constructed) expect(oid(a, a.where, 'x')).toBe(oldOid(b))
  if (a.cls === 'universal' && (a.tag === 23 || a.tag === 24) && !a.constructed) {
    let mine: number | string
    try {
      mine = time(a, a.where, 'x').ms
    } catch {
      mine = 'refused'
    }
    // The accessor refuses non-DER times itself; an accepted one means what asn1js made of it.
    if (mine !== 'refused') expect(mine).toBe(oldTimeMs(b))
  }
  a.children.forEach((c, i) => sameTree(c, b.children[i]!))
}

const pemDer = (pem: string): Uint8Array => base64ToBytes(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''))
const pub = JSON.parse(readFileSync(new URL('../../vectors/timestamps-public.json', import.meta.url), 'utf8')) as { responses: Record<string, string>; globalSignRootPem: string }
const vec = JSON.parse(readFileSync(new URL('../../vectors/timestamps.json', import.meta.url), 'utf8')) as { rootPem: string; vectors: { name: string; token: string }[] }

const CORPUS: [string, Uint8Array][] = [
  ...Object.entries(pub.responses).map(([k, b64]): [string, Uint8Array] => [`${k} response`, base64ToBytes(b64)]),
  ...vec.vectors.map((v): [string, Uint8Array] => [`vector ${v.name}`, base64ToBytes(v.token)]),
  ['GlobalSign root', pemDer(pub.globalSignRootPem)],
  ['vectors root', pemDer(vec.rootPem)],
  ['DigiCert Trusted Root G4', pemDer(DIGICERT_TRUSTED_ROOT_G4_PEM)],
  ['DigiCert Assured ID Root CA', pemDer(DIGICERT_ASSURED_ID_ROOT_CA_PEM)],
  ['USERTrust RSA', pemDer(USERTRUST_RSA_CERTIFICATION_AUTHORITY_PEM)],
]

/** Every embedded DER value the time-stamp code decodes again (OCTET STRING and BIT STRING contents that are DER). */
function embedded(n: Der, out: Uint8Array[] = []): Uint8Array[] {
  if (!n.constructed && n.cls === 'universal' && (n.tag === 4 || n.tag === 3)) {
    const inner = n.tag === 3 ? n.content.subarray(1) : n.content
    try {
      if (inner.length > 0) {
        decodeDer(inner, 'inner')
        out.push(inner)
      }
    } catch {
      // not DER inside: a signature, a digest
    }
  }
  for (const c of n.children) embedded(c, out)
  return out
}

describe('the DER reader against the asn1js reader it replaced', () => {
  it('reads the real responses, tokens and roots (and the DER inside them) exactly as before', () => {
    let nested = 0
    for (const [name, bytes] of CORPUS) {
      const tree = decodeDer(bytes, 'x')
      sameTree(tree, oldDecode(bytes, 'x'))
      for (const inner of embedded(tree)) {
        sameTree(decodeDer(inner, 'y'), oldDecode(inner, 'y'))
        nested++
      }
      expect(tree.raw.length, name).toBe(bytes.length)
    }
    expect(nested).toBeGreaterThan(20)
  })

  it('never accepts a mutated input the old reader refused, and reads what it accepts the same', () => {
    let accepted = 0
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.nat(255) }),
      fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), byte: fc.constant(0) }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), byte: fc.nat(255) }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), byte: fc.constant(0) }),
    )
    fc.assert(
      fc.property(fc.nat(CORPUS.length - 1), fc.array(mutation, { minLength: 1, maxLength: 3 }), (which, ms) => {
        let b = Array.from(CORPUS[which]![1])
        for (const m of ms) {
          const at = m.at % (b.length + 1)
          if (m.kind === 'set' && at < b.length) b[at] = m.byte
          else if (m.kind === 'cut') b = b.slice(0, at)
          else if (m.kind === 'insert') b.splice(at, 0, m.byte)
          else if (m.kind === 'delete') b.splice(at, 1)
        }
        const bytes = Uint8Array.from(b)
        let mine: Der
        try {
          mine = decodeDer(bytes, 'm')
        } catch (e) {
          expect(e).toBeInstanceOf(DerError)
          return
        }
        accepted++
        sameTree(mine, oldDecode(bytes, 'm'))
      }),
      { seed: 3161, numRuns: 600 },
    )
    // Mutations inside values (signatures, serial numbers, names) keep the DER valid: the property is not vacuous.
    expect(accepted).toBeGreaterThan(30)
  })

  // Generated DER: every universal type the checks read, context tags, lengths in every form.
  const len = (n: number): number[] => (n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff])
  const tlv = (id: number, content: number[]): number[] => [id, ...len(content.length), ...content]
  const integerContent = (v: bigint): number[] => {
    const out: number[] = []
    let x = v
    for (;;) {
      out.unshift(Number(BigInt.asUintN(8, x)))
      x >>= 8n
      if ((x === 0n && (out[0]! & 0x80) === 0) || (x === -1n && (out[0]! & 0x80) !== 0)) return out
    }
  }
  const base128 = (v: bigint): number[] => {
    const out = [Number(v & 0x7fn)]
    for (let x = v >> 7n; x > 0n; x >>= 7n) out.unshift(Number(x & 0x7fn) | 0x80)
    return out
  }
  const two = (n: number): string => String(n).padStart(2, '0')
  const leaf = fc.oneof(
    fc.bigInt({ min: -(2n ** 130n), max: 2n ** 130n }).map((v) => tlv(0x02, integerContent(v))),
    fc.uint8Array({ maxLength: 300 }).map((b) => tlv(0x04, [...b])),
    fc.string({ maxLength: 40 }).map((s) => tlv(0x0c, [...new TextEncoder().encode(s)])),
    fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 39 }), fc.array(fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }), { maxLength: 6 })).map(([a, b, rest]) => tlv(0x06, [...base128(BigInt(a * 40 + b)), ...rest.flatMap(base128)])),
    fc.boolean().map((v) => tlv(0x01, [v ? 0xff : 0])),
    fc.constant(tlv(0x05, [])),
    fc.tuple(fc.integer({ min: 0, max: 7 }), fc.uint8Array({ minLength: 1, maxLength: 80 })).map(([u, b]) => tlv(0x03, [u, ...b])),
    fc.date({ min: new Date(Date.UTC(1950, 0, 1)), max: new Date(Date.UTC(2049, 11, 31)), noInvalidDate: true }).map((d) => tlv(0x17, [...`${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}Z`].map((c) => c.charCodeAt(0)))),
    fc.tuple(fc.date({ min: new Date(Date.UTC(1, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }), fc.stringMatching(/^(\.\d{0,5}[1-9])?$/)).map(([d, f]) => tlv(0x18, [...`${String(d.getUTCFullYear()).padStart(4, '0')}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}${f}Z`].map((c) => c.charCodeAt(0)))),
    fc.tuple(fc.integer({ min: 0, max: 30 }), fc.uint8Array({ maxLength: 20 })).map(([n, b]) => tlv(0x80 | n, [...b])),
  )
  const { tree } = fc.letrec<{ tree: number[] }>((tie) => ({
    tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.tuple(fc.constantFrom(0x30, 0x31, 0xa0, 0xa3), fc.array(tie('tree'), { maxLength: 5 })).map(([id, kids]) => tlv(id, kids.flat()))),
  }))

  it('reads generated DER exactly as the old reader (every OID and time included)', () => {
    fc.assert(
      fc.property(tree, (b) => {
        const bytes = Uint8Array.from(b)
        sameTree(decodeDer(bytes, 'g'), oldDecode(bytes, 'g'))
      }),
      { seed: 3162, numRuns: 400 },
    )
  })
})

describe('DER rules', () => {
  const refused = (hex: string, what: RegExp): void => {
    expect(() => decodeDer(Uint8Array.from(Buffer.from(hex, 'hex')), 'x')).toThrow(what)
  }

  it('refuses BER and malformed encodings by name', () => {
    refused('', /empty input/)
    refused('3080020100' + '0000', /indefinite length/)
    refused('04ff', /0xFF is reserved/)
    refused('0481050102030405', /shortest form/) // long form for a short length
    refused('048200050102030405', /shortest form/) // leading zero length octet
    refused('0485' + '0000000001' + '00', /length too large/)
    refused('0405010203', /end of input before the end of the value/)
    refused('3003020101' + '00', /trailing byte/)
    refused('2403040100', /constructed encoding of universal type 4/) // constructed OCTET STRING
    refused('2203000000', /constructed encoding of universal type 2|universal type 3/)
    refused('050100', /NULL with content/)
    refused('030208ff', /unused-bits count over 7/)
    refused('0600', /empty OBJECT IDENTIFIER/)
    refused('06022a86', /ends inside a sub-identifier/)
    refused('0000', /end-of-contents/)
    refused('1f0500', /tag number not in its shortest form/) // high form for tag 5
    refused('1f800100', /tag number not in its shortest form/)
    refused('1f' + '8181818101' + '00', /tag number too large/)
    refused('3003' + '0201', /end of input before the end of the value/)
    refused('170d' + Buffer.from('ab0101000000Z').toString('hex'), /not a DER time/) // a bare malformed time (asn1js refused it too)
  })

  it('refuses a time whose fields are out of range instead of rolling it over into another date', () => {
    const node = (tag: number, text: string): Der => decodeDer(Uint8Array.from([tag, text.length, ...Buffer.from(text, 'latin1')]), 'x')
    const gen = (text: string): number => time(node(0x18, text), 'x', 't').ms
    const utc = (text: string): number => time(node(0x17, text), 'x', 't').ms
    for (const bad of ['20261301000000Z', '20260001000000Z', '20260431000000Z', '20250229000000Z', '20260100000000Z', '20260101240000Z', '20260101006000Z', '20260101000060Z']) {
      expect(() => gen(bad), bad).toThrow(/not a valid date/)
    }
    expect(() => utc('261301000000Z')).toThrow(/not a valid date/)
    expect(() => utc('260230000000Z')).toThrow(/not a valid date/)
    expect(gen('20240229235959.999Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 999))
    expect(gen('20001231000000Z')).toBe(Date.UTC(2000, 11, 31))
    expect(utc('491231235959Z')).toBe(Date.UTC(2049, 11, 31, 23, 59, 59))
    expect(utc('500101000000Z')).toBe(Date.UTC(1950, 0, 1))
    // a four-digit year under 100 is that year, not 19xx
    expect(new Date(gen('00500101000000Z')).getUTCFullYear()).toBe(50)
  })

  it('bounds its work by maxNodes', () => {
    const nested = Uint8Array.from(Buffer.from('3006300430023000', 'hex'))
    expect(() => decodeDer(nested, 'x', 3)).toThrow(/too many ASN.1 nodes/)
    expect(decodeDer(nested, 'x', 4).children[0]!.children[0]!.children[0]!.tag).toBe(16)
  })

  it('reads OIDs with big arcs and the first arc over 79 (2.x), and refuses a sub-identifier starting 0x80', () => {
    const o = (hex: string): string => oid(decodeDer(Uint8Array.from(Buffer.from(hex, 'hex')), 'x'), 'x', 'o')
    expect(o('06092a864886f70d010101')).toBe('1.2.840.113549.1.1.1')
    expect(o('0603550403')).toBe('2.5.4.3')
    expect(o('06028837')).toBe('2.999')
    expect(o('060c6981' + 'ffffffffffffffffff7f').slice(0, 5)).toBe('2.25.')
    expect(() => o('06032a8001')).toThrow(/not a valid OBJECT IDENTIFIER/)
  })

  it('keeps its own copy: later writes to the input do not change the tree', () => {
    const input = Uint8Array.from(Buffer.from('0403010203', 'hex'))
    const n = decodeDer(input, 'x')
    input[2] = 9
    expect([...n.content]).toEqual([1, 2, 3])
  })
})
