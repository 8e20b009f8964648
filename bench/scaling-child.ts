/**
 * One measurement of bench/scaling.ts, in its own process: reads the input of `op` from `dir`, runs
 * the op (unless `op` ends in `-idle`), prints `{ ms, maxRssMiB, inputMiB }` as one JSON line.
 *
 * Streaming ops (`npx tsx bench/scaling.ts 7 stream`): `commit-stream` and `commit-stream-1` time what
 * `orbitdraw commit` does with a file of lines (read as a stream on two threads, or one: the digest,
 * duplicates, look-alikes, then the commitment), `commit-stream-private` what `orbitdraw commit
 * --private` does (two threads, salted leaves; its yardstick is `digest-salted`); `digest` is their yardstick: the file is read into
 * strings untimed, then only `participantsRoot` is timed (validation, duplicates, leaves, tree). Each
 * also prints the root it found, which the parent compares.
 *
 * `draw-stream` times what `orbitdraw draw` does with a file of lines for a public pick 3 (src/cli/draw-stream.ts over orbitdraw/node, src/node/draw-stream.ts:
 * the first pass, the checks against the commitment, the outcome from the block, the winners re-read,
 * and the whole proof written to `proof-stream.json` as a stream: a second pass over the file);
 * `draw-stream-private` the same for a salted list with `--private` (the second pass hashes the list
 * again for the winners' audit paths), with `digest-salted` (`participantsRoot` with the secret) as
 * its yardstick. The commitment is made from the first pass's digest (the parent compares the roots).
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { commit } from '../src/core/commitment.js'
import { drawFromBlock } from '../src/core/draw.js'
import { parseCommitment } from '../src/core/commitment-parse.js'
import { verify } from '../src/core/verify.js'
import { participantsRoot } from '../src/core/participants.js'
import { bytesToHex } from '../src/core/bytes.js'
import { streamParticipantsFile } from '../src/node/participants-stream.js'
import { readForDraw } from '../src/cli/draw-stream.js'
import { commitWithDigest } from '../src/core/commitment.js'
import { OrganizerSecret } from '../src/core/secret.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'

const [opArg, dir] = process.argv.slice(2) as [string, string]
const idle = opArg.endsWith('-idle')
const op = opArg.replace(/-idle$/, '')
const file = (name: string): string => join(dir, name)
let ms = 0
let inputBytes: number
let root: string | undefined
const SECRET = OrganizerSecret.fromBytes(new Uint8Array(32).fill(3))
if (op === 'draw-stream' || op === 'draw-stream-private') {
  inputBytes = statSync(file('participants.txt')).size
  if (!idle) {
    const salted = op === 'draw-stream-private'
    const chain = buildChain(12, 'scaling')
    const t0 = performance.now()
    const list = await readForDraw(file('participants.txt'), salted ? { secret: SECRET, disclosure: 'winners' } : {})
    const drawn = await list.prove(prepared(list), chain[10]!)
    await list.write(drawn, { path: file('proof-stream.json'), force: true, command: 'draw', out: () => undefined })
    ms = performance.now() - t0
    function prepared(l: typeof list): ReturnType<typeof l.prepare> {
      // The commitment of this list (its digest from the first pass), as 'orbitdraw commit' made it.
      const digest = l.root
      const c = commitWithDigest({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, draw: { kind: 'pick', count: 3 }, label: 'scaling' }, { count: l.count, root: digest, salted })
      root = bytesToHex(digest)
      return l.prepare(c.commitment)
    }
  }
} else if (op === 'commit-stream' || op === 'commit-stream-1' || op === 'commit-stream-private' || op === 'digest' || op === 'digest-salted') {
  inputBytes = statSync(file('participants.txt')).size
  if (op === 'digest' || op === 'digest-salted') {
    const entries = readFileSync(file('participants.txt'), 'utf8').split('\n')
    entries.pop()
    const t0 = performance.now()
    if (!idle) root = bytesToHex(participantsRoot(entries, op === 'digest-salted' ? { secret: SECRET } : {}))
    ms = performance.now() - t0
  } else if (!idle) {
    const t0 = performance.now()
    const salted = op === 'commit-stream-private'
    const r = await streamParticipantsFile(file('participants.txt'), { confusables: true, threads: op === 'commit-stream-1' ? 1 : 2, ...(salted ? { secret: SECRET } : {}) })
    // As 'orbitdraw commit' calls it: with the entries' floor, so a public list whose proof no verifier could read is refused.
    const c = commitWithDigest({ beacon: 'k51qzi5uqu5dh9ihj4p2v5sl3hxvv27ryx2w0xrsv6jmmqi91t7bqsx0pb4q4w', target: 10, after: { sequence: 7, block: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' }, draw: { kind: 'pick', count: 3 }, label: 'scaling' }, { count: r.count, root: r.root, salted, entryBytes: r.entryBytes })
    if (c.commitment.participants?.count !== r.count) throw new Error('count differs')
    root = bytesToHex(r.root)
    ms = performance.now() - t0
  }
} else if (op === 'commit' || op === 'draw') {
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
console.log(JSON.stringify({ ms, maxRssMiB: process.resourceUsage().maxRSS / 1024, inputMiB: inputBytes / 1048576, ...(root === undefined ? {} : { root }) }))
