/**
 * `verify` of a mixed (protocol v2) demo-sized proof (pick 2 of 8: Orbitport block + drand round R, its
 * BLS12-381 signature and the time-stamps ordering the sources) beside the same draw as a version 1
 * proof, in the same run: what the second source costs a verifier (one pairing check, one more
 * time-stamp list, the lazily loaded pairing code).
 */
import { timePair, type BenchRow } from './harness.js'
import { verify, type VerifyOptions } from '../src/core/verify.js'
import { type Proof } from '../src/core/proof.js'
import { mixedProof, singleProof } from '../test/helpers/mixed.js'

export default async function (): Promise<BenchRow[]> {
  const mixed = await mixedProof()
  const single = await singleProof()
  const run = async (text: string, options: VerifyOptions): Promise<void> => {
    const r = await verify(JSON.parse(text) as Proof, options)
    if (r.verdict !== 'verified') throw new Error(`the benchmark proof gave ${r.verdict}: ${r.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`).join('; ')}`)
  }
  const mixedText = JSON.stringify(mixed.proof)
  const singleText = JSON.stringify(single.proof)
  const r = await timePair(() => run(mixedText, mixed.trust), () => run(singleText, single.trust), 21, 3)
  return [
    {
      name: `verify, mixed demo proof (v2: Orbitport block + drand round, BLS signature, source-order time-stamps; ${(mixedText.length / 1024).toFixed(1)} KiB)`,
      value: r.value,
      unit: 'ms',
      baseline: { name: `the same draw as a version 1 proof (${(singleText.length / 1024).toFixed(1)} KiB)`, value: r.baseline },
      goal: 'report',
      met: true,
    },
  ]
}
