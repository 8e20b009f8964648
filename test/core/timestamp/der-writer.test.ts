/**
 * The core's DER writer (src/core/timestamp/der-writer.ts): each type against `asn1js` (a devDependency,
 * the encoder the emulator used before) byte for byte, read back with the core's reader, and its refusals.
 * The whole structures (certificates, tokens, requests) are compared in test/emulator/tsa-der.test.ts.
 */
import * as asn1js from 'asn1js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../src/core/bytes.js'
import { bitString, boolean, decodeDer, integer, octets, oid, sequence, set, time } from '../../../src/core/timestamp/der.js'
import {
  derBitString,
  derBoolean,
  derCertificateTime,
  derExplicit,
  derGeneralizedTime,
  derImplicit,
  derInteger,
  derNamedBits,
  derNull,
  derOctetString,
  derOid,
  derSequence,
  derSetOf,
  derTlv,
  derUtf8String,
} from '../../../src/core/timestamp/der-writer.js'

const hex = (b: Uint8Array | ArrayBuffer): string => bytesToHex(b instanceof Uint8Array ? b : new Uint8Array(b))

describe('the DER writer', () => {
  it('INTEGER: minimal two\'s complement, as asn1js writes a non-negative one, and read back by the strict reader', () => {
    for (const v of [0n, 1n, 127n, 128n, 255n, 256n, 2n ** 63n, 2n ** 200n + 1n]) {
      expect(hex(derInteger(v)), String(v)).toBe(hex(asn1js.Integer.fromBigInt(v).toBER()))
    }
    // Negative ones (none is written today): asn1js writes some with a redundant 0xFF (-128 as ff80), which DER forbids.
    expect([-1n, -128n, -129n, -256n, -(2n ** 63n)].map((v) => hex(derInteger(v)))).toEqual(['0201ff', '020180', '0202ff7f', '0202ff00', '02088000000000000000'])
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }), (v) => {
        if (v >= 0n) expect(hex(derInteger(v))).toBe(hex(asn1js.Integer.fromBigInt(v).toBER()))
        expect(integer(decodeDer(derInteger(v), 'i'), 'i', 'i')).toBe(v)
      }),
      { seed: 25, numRuns: 300 },
    )
    expect(hex(derInteger(5))).toBe('020105')
  })

  it('OBJECT IDENTIFIER: as asn1js writes it, and read back; refuses what is not a dotted OID', () => {
    for (const o of ['1.2.840.113549.1.9.16.1.4', '2.16.840.1.101.3.4.2.1', '2.5.4.3', '0.0', '2.999.3', '1.3.6.1.4.1.32473.1', '1.2.18446744073709551616']) {
      expect(hex(derOid(o)), o).toBe(hex(new asn1js.ObjectIdentifier({ value: o }).toBER()))
      expect(oid(decodeDer(derOid(o), 'o'), 'o', 'o')).toBe(o)
    }
    for (const bad of ['', '1', '3.1', '1.40', '0.40', '1.2.', '1..2', '1.02', 'a.b', ' 1.2']) expect(() => derOid(bad), bad).toThrow(RangeError)
  })

  it('lengths in their shortest form (short, one, two and three length octets), as asn1js writes them', () => {
    for (const n of [0, 1, 127, 128, 255, 256, 65535, 65536]) {
      const bytes = new Uint8Array(n).fill(0xab)
      expect(hex(derOctetString(bytes)), String(n)).toBe(hex(new asn1js.OctetString({ valueHex: bytes }).toBER()))
      expect(octets(decodeDer(derOctetString(bytes), 's'), 's', 's')).toEqual(bytes)
    }
  })

  it('SEQUENCE, SET OF in the order of the encodings (X.690 11.6), BOOLEAN, NULL, UTF8String, BIT STRING', () => {
    const a = derInteger(300)
    const b = derInteger(2)
    const c = derOctetString(new Uint8Array([1]))
    expect(hex(derSequence(a, b, c))).toBe(hex(new asn1js.Sequence({ value: [new asn1js.Integer({ value: 300 }), new asn1js.Integer({ value: 2 }), new asn1js.OctetString({ valueHex: new Uint8Array([1]) })] }).toBER()))
    // 020102 < 0202012c < 040101; a prefix sorts first.
    expect(hex(derSetOf(c, a, b))).toBe('310a' + '020102' + '0202012c' + '040101')
    expect(set(decodeDer(derSetOf(c, a, b), 's'), 's', 's').map((n) => hex(n.raw))).toEqual(['020102', '0202012c', '040101'])
    expect(hex(derSetOf(derOctetString(new Uint8Array([1, 2])), derOctetString(new Uint8Array([1]))))).toBe('3107' + '040101' + '04020102')
    expect(hex(derBoolean(true))).toBe(hex(new asn1js.Boolean({ value: true }).toBER()))
    expect(hex(derBoolean(false))).toBe('010100')
    expect(boolean(decodeDer(derBoolean(true), 'b'), 'b', 'b')).toBe(true)
    expect(hex(derNull())).toBe(hex(new asn1js.Null().toBER()))
    expect(hex(derUtf8String('é ✓'))).toBe(hex(new asn1js.Utf8String({ value: 'é ✓' }).toBER()))
    expect(hex(derBitString(new Uint8Array([4, 1, 2])))).toBe(hex(new asn1js.BitString({ valueHex: new Uint8Array([4, 1, 2]) }).toBER()))
    expect(bitString(decodeDer(derBitString(new Uint8Array([9])), 'b'), 'b', 'b')).toEqual({ bytes: new Uint8Array([9]), unused: 0 })
    expect(sequence(decodeDer(derSequence(), 's'), 's', 's')).toEqual([])
  })

  it('named bits drop the trailing zero bits (X.690 11.2.2)', () => {
    expect(hex(derNamedBits([0]))).toBe('03020780') // digitalSignature
    expect(hex(derNamedBits([5, 6]))).toBe('03020106') // keyCertSign, cRLSign
    expect(hex(derNamedBits([7]))).toBe('03020001')
    expect(hex(derNamedBits([8]))).toBe('0303070080')
    expect(hex(derNamedBits([25]))).toBe('030506' + '00000040') // systemFailure
    expect(hex(derNamedBits([]))).toBe('030100')
    for (const bits of [[0], [5, 6], [2, 14, 25]]) {
      const { bytes, unused } = bitString(decodeDer(derNamedBits(bits), 'b'), 'b', 'b')
      const set = [...Array(bytes.length * 8 - unused).keys()].filter((i) => (bytes[i >> 3]! & (0x80 >> (i & 7))) !== 0)
      expect(set).toEqual(bits)
    }
  })

  it('times: GeneralizedTime in whole seconds; a certificate\'s UTCTime through 2049, GeneralizedTime from 2050 and before 1950', () => {
    const t = Date.UTC(2026, 10, 27, 2, 30, 15, 678)
    expect(Buffer.from(decodeDer(derGeneralizedTime(t), 't').content).toString()).toBe('20261127023015Z')
    expect(hex(derGeneralizedTime(t - 678))).toBe(hex(new asn1js.GeneralizedTime({ valueDate: new Date(t - 678) }).toBER()))
    expect(time(decodeDer(derGeneralizedTime(t), 't'), 't', 't').ms).toBe(t - 678)
    expect(hex(derCertificateTime(t - 678))).toBe(hex(new asn1js.UTCTime({ valueDate: new Date(t - 678) }).toBER()))
    expect(Buffer.from(decodeDer(derCertificateTime(Date.UTC(2049, 11, 31, 23, 59, 59)), 't').content).toString()).toBe('491231235959Z')
    expect(Buffer.from(decodeDer(derCertificateTime(Date.UTC(2050, 0, 1)), 't').content).toString()).toBe('20500101000000Z')
    expect(Buffer.from(decodeDer(derCertificateTime(Date.UTC(1949, 11, 31)), 't').content).toString()).toBe('19491231000000Z')
    expect(Buffer.from(decodeDer(derCertificateTime(Date.UTC(1950, 0, 1)), 't').content).toString()).toBe('500101000000Z')
    expect(() => derGeneralizedTime(Number.NaN)).toThrow(RangeError)
    expect(() => derGeneralizedTime(Date.UTC(10000, 0, 1))).toThrow(RangeError)
  })

  it('tags: [n] EXPLICIT wraps, [n] IMPLICIT replaces the tag and keeps the constructed bit; refuses high tag numbers', () => {
    expect(hex(derExplicit(0, derInteger(2)))).toBe('a003020102')
    expect(hex(derExplicit(3, derSequence()))).toBe('a3023000')
    expect(hex(derImplicit(0, derSetOf(derNull())))).toBe('a0020500')
    expect(hex(derImplicit(1, derInteger(7)))).toBe('810107')
    expect(() => derTlv(0x1f, new Uint8Array(0))).toThrow(RangeError)
    expect(() => derTlv(256, new Uint8Array(0))).toThrow(RangeError)
  })
})
