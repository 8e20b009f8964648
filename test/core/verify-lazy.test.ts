/**
 * The core `verify` loads its heavy check modules only when a proof needs them: the RFC 3161 checks
 * (`timestamp/check.ts`, DER, certificates, RSA/ECDSA) only for a proof with time-stamp tokens or a caller
 * that passes authorities to parse, and the IPNS record decoder (`ipns/record.ts`, DAG-CBOR, Ed25519, RSA)
 * only for a proof with a record. The verdict is the same either way (docs/performance.md, Start-up).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'

// Vitest evaluates a module once per file (the fixtures below already import the core's index, which
// re-exports everything), so what is tracked is the use of each module by verify: every function the
// verifier takes from it is wrapped to record the module's name when called.
const loaded = new Set<string>()
function tracked<T extends object>(name: string, mod: T): T {
  return Object.fromEntries(Object.entries(mod).map(([k, v]) => [k, typeof v === 'function' && !/^[A-Z]/.test(k) ? (...args: unknown[]) => (loaded.add(name), (v as (...a: unknown[]) => unknown)(...args)) : v])) as T
}
vi.mock('../../src/core/timestamp/check.js', async (orig) => tracked('timestamp/check', await orig()))
vi.mock('../../src/core/timestamp/anchor.js', async (orig) => tracked('timestamp/anchor', await orig()))
vi.mock('../../src/core/ipns/record.js', async (orig) => tracked('ipns/record', await orig()))

const { verify } = await import('../../src/core/verify.js')
const { makeProof, TEST_TSA } = await import('../browser/fixtures.js')
const plain = await makeProof()
const signed = await makeProof({ signed: true })

describe('verify uses the time-stamp and IPNS record modules only when the proof needs them', () => {
  beforeEach(() => loaded.clear())

  it('an unsigned, untimestamped proof uses neither the time-stamp checks nor the IPNS record decoder', async () => {
    const r = await verify(JSON.stringify(plain), { allowUnsigned: true, allowUntimestamped: true })
    expect(r.verdict).toBe('verified-relaxed')
    expect([...loaded]).toEqual([])
  })

  it('the same proof under the strict policy fails its named checks (no record, no token) without them', async () => {
    const r = await verify(JSON.stringify(plain))
    expect(r.checks.filter((c) => !c.ok).map((c) => c.name).sort()).toEqual(['beacon-authenticity', 'commitment-time'])
    expect([...loaded]).toEqual([])
  })

  it('a signed, time-stamped proof uses both and verifies', async () => {
    const beacon = (signed.commitment as { beacon: string }).beacon
    const r = await verify(JSON.stringify(signed), { trust: { beacons: [beacon], timestampAuthorities: [TEST_TSA.rootPem] } })
    expect(r.verdict).toBe('verified')
    expect([...loaded].sort()).toEqual(['ipns/record', 'timestamp/anchor', 'timestamp/check'])
  })

  it('a bad authority given by the caller is still a failed policy check (parsed on demand)', async () => {
    const r = await verify(JSON.stringify(plain), { trust: { timestampAuthorities: ['not a PEM'] } })
    expect(r.ok).toBe(false)
    expect(r.checks.map((c) => c.name)).toEqual(['policy'])
  })
})
