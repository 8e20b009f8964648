/** The built-in time-stamping roots: fingerprints as published by two independent sources; anchor parsing. */
import { readdirSync, readFileSync } from 'node:fs'
import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../src/core/bytes.js'
import { ParseError } from '../../../src/core/errors.js'
import { BUILT_IN_ROOT_FINGERPRINTS } from '../../../src/core/timestamp/roots.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES } from '../../../src/core/timestamp/defaults.js'
import { parseTrustAnchor, parseTrustAnchors } from '../../../src/core/timestamp/anchor.js'
import * as roots from '../../../src/core/timestamp/roots.js'

describe('built-in time-stamping roots', () => {
  it('each shipped PEM has the fingerprint both sources publish', () => {
    const expected: Record<string, string> = {
      DIGICERT_TRUSTED_ROOT_G4: '552f7bdcf1a7af9e6ce672017f4f12abf77240c78e761ac203d1d9d20ac89988',
      DIGICERT_ASSURED_ID_ROOT_CA: '3e9099b5015e8f486c00bcea9d111ee721faba355a89bcf1df69561e3dc6325c',
      USERTRUST_RSA_CERTIFICATION_AUTHORITY: 'e793c9b02fd8aa13e21c31228accb08119643b749c898964b1746d46c3d4cbd2',
    }
    expect(BUILT_IN_ROOT_FINGERPRINTS).toEqual(expected)
    for (const [name, fp] of Object.entries(expected)) {
      const pem = (roots as unknown as Record<string, string>)[`${name}_PEM`]!
      const anchor = parseTrustAnchor(pem)
      expect(anchor.sha256).toBe(fp)
      expect(bytesToHex(sha256(anchor.der))).toBe(fp)
    }
  })
  it('DEFAULT_TIMESTAMP_AUTHORITIES are the roots of today\'s default authorities (DigiCert G4, USERTrust for Sectigo)', () => {
    expect(DEFAULT_TIMESTAMP_AUTHORITIES.map((a) => a.name)).toEqual(['DigiCert Trusted Root G4', 'USERTrust RSA Certification Authority'])
    expect(Object.isFrozen(DEFAULT_TIMESTAMP_AUTHORITIES)).toBe(true)
  })
  it('each default anchor (built from its PEM, name and published fingerprint without parsing) equals parseTrustAnchor of its PEM', () => {
    expect(DEFAULT_TIMESTAMP_AUTHORITIES).toEqual([parseTrustAnchor(roots.DIGICERT_TRUSTED_ROOT_G4_PEM), parseTrustAnchor(roots.USERTRUST_RSA_CERTIFICATION_AUTHORITY_PEM)])
  })
})

describe('docs/roots/*.pem: the built-in roots as files a re-implementer reads', () => {
  const dir = new URL('../../../docs/roots/', import.meta.url)
  const files: Record<string, string> = {
    'digicert-trusted-root-g4.pem': 'DIGICERT_TRUSTED_ROOT_G4',
    'usertrust-rsa-certification-authority.pem': 'USERTRUST_RSA_CERTIFICATION_AUTHORITY',
    'digicert-assured-id-root-ca.pem': 'DIGICERT_ASSURED_ID_ROOT_CA',
  }
  it('holds exactly one file per shipped root', () => {
    expect(readdirSync(dir).sort()).toEqual(Object.keys(files).sort())
  })
  for (const [file, constant] of Object.entries(files)) {
    it(`${file} is byte for byte the code's ${constant}_PEM, with its published fingerprint`, () => {
      const text = readFileSync(new URL(file, dir), 'utf8')
      expect(text).toBe((roots as unknown as Record<string, string>)[`${constant}_PEM`])
      expect(parseTrustAnchor(text).sha256).toBe((BUILT_IN_ROOT_FINGERPRINTS as Record<string, string>)[constant])
    })
  }
  it('the default authorities are the files named in docs/timestamps.md, in that order', () => {
    expect(DEFAULT_TIMESTAMP_AUTHORITIES.map((a) => a.der)).toEqual(['digicert-trusted-root-g4.pem', 'usertrust-rsa-certification-authority.pem'].map((f) => parseTrustAnchor(readFileSync(new URL(f, dir), 'utf8')).der))
  })
})

describe('parseTrustAnchor', () => {
  it('reads PEM and DER alike; a bundle gives every certificate', () => {
    const a = parseTrustAnchor(roots.DIGICERT_TRUSTED_ROOT_G4_PEM)
    expect(parseTrustAnchor(a.der)).toEqual(a)
    expect(parseTrustAnchors(roots.DIGICERT_TRUSTED_ROOT_G4_PEM + roots.USERTRUST_RSA_CERTIFICATION_AUTHORITY_PEM).map((x) => x.name)).toEqual(['DigiCert Trusted Root G4', 'USERTrust RSA Certification Authority'])
  })
  it('junk is a ParseError TIMESTAMP_ANCHOR_INVALID saying what was wrong', () => {
    for (const junk of ['hello', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', new Uint8Array([0x30, 0x00]), new Uint8Array(0)]) {
      let err: unknown
      try {
        parseTrustAnchor(junk)
      } catch (e) {
        err = e
      }
      expect(err).toBeInstanceOf(ParseError)
      expect((err as ParseError).code).toBe('TIMESTAMP_ANCHOR_INVALID')
    }
  })
})
