/**
 * A proof no verifier accepts is no proof: every verifier refuses a proof over `LIMITS.maxProofBytes`
 * (256 MiB; `parseProof`, `orbitdraw verify`, the verifier page). A full-disclosure proof carries every
 * entry, so a list of about 10,000,000 entries (or fewer long ones) cannot have one. These checks say so
 * when it can first be known: at commit time for a public list (its only proof is a full disclosure),
 * before waiting for the block for a full-disclosure draw, and when the proof is serialized (exact).
 *
 * The early checks use a floor: the bytes the `participants` value of a full-disclosure proof takes at
 * least, as `serializeProof` writes it (2-space indent: each entry on a line of its own, indented 6,
 * quoted, a comma between; a salted list's salts likewise, 64 hex digits each). Everything else in the
 * proof only adds to it, so a list refused on the floor can never have an acceptable proof, and no list
 * that could is refused.
 *
 * @module
 */
import { LimitExceededError } from './errors.js'
import { LIMITS } from './limits.js'

/** Bytes per entry of a full disclosure beyond the entry's own: the line break, the indent, the quotes, the comma. */
const PER_ENTRY = 10
/** Bytes per salt: the same, with 64 hex digits. */
const PER_SALT = 10 + 64

/**
 * The fewest bytes the `participants` value of a full-disclosure proof of `count` entries takes, when
 * the entries take at least `entryBytes` UTF-8 bytes together (unescaped; an entry's UTF-16 length is a
 * floor of its UTF-8 length), with their salts when `salted`.
 * @category Formats
 */
export function fullDisclosureFloor(count: number, entryBytes: number, salted: boolean): number {
  if (count === 0) return 0
  return entryBytes + PER_ENTRY * count - 1 + (salted ? PER_SALT * count - 1 : 0)
}

/**
 * Throws when a full-disclosure proof of `count` entries taking at least `entryBytes` bytes (see
 * {@link fullDisclosureFloor}) must be over `LIMITS.maxProofBytes`.
 * @param hint - what the caller can do instead (its own words: a commit, a draw, the CLI).
 * @throws {@link LimitExceededError} `LIMIT_EXCEEDED`.
 */
export function checkFullDisclosureFits(count: number, entryBytes: number, salted: boolean, hint: string): void {
  const floor = fullDisclosureFloor(count, entryBytes, salted)
  if (floor > LIMITS.maxProofBytes) {
    throw new LimitExceededError('LIMIT_EXCEEDED', `a full-disclosure proof of these ${count} entries would take at least ${floor} bytes, over the limit maxProofBytes = ${LIMITS.maxProofBytes} that every verifier enforces: no verifier could read it`, hint, { path: '$.participants' })
  }
}

/**
 * A floor of the UTF-8 bytes of a list's entries: the sum of their UTF-16 lengths (a code unit takes at
 * least one byte). For weighted entries, of their `entry` texts.
 */
export function entryBytesFloor(list: readonly (string | { readonly entry: string })[]): number {
  let total = 0
  for (const e of list) total += typeof e === 'string' ? e.length : e.entry.length
  return total
}

/** The hint when the list is public: its only proof is a full disclosure. */
export const PUBLIC_LIST_TOO_LARGE_HINT = 'a list this large needs a winners-only proof: commit it as a private (salted) list (private: true; the CLI: commit --private) and draw with disclosure "winners" (draw --private), or split it into smaller draws'
/** The hint for a full-disclosure draw of a salted list. */
export const FULL_DISCLOSURE_TOO_LARGE_HINT = 'draw a winners-only proof instead (disclosure: "winners"; the CLI: draw --private)'

/**
 * Throws when a serialized proof of `bytes` UTF-8 bytes is over `LIMITS.maxProofBytes`: the exact check,
 * after the floors.
 * @throws {@link LimitExceededError} `LIMIT_EXCEEDED`.
 */
export function checkProofBytes(bytes: number): void {
  if (bytes > LIMITS.maxProofBytes) throw proofTooLarge(`${bytes} bytes`)
}

/** The error for a proof over the limit; `size` says how large (or that it is too large to measure). */
export function proofTooLarge(size: string): LimitExceededError {
  return new LimitExceededError('LIMIT_EXCEEDED', `the proof would be ${size}, over the limit maxProofBytes = ${LIMITS.maxProofBytes} that every verifier enforces: no verifier could read it`, `${FULL_DISCLOSURE_TOO_LARGE_HINT}, or split the list into smaller draws`, { path: '$' })
}
