/**
 * The chain search (findChain: breadth-first, each (issuer, certificate) signature checked once, a
 * (certificate, intermediate count) state expanded once) against the spec's definition read literally
 * (docs/spec.md, Commitment time, "Chain"): on random certificate graphs (fast-check, fixed seed) both
 * agree on whether a path exists, and the signatures the search checks never exceed the token's counted
 * cost. Certificates are synthetic (names, keys and signatures as small numbers); the signature check is
 * injected, so no cryptography runs.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LIMITS } from '../../../src/core/limits.js'
import type { ParsedCertificate } from '../../../src/core/timestamp/certificate.js'
import { Fail, findChain, signatureCost, type Anchor, type SignatureCheck } from '../../../src/core/timestamp/chain.js'

interface Spec {
  subject: number
  issuer: number
  key: number
  /** The key that signed it. */
  signer: number
  ca: boolean
  pathLen: number | undefined
  valid: boolean
}

const WINDOW = { lowMicros: 1_000_000, highMicros: 1_000_000 }

function cert(s: Spec, id: number): ParsedCertificate {
  return {
    der: new Uint8Array([id, s.subject, s.issuer, s.key, s.signer]),
    tbs: new Uint8Array([id]),
    serial: BigInt(id),
    issuer: new Uint8Array([s.issuer]),
    subject: new Uint8Array([s.subject]),
    name: `c${id}`,
    issuerName: `n${s.issuer}`,
    notBefore: s.valid ? 0 : 2000,
    notAfter: 3000,
    spki: new Uint8Array([s.key]),
    signatureAlgorithm: { oid: '1.2.840.10045.4.3.2', params: undefined },
    signature: new Uint8Array([s.signer]),
    extKeyUsage: undefined,
    keyUsage: undefined,
    isCA: s.ca,
    pathLen: s.pathLen,
    selfIssued: s.subject === s.issuer,
    subjectKeyId: undefined,
    unknownCritical: [],
  }
}

/** The spec's definition, enumerated: is there a sequence c0 = leaf, c1..cm meeting every rule? */
function pathExists(leaf: ParsedCertificate, pool: readonly ParsedCertificate[], anchors: readonly ParsedCertificate[]): boolean {
  const eq = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i])
  const signs = (issuer: ParsedCertificate, c: ParsedCertificate): boolean => issuer.spki[0] === c.signature[0]
  const valid = (c: ParsedCertificate): boolean => c.notBefore * 1000 <= WINDOW.lowMicros && WINDOW.highMicros <= c.notAfter * 1000
  const below = (path: readonly ParsedCertificate[], upTo: number): number => path.slice(1, upTo).filter((c) => !c.selfIssued).length
  const ok = (path: readonly ParsedCertificate[]): boolean => {
    for (let i = 1; i < path.length; i++) {
      const c = path[i]!
      if (!eq(c.subject, path[i - 1]!.issuer) || !c.isCA || !valid(c) || !signs(c, path[i - 1]!)) return false
      if (c.pathLen !== undefined && below(path, i) > c.pathLen) return false
    }
    const top = path[path.length - 1]!
    if (anchors.some((a) => eq(a.der, top.der))) return true
    return anchors.some((a) => eq(a.subject, top.issuer) && valid(a) && signs(a, top) && (a.pathLen === undefined || below(path, path.length) <= a.pathLen))
  }
  const walk = (path: ParsedCertificate[]): boolean => {
    if (ok(path)) return true
    if (path.length >= LIMITS.maxTimestampChainDepth) return false
    return pool.some((c) => !path.includes(c) && walk([...path, c]))
  }
  return walk([leaf])
}

const spec = (names: number, keys: number): fc.Arbitrary<Spec> =>
  fc.record({
    subject: fc.nat(names - 1),
    issuer: fc.nat(names - 1),
    key: fc.nat(keys - 1),
    signer: fc.nat(keys - 1),
    ca: fc.boolean(),
    pathLen: fc.option(fc.nat(1), { nil: undefined }),
    valid: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  })

describe('findChain agrees with the spec\'s definition', () => {
  for (const [names, keys] of [[3, 3], [2, 2], [2, 1]] as const) {
  it(`random graphs of up to 7 certificates over ${names} names and ${keys} keys (fast-check, seed 23)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(spec(names, keys), { minLength: 1, maxLength: 7 }), fc.array(spec(names, keys), { minLength: 0, maxLength: 2 }), async (certSpecs, anchorSpecs) => {
        const pool = certSpecs.map((s, i) => cert(s, i))
        const anchorCerts = anchorSpecs.map((s, i) => cert(s, 100 + i))
        const anchors: Anchor[] = anchorCerts.map((c) => ({ name: c.name, cert: c }))
        let checks = 0
        const check: SignatureCheck = async (_alg, spki, _data, signature) => {
          checks++
          return spki[0] === signature[0] ? { kind: 'valid' } : { kind: 'invalid' }
        }
        let found = true
        try {
          await findChain(pool[0]!, pool, anchors, WINDOW, check)
        } catch (e) {
          if (!(e instanceof Fail)) throw e
          found = false
        }
        expect(found).toBe(pathExists(pool[0]!, pool, anchorCerts))
        expect(checks).toBeLessThanOrEqual(signatureCost(pool[0]!, pool, anchors) - 1)
      }),
      { seed: 23, numRuns: 2000 },
    )
  })
  }
})
