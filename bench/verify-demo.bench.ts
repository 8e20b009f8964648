/**
 * `verify` of a demo-sized proof (pick 3 of 12) under the strict default policy: the RSA-signed IPNS
 * record (like the real beacon's), the head-to-target chain, the RFC 3161 commitment time-stamp and
 * the beacon pin, beside the integrity-only verify of the same draw without record or time-stamp
 * (`allowUnsigned` + `allowUntimestamped`) in the same run: what the trust checks cost. A second row
 * times the same strict verify with the host's Web Crypto ECDSA hidden (the time-stamp's ECDSA P-256
 * signatures then go to `@noble/curves`, as on a host without Web Crypto ECDSA): what the fast path buys.
 */
import { timePair, type BenchRow } from './harness.js'
import { ORBITPORT_BEACONS } from '../src/core/trust.js'
import { verify } from '../src/core/verify.js'
import { type Proof } from '../src/core/proof.js'
import { makeProof, TEST_TSA } from '../test/browser/fixtures.js'
import { ENGINE_ONLY } from './proof-fixture.js'

export default async function (): Promise<BenchRow[]> {
  const signed = await makeProof({ signed: 'RSA' })
  const plain = await makeProof()
  const beacon = (signed.commitment as { beacon: string }).beacon
  const strict = { trust: { beacons: [...ORBITPORT_BEACONS.map((b) => b.name), beacon], timestampAuthorities: [TEST_TSA.rootPem] } }
  const run = async (proof: Proof, options: Parameters<typeof verify>[1], want: string): Promise<void> => {
    const r = await verify(proof, options)
    if (r.verdict !== want) throw new Error(`the benchmark proof gave ${r.verdict}: ${r.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`).join('; ')}`)
  }
  // `verify` takes parsed JSON or text; the file a verifier gets is text.
  const signedText = JSON.stringify(signed)
  const plainText = JSON.stringify(plain)
  const r = await timePair(() => run(JSON.parse(signedText) as Proof, strict, 'verified'), () => run(JSON.parse(plainText) as Proof, ENGINE_ONLY, 'verified-relaxed'), 41, 5)
  // Web Crypto without ECDSA: its ECDSA `verify` rejects, so the core falls back to @noble/curves. (An own
  // property on the one SubtleCrypto object, removed after each run: redefining `globalThis.crypto`
  // instead slowed both sides of the pair.)
  const subtle = globalThis.crypto.subtle as SubtleCrypto & { verify: SubtleCrypto['verify'] }
  const nativeVerify = subtle.verify.bind(subtle)
  const refuseEcdsa: SubtleCrypto['verify'] = (algorithm, ...rest) => ((algorithm as { name?: string }).name === 'ECDSA' ? Promise.reject(new Error('no ECDSA here')) : nativeVerify(algorithm, ...rest))
  const withoutEcdsa = async (): Promise<void> => {
    subtle.verify = refuseEcdsa
    try {
      await run(JSON.parse(signedText) as Proof, strict, 'verified')
    } finally {
      delete (subtle as { verify?: unknown }).verify
    }
  }
  const ecdsa = await timePair(() => run(JSON.parse(signedText) as Proof, strict, 'verified'), withoutEcdsa, 41, 5)
  return [
    {
      name: `verify, demo-sized proof (pick 3 of 12) under the strict policy: RSA record, chain, RFC 3161 time-stamp (${(signedText.length / 1024).toFixed(1)} KiB)`,
      value: r.value,
      unit: 'ms',
      baseline: { name: 'the same draw verified integrity-only (no record, no time-stamp, rules relaxed)', value: r.baseline },
      goal: 'report (was 2.8 ms integrity-only before the trust checks)',
      met: true,
    },
    {
      name: 'verify, the same strict demo proof: time-stamp ECDSA P-256 through Web Crypto',
      value: ecdsa.value,
      unit: 'ms',
      baseline: { name: 'the same verify with Web Crypto ECDSA hidden (ECDSA on @noble/curves, as before the fast path)', value: ecdsa.baseline },
      goal: 'report',
      met: true,
    },
  ]
}
