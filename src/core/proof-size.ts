/**
 * A proof no verifier accepts is no proof: every verifier refuses a proof over `LIMITS.maxProofBytes`
 * (256 MiB; `parseProof`, `orbitdraw verify`, the verifier page). A full-disclosure proof carries every
 * entry, so a list of about 10,000,000 entries (or fewer long ones) cannot have one. These checks say so
 * when it can first be known: at commit time for a public list (its only proof is a full disclosure),
 * before waiting for the block for a full-disclosure draw, and when the proof is serialized (exact).
 *
 * The early checks use a floor: the bytes the `participants` value of a full-disclosure proof takes at
 * least, as `serializeProof` writes it (2-space indent: each entry on a line of its own, indented 6,
 * quoted, a comma between; a salted list's salts likewise, 64 hex digits each), plus the kind's floor of
 * its outcome (`DrawKind.outcomeBytesFloor`: a shuffle ranks every entry). Everything else in the proof
 * only adds to it, so a list refused on the floor can never have an acceptable proof, and no list that
 * could is refused.
 *
 * @module
 */
import { LimitExceededError } from './errors.js'
import { LIMITS } from './limits.js'
import type { AnyDrawKind, DrawSpecBase } from './kinds/kind.js'

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

/** What a proof of the list holds that grows with it. */
export interface ProofParts {
  /** A full disclosure (every entry; with its salt when `salted`), not a winners-only one. */
  readonly full: boolean
  /** The list is salted (a full disclosure carries the salts). */
  readonly salted: boolean
  /** The draw kind and its spec: its outcome's floor (`outcomeBytesFloor`), and whether it has a winners-only proof. */
  readonly kind?: AnyDrawKind
  readonly spec?: DrawSpecBase
}

/** The fewest bytes the parts of a proof of `count` entries that grow with the list take (see {@link fullDisclosureFloor}). */
export function proofBytesFloor(count: number, entryBytes: number, parts: ProofParts): number {
  return (parts.full ? fullDisclosureFloor(count, entryBytes, parts.salted) : 0) + (parts.spec === undefined ? 0 : (parts.kind?.outcomeBytesFloor?.(parts.spec, count, entryBytes) ?? 0))
}

/**
 * Throws when a proof of `count` entries taking at least `entryBytes` bytes, with `parts`, must be over
 * `LIMITS.maxProofBytes`. The hint says what to do instead: a winners-only proof when the kind has one
 * (of a private list, which a public one must first become), else smaller draws.
 * @throws {@link LimitExceededError} `LIMIT_EXCEEDED`.
 */
export function checkProofFits(count: number, entryBytes: number, parts: ProofParts): void {
  const floor = proofBytesFloor(count, entryBytes, parts)
  if (floor <= LIMITS.maxProofBytes) return
  const what = parts.full ? 'a full-disclosure proof' : `a ${parts.kind?.name ?? ''} proof`
  const hint = parts.kind !== undefined && parts.kind.winnersOnly === undefined
    ? `a ${parts.kind.name} proof carries every entry: split the list into smaller draws`
    : parts.salted ? FULL_DISCLOSURE_TOO_LARGE_HINT : PUBLIC_LIST_TOO_LARGE_HINT
  throw new LimitExceededError('LIMIT_EXCEEDED', `${what} of these ${count} entries would take at least ${floor} bytes, over the limit maxProofBytes = ${LIMITS.maxProofBytes} that every verifier enforces: no verifier could read it`, hint, { path: '$.participants' })
}

/**
 * {@link checkProofFits} at commit time: a public list's only proof is a full disclosure, and so is any
 * proof of a kind without a winners-only one; a private list of another kind can be drawn winners-only.
 */
export function checkCommitFits(count: number, entryBytes: number, salted: boolean, kind: AnyDrawKind | undefined, spec: DrawSpecBase): void {
  checkProofFits(count, entryBytes, { full: !salted || kind?.winnersOnly === undefined, salted, spec, ...(kind === undefined ? {} : { kind }) })
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
const PUBLIC_LIST_TOO_LARGE_HINT = 'a list this large needs a winners-only proof: commit it as a private (salted) list (private: true; the CLI: commit --private) and draw with disclosure "winners" (draw --private), or split it into smaller draws'
/** The hint for a full-disclosure draw of a salted list. */
const FULL_DISCLOSURE_TOO_LARGE_HINT = 'draw a winners-only proof instead (disclosure: "winners"; the CLI: draw --private)'

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
