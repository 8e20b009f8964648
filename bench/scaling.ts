/**
 * `npx tsx bench/scaling.ts [maxPower]`: the scaling table of docs/performance.md. For n = 10^3 .. 10^7
 * (default max 7) it times `commit`, `drawFromBlock` (public pick 3) and `verify` (of that proof, full
 * disclosure), each in a fresh child process that first reads its input from files written here
 * (participants, one per line; the commitment; the proof), and reports time per entry and the child's
 * peak resident memory, beside the peak of a child that reads the same input and does nothing else.
 * A superlinear step shows as a growing time per entry.
 *
 * The entries are 10 characters (`p000000000`), so the public proof of 10^7 fits `maxProofBytes`.
 *
 * `npx tsx bench/scaling.ts 7 stream`: only n = 10^maxPower, the streaming `commit` of a file of lines of
 * 20 characters (public: two threads, one thread; private, salted: two threads) and the streaming `draw`
 * (public pick 3 with its whole proof written; a salted list's winners-only proof) beside their
 * yardsticks; the public ops only where a public proof of the list fits `maxProofBytes` (at 10^7 it does
 * not: `commit` refuses the list), the digest alone (`participantsRoot` of the
 * list already in memory; with the secret for the salted one), in fresh processes; peak RSS against the
 * file's size. `SCALING_OPS=digest,draw-stream` runs only the named ops.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { commit } from '../src/core/commitment.js'
import { drawFromBlock } from '../src/core/draw.js'
import { LIMITS } from '../src/core/limits.js'
import { serializeProof } from '../src/core/proof.js'
import { fullDisclosureFloor } from '../src/core/proof-size.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'

const CHILD = fileURLToPath(new URL('./scaling-child.ts', import.meta.url))
const maxPower = Number(process.argv[2] ?? 7)
const streamOnly = process.argv[3] === 'stream'
/** Characters of the stream file's entries (`participant-00000000`). */
const ENTRY_CHARS = 20

interface ChildResult { ms: number; maxRssMiB: number; inputMiB: number; root?: string }

function child(op: string, dir: string): ChildResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--max-old-space-size=8192', CHILD, op, dir], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`${op} failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as ChildResult
}

if (streamOnly) {
  const dir = await mkdtemp(join(tmpdir(), 'orbitdraw-scaling-'))
  try {
    const n = 10 ** maxPower
    const parts: string[] = []
    for (let i = 0; i < n; i++) parts.push(`participant-${String(i).padStart(8, '0')}\n`) // ENTRY_CHARS each
    await writeFile(join(dir, 'participants.txt'), parts.join(''))
    parts.length = 0
    console.log(`node ${process.version}, ${process.arch}, n = ${n}\n`)
    console.log('| op | time | peak RSS | peak RSS / file | file |')
    console.log('|---|---|---|---|---|')
    const runs = Number(process.env.SCALING_RUNS ?? 1)
    for (let k = 0; k < runs; k++) {
      // A public list is drawn with a full disclosure, which must fit maxProofBytes (20 bytes an entry: up to
      // about 8,900,000 entries): over it, commit refuses the list, and only the private ops are run.
      const publicFits = fullDisclosureFloor(n, n * ENTRY_CHARS, false) <= LIMITS.maxProofBytes
      const ops = (process.env.SCALING_OPS ?? `${publicFits ? 'digest,commit-stream,commit-stream-1,draw-stream,' : ''}digest-salted,commit-stream-private,draw-stream-private`).split(',')
      const results = ops.map((op) => [op, child(op, dir)] as const)
      // Public and salted roots: each group must agree.
      for (const salted of [false, true]) {
        const roots = new Set(results.filter(([op]) => ['digest-salted', 'draw-stream-private', 'commit-stream-private'].includes(op) === salted).map(([, r]) => r.root))
        if (roots.size > 1) throw new Error(`the roots differ: ${[...roots].join(', ')}`)
      }
      for (const [op, r] of results) console.log(`| ${op} | ${r.ms.toFixed(0)} ms | ${r.maxRssMiB.toFixed(0)} MiB | ${(r.maxRssMiB / r.inputMiB).toFixed(2)}x | ${r.inputMiB.toFixed(1)} MiB |`)
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
  process.exit(0)
}

const dir = await mkdtemp(join(tmpdir(), 'orbitdraw-scaling-'))
const chain = buildChain(12, 'scaling')
await writeFile(join(dir, 'block.json'), JSON.stringify({ cid: chain[10]!.cid, bytes: Buffer.from(chain[10]!.bytes).toString('base64') }))
console.log(`node ${process.version}, ${process.arch}\n`)
console.log('| n | op | time | per entry | peak RSS | peak RSS reading the input only | input file |')
console.log('|---|---|---|---|---|---|---|')
try {
  for (let p = 3; p <= maxPower; p++) {
    const n = 10 ** p
    // Ten characters: the full disclosure of 10^7 entries (about 191 MiB) fits maxProofBytes, which a
    // list of the stream file's 20-character entries does not (commit refuses such a public list).
    const entries = Array.from({ length: n }, (_, i) => `p${String(i).padStart(9, '0')}`)
    const { commitment, json, cid } = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants: entries, draw: { kind: 'pick', count: 3 }, label: 'scaling' })
    const proofText = serializeProof(drawFromBlock(commitment, entries, chain[10]!))
    await writeFile(join(dir, 'participants.txt'), entries.join('\n') + '\n')
    await writeFile(join(dir, 'commitment.json'), JSON.stringify({ cid, json }))
    await writeFile(join(dir, 'proof.json'), proofText)
    entries.length = 0
    for (const op of ['commit', 'draw', 'verify'] as const) {
      const idle = child(`${op}-idle`, dir)
      const r = child(op, dir)
      const perEntry = (r.ms * 1e6) / n
      console.log(`| 10^${p} | ${op} | ${r.ms.toFixed(0)} ms | ${perEntry.toFixed(0)} ns | ${r.maxRssMiB.toFixed(0)} MiB | ${idle.maxRssMiB.toFixed(0)} MiB | ${r.inputMiB.toFixed(1)} MiB |`)
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true })
}
