/**
 * `verify` of a large public proof (pick 3 of 1,000,000, full disclosure: about 23 MB of JSON) against
 * its floor measured in the same run: `JSON.parse` of the same text plus the participants digest of its
 * entries (the fastest one-thread root). Everything else verify does (schema, commitment CID, block,
 * seed, outcome replay) must cost less than half of that.
 */
import { timePair, type BenchRow } from './harness.js'
import { verify } from '../src/core/verify.js'
import { participantsRoot } from '../src/core/participants.js'
import { bigProof, ENGINE_ONLY } from './proof-fixture.js'

const N = 1_000_000

export default async function (): Promise<BenchRow[]> {
  const { text } = bigProof(N)
  const check = await verify(JSON.parse(text), ENGINE_ONLY)
  if (!check.ok) throw new Error(`the benchmark proof does not verify: ${check.checks.filter((c) => !c.ok).map((c) => c.name).join(', ')}`)
  const floor = (): Uint8Array => participantsRoot((JSON.parse(text) as { participants: { entries: string[] } }).participants.entries)
  const r = await timePair(async () => {
    const res = await verify(JSON.parse(text), ENGINE_ONLY)
    if (!res.ok) throw new Error('verify failed')
  }, floor, 5, 1)
  return [{ name: `verify, public pick-3 proof over 1,000,000 entries (${(text.length / 1e6).toFixed(1)} MB)`, value: r.value, unit: 'ms', baseline: { name: 'JSON.parse + participantsRoot of its entries', value: r.baseline }, goal: '<= 1.5x baseline', met: r.value <= 1.5 * r.baseline }]
}
