/**
 * `commit` for Node: the core's `commit`, plus `private: true`, which generates the organizer's
 * 32-byte secret with `node:crypto` (the pure core has no randomness source).
 *
 * @module
 */
import { randomBytes } from 'node:crypto'
import { commit as commitCore, type CommitOptions, type CommitResult } from './core/commitment.js'
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
 * secret, returned separately as `secret` (never inside the commitment).
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
