/**
 * Verification policies for tests. The library's default is the strict policy (Orbitport's beacons,
 * signed head and a trusted time-stamp required). Tests of the draw engine on made-up blocks relax it
 * explicitly, and tests against the emulator trust its beacon explicitly, as a real verifier of an
 * emulator proof must. The strict flow with time-stamps end to end is tested in test/core/trust.test.ts,
 * test/cli/trust.test.ts and the browser tests.
 */
import type { VerifyOptions } from '../../src/core/verify.js'

/**
 * For proofs over made-up, unsigned, untimestamped blocks (the vectors, pure fixtures): the engine is
 * under test, not the trust chain. The verdict is `verified-relaxed`, never `verified`.
 */
export const ENGINE_ONLY: VerifyOptions = Object.freeze({ allowUnsigned: true, allowUntimestamped: true })

/**
 * Trusts an emulator's beacon (by its IPNS name) and accepts a commitment without a time-stamp (the
 * library's `draw()` does not time-stamp; these tests are about the chain). Signed head still required.
 */
export function trustBeacon(name: string, extra: VerifyOptions = {}): VerifyOptions {
  return { allowUntimestamped: true, ...extra, trust: { ...extra.trust, beacons: [{ name, label: 'emulator beacon' }] } }
}
