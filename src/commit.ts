/**
 * `commit` for Node: the core's `commit`, plus `private: true`, which generates the organizer's
 * 32-byte secret with `node:crypto` (the pure core has no randomness source).
 *
 * @module
 */
import { randomBytes } from 'node:crypto'
import { commit as commitCore, commitAsync as commitCoreAsync, type CommitOptions, type CommitResult } from './core/commitment.js'
import { participantsRootParallel } from './node/parallel-hash.js'
import { OrganizerSecret } from './core/secret.js'

/**
 * Options of the Node {@link commit}: the core's, where `private` may also be `true`.
 * @category Draw
 */
export interface NodeCommitOptions extends Omit<CommitOptions, 'private'> {
  /**
   * `true`: make the list private with a fresh secret from `node:crypto` (returned as `result.secret`);
   * `{ secret }`: use the caller's 32 random bytes. Omit for a public list.
   */
  private?: true | CommitOptions['private']
}

/**
 * Builds a commitment (the core `commit`); with `private: true` it salts the list with a fresh random
 * secret, returned separately as `secret` (never inside the commitment). It hashes the list on the
 * calling thread: for lists of `PARALLEL_MIN_ENTRIES` (100,000) entries or more, {@link commitAsync}
 * gives the same commitment sooner, on two threads.
 *
 * @example
 * ```ts
 * const { cid, json, secret } = commit({ beacon, target, after, participants, draw: { kind: 'pick', count: 3 }, private: true })
 * await writeFile('commitment.secret.json', serializeSecretFile(secret!, cid), { mode: 0o600 })
 * ```
 * @throws the core `commit`'s errors.
 * @category Draw
 */
export function commit(options: NodeCommitOptions): CommitResult {
  if (options?.private === true) return commitCore({ ...options, private: { secret: generateSecret() } })
  return commitCore(options as CommitOptions)
}

/**
 * {@link commit} on two threads: the same checks, errors and commitment (byte for byte), with the list
 * hashed by `participantsRootParallel` (a worker thread hashes half of a list of `PARALLEL_MIN_ENTRIES`
 * entries or more; a shorter list is hashed on the calling thread). Use it in Node for large lists;
 * `commit` stays synchronous (and the core's runs in browsers). For a file of millions of lines,
 * `orbitdraw commit` streams it instead of holding the list.
 *
 * @example
 * ```ts
 * const { cid, json, secret } = await commitAsync({ beacon, target, after, participants, draw: { kind: 'pick', count: 3 }, private: true })
 * ```
 * @throws (the promise rejects with) {@link commit}'s errors.
 * @category Draw
 */
export async function commitAsync(options: NodeCommitOptions): Promise<CommitResult> {
  if (options?.private === true) return commitCoreAsync({ ...options, private: { secret: generateSecret() } }, participantsRootParallel)
  return commitCoreAsync(options as CommitOptions, participantsRootParallel)
}

/**
 * A fresh organizer secret: 32 bytes from `node:crypto`'s CSPRNG.
 * @category Draw
 */
export function generateSecret(): OrganizerSecret {
  const bytes = randomBytes(32)
  try {
    return OrganizerSecret.fromBytes(new Uint8Array(bytes.buffer, bytes.byteOffset, 32))
  } finally {
    bytes.fill(0)
  }
}
