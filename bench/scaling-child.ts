/**
 * One measurement of bench/scaling.ts, in its own process: reads the input of `op` from `dir`, runs
 * the op (unless `op` ends in `-idle`), prints `{ ms, maxRssMiB, inputMiB }` as one JSON line.
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { commit, drawFromBlock, parseCommitment, verify } from '../src/core/index.js'

const [opArg, dir] = process.argv.slice(2) as [string, string]
const idle = opArg.endsWith('-idle')
const op = opArg.replace(/-idle$/, '')
const file = (name: string): string => join(dir, name)
let ms = 0
let inputBytes: number
if (op === 'commit' || op === 'draw') {
  inputBytes = statSync(file('participants.txt')).size
  const entries = readFileSync(file('participants.txt'), 'utf8').split('\n')
  entries.pop()
  const committed = JSON.parse(readFileSync(file('commitment.json'), 'utf8')) as { cid: string; json: unknown }
  const block = JSON.parse(readFileSync(file('block.json'), 'utf8')) as { cid: string; bytes: string }
  if (!idle) {
    const t0 = performance.now()
    if (op === 'commit') {
      const c = parseCommitment(committed.json)
      const got = commit({ beacon: c.beacon, target: c.target, after: c.after, participants: entries, draw: { kind: 'pick', count: 3 }, label: 'scaling' })
      if (got.cid !== committed.cid) throw new Error('commitment differs')
    } else {
      drawFromBlock(parseCommitment(committed.json), entries, { cid: block.cid, bytes: new Uint8Array(Buffer.from(block.bytes, 'base64')) })
    }
    ms = performance.now() - t0
  }
} else {
  inputBytes = statSync(file('proof.json')).size
  const text = readFileSync(file('proof.json'), 'utf8')
  if (!idle) {
    const t0 = performance.now()
    const r = await verify(JSON.parse(text), { allowUnsigned: true, allowUntimestamped: true })
    if (!r.ok) throw new Error('verify failed')
    ms = performance.now() - t0
  }
}
console.log(JSON.stringify({ ms, maxRssMiB: process.resourceUsage().maxRSS / 1024, inputMiB: inputBytes / 1048576 }))
