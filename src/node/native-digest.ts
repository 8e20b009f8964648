/**
 * The participants digest with Node's own SHA-256 (`node:crypto`, Node only): {@link participantsRootNative}
 * gives exactly {@link participantsRoot}'s bytes (the same validation and errors, then the RFC 9162 tree
 * of docs/spec.md: leaf `SHA-256(0x00 || [salt] || [weight, 8 bytes big-endian] || UTF-8 entry)`, node
 * `SHA-256(0x01 || left || right)`, a last unpaired node carried up).
 *
 * Why: the core's SHA-256 (src/core/sha256-fixed.ts) is JavaScript, fast once V8 has compiled it, but a
 * fresh process runs its first few hundred compressions in the interpreter: the demo proof's 32 entries
 * cost a strict `orbitdraw verify` more CPU than loading the draw kinds did (docs/performance.md,
 * Start-up). The CLI's `verify` passes this digest for lists under the parallel digest's size; it is the
 * caller's own code (`VerifyOptions.participantsDigest`), never taken from a proof, and the core compares
 * the root it returns with the committed root. A list salted with the organizer's secret (commit, draw)
 * is left to {@link participantsRoot}. `test/node/native-digest.test.ts` checks it against
 * `participantsRoot` on every kind of list.
 *
 * @module
 */
import { hash } from 'node:crypto'
import { normalize, participantsRoot, saltSource, type ParticipantsHashOptions, type WeightedEntry } from '../core/participants.js'

const SHA256 = 'sha256'

/**
 * The participants digest, equal byte for byte to {@link participantsRoot} (same validation, same
 * errors), hashed with `node:crypto`.
 * @throws the errors of {@link participantsRoot}.
 * @category Verify
 */
export function participantsRootNative(list: readonly string[] | readonly WeightedEntry[], options: ParticipantsHashOptions = {}): Uint8Array {
  if (options.secret !== undefined) return participantsRoot(list, options)
  const { entries, weights } = normalize(list)
  const salts = saltSource(options, entries.length) as readonly Uint8Array[] | null
  const head = 1 + (salts === null ? 0 : 32) + (weights === null ? 0 : 8)
  let level: Buffer[] = entries.map((entry, i) => {
    const text = Buffer.from(entry, 'utf8')
    const leaf = Buffer.allocUnsafe(head + text.length)
    leaf[0] = 0
    if (salts !== null) leaf.set(salts[i]!, 1)
    if (weights !== null) leaf.writeBigUInt64BE(BigInt(weights[i]!), head - 8)
    text.copy(leaf, head)
    return hash(SHA256, leaf, 'buffer')
  })
  const node = Buffer.allocUnsafe(65)
  node[0] = 1
  while (level.length > 1) {
    const next: Buffer[] = []
    for (let i = 0; i + 1 < level.length; i += 2) {
      level[i]!.copy(node, 1)
      level[i + 1]!.copy(node, 33)
      next.push(hash(SHA256, node, 'buffer'))
    }
    if (level.length % 2 === 1) next.push(level[level.length - 1]!)
    level = next
  }
  return new Uint8Array(level[0]!)
}
