/**
 * The emulator's authority and the time-stamping client write their DER with the core's small writer
 * (src/core/timestamp/der-writer.ts). Here their output is compared byte for byte with the
 * `@peculiar/asn1-*` encoding they replaced (`tsa-reference.ts`, the old builder): certificates, tokens
 * (with and without nonce, certificate and accuracy) and requests; `tsa.test.ts` compares the rejections.
 */
import { AsnConvert, OctetString } from '@peculiar/asn1-schema'
import { MessageImprint, TimeStampReq } from '@peculiar/asn1-tsp'
import { AlgorithmIdentifier } from '@peculiar/asn1-x509'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/core/bytes.js'
import { parseTimestampToken } from '../../src/core/timestamp/token.js'
import { parseTrustAnchor } from '../../src/core/timestamp/anchor.js'
import { createTestTsa, type TestTsaOptions } from '../../src/emulator/tsa.js'
import { timeStampRequest } from '../../src/timestamp/client.js'
import { referenceTestTsa } from './tsa-reference.js'

const hex = (b: Uint8Array): string => bytesToHex(b)
const seed = new TextEncoder().encode('tsa-der cross-check')
const NOW = Date.UTC(2026, 10, 27, 2, 30, 15, 678)

describe('the emulator authority\'s DER against the @peculiar encoding it replaced', () => {
  const variants: [string, TestTsaOptions][] = [
    ['default', {}],
    ['no EKU', { extKeyUsage: 'none' }],
    ['non-critical EKU', { extKeyUsage: 'non-critical' }],
    ['code-signing EKU', { extKeyUsage: 'code-signing' }],
    ['other names, no accuracy', { rootName: 'Root é ✓', tsaName: 'TSA with a name longer than one hundred and twenty-eight bytes, so that the lengths take their long form here and there', accuracySeconds: 0 }],
    ['accuracy of 300 s', { accuracySeconds: 300 }],
    ['validity from 1999 to 2051 (UTCTime, then GeneralizedTime)', { notBefore: Date.UTC(1999, 0, 1), notAfter: Date.UTC(2051, 5, 1, 12) }],
  ]
  for (const [name, o] of variants) {
    it(`certificates and tokens are the same bytes (${name})`, () => {
      const options = { seed, now: () => NOW, ...o }
      const mine = createTestTsa(options)
      const ref = referenceTestTsa(options)
      expect(hex(mine.rootDer)).toBe(hex(ref.rootDer))
      expect(hex(mine.tsaCertDer)).toBe(hex(ref.tsaCertDer))
      const imprint = new Uint8Array(32).map((_, i) => i * 7)
      for (const issue of [{}, { nonce: 1n }, { nonce: 0x7fn }, { nonce: 0x80n }, { nonce: (1n << 127n) + 12345n }, { certReq: false }, { genTime: NOW + 1234 }, { badSignature: true }]) {
        const token = mine.issue(imprint, issue)
        expect(hex(token), JSON.stringify(issue, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).toBe(hex(ref.issue(imprint, issue)))
        // And the core reads it back.
        const parsed = parseTimestampToken(token)
        expect(parsed.tstInfo.imprint).toEqual(imprint)
        expect(parsed.tstInfo.nonce).toBe('nonce' in issue ? issue.nonce : undefined)
      }
      expect(parseTrustAnchor(mine.rootPem).name).toBe(o.rootName ?? 'orbitdraw emulator TSA root')
    })
  }

  it('the client\'s request is the bytes @peculiar wrote', () => {
    const digest = new Uint8Array(32).map((_, i) => 255 - i)
    for (const nonceBytes of [[0x01], [0x7f, 0xff], [0x41, ...new Array<number>(15).fill(0xa5)]]) {
      const nonce = nonceBytes.reduce((v, b) => (v << 8n) | BigInt(b), 0n)
      const ref = AsnConvert.serialize(
        new TimeStampReq({
          version: 1,
          messageImprint: new MessageImprint({ hashAlgorithm: new AlgorithmIdentifier({ algorithm: '2.16.840.1.101.3.4.2.1' }), hashedMessage: new OctetString(digest) }),
          nonce: Uint8Array.from(nonceBytes).buffer,
          certReq: true,
        }),
      )
      expect(hex(timeStampRequest(digest, nonce))).toBe(hex(new Uint8Array(ref)))
    }
  })
})
