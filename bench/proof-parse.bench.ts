/**
 * `parseProof`, which runs the declared proof shape (src/core/schema/proof.ts), beside the
 * hand-written parser it replaced (test/helpers/proof-hand-parser.ts, the same checks in the same
 * order) timed in the same run, interleaved: a 200,000-entry shuffle proof (26.6 MB: 200,000
 * participants and 200,000 outcome rows), a 1,000,000-entry pick-3 proof, and a demo-sized proof.
 * Both parse from the proof's text (what a verifier reads), then from the already parsed value
 * (the shape's own cost, without `JSON.parse`).
 */
import { timePair, type BenchRow } from './harness.js'
import { commit, drawFromBlock, parseProof, serializeProof } from '../src/core/index.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'
import { handParseProof } from '../test/helpers/proof-hand-parser.js'
import { makeProof } from '../test/browser/fixtures.js'

function proofText(n: number, kind: 'shuffle' | 'pick'): string {
  const chain = buildChain(12, 'bench')
  const entries = Array.from({ length: n }, (_, i) => `participant-${String(i).padStart(7, '0')}`)
  const { commitment } = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants: entries, draw: kind === 'shuffle' ? { kind: 'shuffle' } : { kind: 'pick', count: 3 }, label: 'bench' })
  return serializeProof(drawFromBlock(commitment, entries, chain[10]!))
}

const GOAL = '<= 1.1x baseline'

async function pair(name: string, text: string, runs: number, warmup: number): Promise<BenchRow[]> {
  const size = text.length >= 1e6 ? `${(text.length / 1e6).toFixed(1)} MB` : `${(text.length / 1024).toFixed(1)} KiB`
  const fromText = await timePair(() => parseProof(text), () => handParseProof(text), runs, warmup)
  const value: unknown = JSON.parse(text)
  const fromValue = await timePair(() => parseProof(value), () => handParseProof(value), runs, warmup)
  return [
    { name: `parseProof (shape), ${name} (${size}), from text`, value: fromText.value, unit: 'ms', baseline: { name: 'hand parser (reference, same run)', value: fromText.baseline }, goal: GOAL, met: fromText.value <= 1.1 * fromText.baseline },
    { name: `parseProof (shape), ${name}, from the parsed value`, value: fromValue.value, unit: 'ms', baseline: { name: 'hand parser (reference, same run)', value: fromValue.baseline }, goal: 'report', met: true },
  ]
}

export default async function (): Promise<BenchRow[]> {
  const demo = JSON.stringify(await makeProof())
  return [
    ...(await pair('shuffle of 200,000 entries', proofText(200_000, 'shuffle'), 11, 2)),
    ...(await pair('pick 3 of 1,000,000 entries', proofText(1_000_000, 'pick'), 7, 2)),
    ...(await pair('demo-sized proof (pick 3 of 12)', demo, 201, 20)),
  ]
}
