/**
 * `parseProof`, which runs the declared proof shape (src/core/schema/proof.ts), beside the
 * hand-written parser it replaced (test/helpers/proof-hand-parser.ts, the same checks in the same
 * order) timed in the same run, interleaved: a 200,000-entry shuffle proof (26.6 MB: 200,000
 * participants and 200,000 outcome rows), a 1,000,000-entry pick-3 proof, a winners-only proof with
 * 20,000 inclusion proofs, and a demo-sized proof.
 * Both parse from the proof's text (what a verifier reads), then from the already parsed value
 * (the shape's own cost, without `JSON.parse`). Last, where a plain valibot shape loses: the
 * 1,000,000 entries of the pick proof through the declared list (`v.array`, one dataset object per
 * item) against the tight loop `parseProof` runs (kit.ts, `bulkList`), with the same result.
 */
import { timePair, type BenchRow } from './harness.js'
import { commit } from '../src/core/commitment.js'
import { drawFromBlock } from '../src/core/draw.js'
import { parseProof, serializeProof } from '../src/core/proof.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'
import { handParseProof } from '../test/helpers/proof-hand-parser.js'
import { makeProof } from '../test/browser/fixtures.js'
import { bulkList, list, parseShape, text } from '../src/core/schema/kit.js'
import { LIMITS } from '../src/core/limits.js'

function proofText(n: number, kind: 'shuffle' | 'pick' | 'winners'): string {
  const chain = buildChain(12, 'bench')
  const entries = Array.from({ length: n }, (_, i) => `participant-${String(i).padStart(7, '0')}`)
  const draw = kind === 'shuffle' ? { kind: 'shuffle' as const } : { kind: 'pick' as const, count: kind === 'winners' ? n / 5 : 3 }
  const c = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants: entries, draw, label: 'bench', ...(kind === 'winners' ? { private: { secret: new Uint8Array(32).fill(1) } } : {}) })
  return serializeProof(drawFromBlock(c.commitment, entries, chain[10]!, kind === 'winners' ? { disclosure: 'winners', secret: c.secret! } : {}))
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

/** 1,000,000 string entries through the declared list and through the tight loop. */
async function entriesRow(entries: unknown): Promise<BenchRow> {
  const declared = list(text(), LIMITS.maxParticipants)
  const bulk = bulkList(text(), LIMITS.maxParticipants, { accept: (x) => typeof x === 'string' })
  const r = await timePair(() => parseShape(bulk, entries), () => parseShape(declared, entries), 7, 2)
  return { name: 'participants.entries of the pick proof (1,000,000 strings), tight loop (bulkList)', value: r.value, unit: 'ms', baseline: { name: 'the declared list run by valibot (v.array)', value: r.baseline }, goal: 'report', met: true }
}

export default async function (): Promise<BenchRow[]> {
  const demo = JSON.stringify(await makeProof({ signed: 'Ed25519' }))
  const pick = proofText(1_000_000, 'pick')
  return [
    ...(await pair('shuffle of 200,000 entries', proofText(200_000, 'shuffle'), 11, 2)),
    ...(await pair('pick 3 of 1,000,000 entries', pick, 7, 2)),
    ...(await pair('private pick of 20,000 of 100,000, winners only (20,000 inclusion proofs)', proofText(100_000, 'winners'), 7, 2)),
    ...(await pair('demo-sized proof (pick 3 of 12, signed record, five blocks, a time-stamp)', demo, 201, 20)),
    await entriesRow((JSON.parse(pick) as { participants: { entries: unknown } }).participants.entries),
  ]
}
