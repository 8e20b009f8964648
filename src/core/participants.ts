/**
 * Participant entries: the rules an entry must follow, its leaf encoding, and the participants digest
 * (the RFC 9162 Merkle Tree Hash over the leaves in the committed order). See
 * `docs/spec.md (Participants)` for the byte-exact rules.
 *
 * Entries are used exactly as given: no trimming, no case folding, no Unicode normalization. Anything
 * ambiguous (surrounding whitespace, control characters, duplicates) is rejected with the entry's index,
 * never silently repaired.
 *
 * @module
 */
import { InvalidInputError, LimitExceededError } from './errors.js'
import { LIMITS } from './limits.js'
import { utf8Length, writeU64be } from './bytes.js'
import { entryTextError } from './entry-text.js'
import { MerkleTree, rootOfLeafWords } from './merkle.js'
import { OrganizerSecret, SECRET_BYTES } from './secret.js'
import { sha256Words } from './sha256-fixed.js'
import { findDuplicate } from './find-duplicate.js'
export { findDuplicate }

/**
 * An entry with an integer weight (a weighted draw picks it with probability proportional to `weight`).
 * @category Draw
 */
export type WeightedEntry = { entry: string; weight: number }

/** Largest weight: 2^53 - 1 (`Number.MAX_SAFE_INTEGER`). Weights are integers in [1, MAX_WEIGHT]. */
export const MAX_WEIGHT = Number.MAX_SAFE_INTEGER

/** Width of the big-endian weight prefix of a weighted leaf, in bytes. */
export const WEIGHT_BYTES = 8

const DUPLICATE_HINT = 'make every entry unique, for example by adding an id ("Alice Martin #2" or "alice@example.org")'
const LIMIT_HINT = 'reduce the input below the documented limit (see docs/security.md)'

// C0 controls, DEL, C1 controls; or a lone surrogate (high not followed by low, or low not preceded by high).
// No `u` flag on purpose: surrogates are matched as separate UTF-16 code units.
// eslint-disable-next-line no-control-regex
const BAD_CHAR = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * Whitespace forbidden at the start or end of an entry: Unicode White_Space (the C0/C1 members are also
 * controls) plus U+FEFF ZERO WIDTH NO-BREAK SPACE (a stray byte-order mark).
 */
const EDGE_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
])

const encoder = new TextEncoder()

function hex4(c: number): string {
  return 'U+' + c.toString(16).toUpperCase().padStart(4, '0')
}

/**
 * Checks one entry against every per-entry rule (not uniqueness). `path` names it in errors.
 * Work is bounded by LIMITS.maxEntryBytes: a string longer than that in UTF-16 units is rejected unread.
 * @category Draw
 */
export function validateEntry(entry: string, path = '$'): void {
  const err = entryProblem(entry, path, 0)
  if (err !== null) throw err
}

/**
 * {@link validateEntry} with the path built only for an error: for the loops over a million ids and
 * values (a pool), where building each path cost more than checking the entry.
 */
export function validateEntryAt(entry: string, path: () => string): void {
  if (!entryOk(entry)) validateEntry(entry, path())
}

/** Fast check of the per-entry rules, no allocation: true when the entry is fine. */
function entryOk(entry: unknown): boolean {
  if (typeof entry !== 'string') return false
  const len = entry.length
  if (len === 0 || len > LIMITS.maxEntryBytes) return false
  if (BAD_CHAR.test(entry)) return false
  if (EDGE_SPACE.has(entry.charCodeAt(0)) || EDGE_SPACE.has(entry.charCodeAt(len - 1))) return false
  return (len * 3 <= LIMITS.maxEntryBytes || utf8Length(entry) <= LIMITS.maxEntryBytes) && entryTextError(entry, () => ({ path: '$' })) === null
}

/**
 * The error for a bad entry, or null. The path is `path`, or `$[index]suffix` when `path` is empty (built
 * only on error: this runs over millions of entries).
 */
function entryProblem(entry: unknown, path: string, index: number, suffix = ''): InvalidInputError | LimitExceededError | null {
  if (entryOk(entry)) return null
  const at = () => ({ path: path === '' ? `$[${index}]${suffix}` : path })
  if (typeof entry !== 'string') {
    return new InvalidInputError('ENTRY_NOT_STRING', `entry is ${entry === null ? 'null' : typeof entry}, not a string`, 'pass every participant as a string (do not mix strings and weighted entries)', at())
  }
  if (entry.length === 0) {
    return new InvalidInputError('ENTRY_EMPTY', 'entry is the empty string', 'remove the empty entry or give it a name', at())
  }
  // UTF-8 length >= UTF-16 length, so this rejects over-long strings before reading them.
  if (entry.length > LIMITS.maxEntryBytes) return entryTooLongError(entry.length, at().path)
  const bad = BAD_CHAR.exec(entry)
  if (bad !== null) {
    const c = bad[0].charCodeAt(0)
    if (c >= 0xd800 && c <= 0xdfff) {
      return new InvalidInputError('ENTRY_LONE_SURROGATE', `entry has a lone UTF-16 surrogate ${hex4(c)} at position ${bad.index} and no UTF-8 encoding`, 'repair the broken character (it usually comes from cutting a string in the middle of an emoji)', at())
    }
    return new InvalidInputError('ENTRY_CONTROL_CHARACTER', `entry has control character ${hex4(c)} at position ${bad.index}`, 'remove control characters (tabs, line breaks, NUL, U+007F-U+009F) from the entry', at())
  }
  const first = entry.charCodeAt(0)
  const last = entry.charCodeAt(entry.length - 1)
  if (EDGE_SPACE.has(first) || EDGE_SPACE.has(last)) {
    const where = EDGE_SPACE.has(first) ? `leading ${hex4(first)}` : `trailing ${hex4(last)}`
    return new InvalidInputError('ENTRY_SURROUNDING_WHITESPACE', `entry has ${where} whitespace`, 'remove the whitespace from the start and end of the entry yourself (orbitdraw never trims: the bytes are committed as given)', at())
  }
  const text = entryTextError(entry, at)
  if (text !== null) return text
  const bytes = utf8Length(entry)
  return new LimitExceededError('LIMIT_EXCEEDED', `entry is ${bytes} UTF-8 bytes, over the limit maxEntryBytes = ${LIMITS.maxEntryBytes}`, LIMIT_HINT, at())
}

/**
 * @internal The error {@link validateEntries} throws for entry `index` of an unweighted list when that
 * entry breaks a per-entry rule (path `$[index]`), or null. For readers that stream a list (the CLI).
 */
export function entryErrorAt(entry: string, index: number): InvalidInputError | LimitExceededError | null {
  return entryProblem(entry, '', index)
}

/**
 * @internal The error {@link validateEntries} throws for entry `index` of an unweighted list when it is
 * `units` UTF-16 code units long, `units` over `LIMITS.maxEntryBytes` (the first rule checked). For readers
 * that refuse a line without holding it (`src/node/line-reader.ts`).
 */
export function entryTooLongAt(units: number, index: number): LimitExceededError {
  return entryTooLongError(units, `$[${index}]`)
}

function entryTooLongError(units: number, path: string): LimitExceededError {
  return new LimitExceededError('LIMIT_EXCEEDED', `entry is at least ${units} UTF-8 bytes, over the limit maxEntryBytes = ${LIMITS.maxEntryBytes}`, LIMIT_HINT, { path })
}

/**
 * @internal The errors {@link validateEntries} throws for a list of `n` entries before looking at them
 * (empty list, over `maxParticipants`), or null. For readers that stream a list (the CLI).
 */
export function listSizeError(n: number): InvalidInputError | LimitExceededError | null {
  if (n === 0) return new InvalidInputError('PARTICIPANTS_EMPTY', 'the participants list is empty', 'pass at least one entry', { path: '$' })
  if (n > LIMITS.maxParticipants) return new LimitExceededError('LIMIT_EXCEEDED', `participant count is ${n}, over the limit maxParticipants = ${LIMITS.maxParticipants}`, LIMIT_HINT, { path: '$' })
  return null
}

/** @internal The error {@link validateEntries} throws when entry `j` equals the earlier entry `i` (its first occurrence). */
export function duplicateError(i: number, j: number, suffix = ''): InvalidInputError {
  return new InvalidInputError('ENTRY_DUPLICATE', `entry ${j} is identical to entry ${i} ($[${i}]${suffix})`, DUPLICATE_HINT, { path: `$[${j}]${suffix}` })
}

function checkList(list: unknown): asserts list is readonly unknown[] {
  if (!Array.isArray(list)) {
    throw new InvalidInputError('PARTICIPANTS_NOT_ARRAY', 'participants must be an array', 'pass an array of entries', { path: '$' })
  }
  const err = listSizeError(list.length)
  if (err !== null) throw err
}

/**
 * Throws ENTRY_DUPLICATE for the smallest index j whose entry equals an earlier one (naming the first
 * occurrence). Open addressing on a 32-bit string hash (FNV-1a then a murmur3 finalizer) with full string
 * comparison; if probing degenerates (crafted collisions), falls back to an O(n log n) sort.
 */
function checkUnique(entries: readonly string[], suffix: string): void {
  const dup = findDuplicate(entries)
  if (dup !== null) throw duplicateError(dup[0], dup[1], suffix)
}

/**
 * Validates an unweighted participants list: an array of 1..LIMITS.maxParticipants strings, each following
 * {@link validateEntry}, all distinct. Throws {@link InvalidInputError} (or {@link LimitExceededError})
 * with the path `$[i]` of the first entry that breaks a per-entry rule; only when every entry passes are
 * duplicates looked for (the error names the later index, and the message the earlier one).
 * @category Draw
 */
export function validateEntries(entries: readonly string[]): void {
  checkList(entries)
  for (let i = 0; i < entries.length; i++) {
    if (!entryOk(entries[i])) throw entryProblem(entries[i], '', i)!
  }
  checkUnique(entries, '')
}

/**
 * Validates a weighted participants list: an array of 1..LIMITS.maxParticipants `{ entry, weight }` objects,
 * each entry following {@link validateEntry}, all entries distinct, each weight an integer in [1, 2^53 - 1].
 * Errors name `$[i]`, `$[i].entry` or `$[i].weight`.
 * @category Draw
 */
export function validateWeightedEntries(list: readonly WeightedEntry[]): void {
  checkList(list)
  for (let i = 0; i < list.length; i++) {
    const item = list[i] as unknown
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new InvalidInputError('WEIGHTED_ENTRY_NOT_OBJECT', `weighted entry is ${item === null ? 'null' : Array.isArray(item) ? 'an array' : typeof item}, not an object`, 'pass every participant as { entry, weight } (do not mix strings and weighted entries)', { path: `$[${i}]` })
    }
    const { entry, weight } = item as { entry?: unknown; weight?: unknown }
    const err = entryProblem(entry, '', i, '.entry')
    if (err !== null) throw err
    if (!isWeight(weight)) checkWeight(weight, `$[${i}].weight`)
  }
  checkUnique(list.map((w) => w.entry), '.entry')
}

function isWeight(weight: unknown): weight is number {
  return typeof weight === 'number' && Number.isSafeInteger(weight) && weight >= 1
}

function checkWeight(weight: unknown, path: string): asserts weight is number {
  if (!isWeight(weight)) {
    throw new InvalidInputError('WEIGHT_INVALID', `weight is ${typeof weight === 'number' ? String(weight) : typeof weight}, not an integer in [1, 2^53 - 1]`, 'give every weighted entry a positive whole-number weight (use a smaller scale if it does not fit)', { path })
  }
}

/**
 * Leaf data of an unweighted entry: its UTF-8 bytes. Validates the entry first (path `$`).
 * @category Draw
 */
export function encodeLeaf(entry: string): Uint8Array {
  validateEntry(entry)
  return encoder.encode(entry)
}

/**
 * Leaf data of a weighted entry: 8-byte big-endian weight, then the entry's UTF-8 bytes. Validates both.
 * @category Draw
 */
export function encodeWeightedLeaf(entry: string, weight: number): Uint8Array {
  validateEntry(entry, '$.entry')
  checkWeight(weight, '$.weight')
  const bytes = encoder.encode(entry)
  const out = new Uint8Array(WEIGHT_BYTES + bytes.length)
  writeU64be(out, 0, weight)
  out.set(bytes, WEIGHT_BYTES)
  return out
}


function isWeightedList(list: readonly string[] | readonly WeightedEntry[]): list is readonly WeightedEntry[] {
  return Array.isArray(list) && list.length > 0 && typeof list[0] !== 'string'
}

/** @internal Validates either kind of list, then returns its entries (and weights, or null) as plain arrays. */
export function normalize(list: readonly string[] | readonly WeightedEntry[]): { entries: readonly string[]; weights: number[] | null } {
  if (isWeightedList(list)) {
    validateWeightedEntries(list)
    return { entries: list.map((w) => w.entry), weights: list.map((w) => w.weight) }
  }
  validateEntries(list)
  return { entries: list, weights: null }
}

/**
 * Leaf data of a salted entry (private list): the 32-byte salt, then the unweighted or weighted leaf
 * data: `salt || UTF-8(entry)` or `salt || BE64(weight) || UTF-8(entry)`. Validates the entry (and weight).
 * @category Draw
 */
export function encodeSaltedLeaf(salt: Uint8Array, entry: string, weight?: number): Uint8Array {
  if (!(salt instanceof Uint8Array) || salt.length !== SECRET_BYTES) {
    throw new InvalidInputError('INVALID_SALT', `a leaf salt must be ${SECRET_BYTES} bytes`, 'pass the salt revealed with the entry (64 hex digits, decoded)')
  }
  const rest = weight === undefined ? encodeLeaf(entry) : encodeWeightedLeaf(entry, weight)
  const out = new Uint8Array(SECRET_BYTES + rest.length)
  out.set(salt, 0)
  out.set(rest, SECRET_BYTES)
  return out
}

/**
 * Options of {@link participantsRoot} and {@link participantsTree}.
 * @category Draw
 */
export interface ParticipantsHashOptions {
  /**
   * The organizer's secret of a private list: every leaf is then salted with `secret.saltOf(i)` (see
   * {@link encodeSaltedLeaf}). Omit it for a public (unsalted) list.
   */
  secret?: OrganizerSecret | Uint8Array | undefined
  /**
   * The salts of a salted list given one by one (32 bytes each, one per entry, in order), as a proof's
   * full disclosure carries them. Exclusive with `secret`.
   */
  salts?: readonly Uint8Array[] | undefined
}

/**
 * UTF-8 bytes of `s` written to `buf` at `at`; returns the byte count. `s` must be well-formed (no lone
 * surrogate: validated entries are), which makes this byte-exact with `TextEncoder` (checked by tests)
 * while avoiding a native call per entry.
 */
function utf8Into(s: string, buf: Uint8Array, at: number): number {
  let j = at
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) buf[j++] = c
    else if (c < 0x800) {
      buf[j++] = 0xc0 | (c >> 6)
      buf[j++] = 0x80 | (c & 63)
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const cp = ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00) + 0x10000
      buf[j++] = 0xf0 | (cp >> 18)
      buf[j++] = 0x80 | ((cp >> 12) & 63)
      buf[j++] = 0x80 | ((cp >> 6) & 63)
      buf[j++] = 0x80 | (cp & 63)
    } else {
      buf[j++] = 0xe0 | (c >> 12)
      buf[j++] = 0x80 | ((c >> 6) & 63)
      buf[j++] = 0x80 | (c & 63)
    }
  }
  return j - at
}

/**
 * @internal Leaf hashes of entries `[0, n)` as words (8 per leaf), in one pass with one reused scratch
 * buffer and no allocation per entry: `SHA-256(0x00 || [salt] || [weight BE64] || UTF-8(entry))`.
 * Entries (and weights, salts) must already be validated. `firstIndex` is the list position of
 * `entries[0]` (the salt index, when `secret` is an {@link OrganizerSecret}; worker threads hash slices).
 * The unsalted loop is separate, so public lists pay nothing for salting.
 */
export function leafWords(entries: readonly string[], weights: ArrayLike<number> | null, secret: OrganizerSecret | readonly Uint8Array[] | null, firstIndex = 0): Int32Array {
  const n = entries.length
  const out = new Int32Array(n * 8)
  const saltBytes = secret === null ? 0 : SECRET_BYTES
  const prefix = 1 + saltBytes + (weights === null ? 0 : WEIGHT_BYTES)
  // Validated entries are at most maxEntryBytes UTF-8 bytes.
  const scratch = new Uint8Array(prefix + LIMITS.maxEntryBytes)
  scratch[0] = 0
  if (secret === null) {
    if (weights === null) {
      for (let i = 0; i < n; i++) sha256Words(scratch, 1 + utf8Into(entries[i]!, scratch, 1), out, i * 8)
      return out
    }
    for (let i = 0; i < n; i++) {
      writeU64be(scratch, 1, weights[i]!)
      sha256Words(scratch, prefix + utf8Into(entries[i]!, scratch, prefix), out, i * 8)
    }
    return out
  }
  const given = secret instanceof OrganizerSecret ? null : secret
  for (let i = 0; i < n; i++) {
    if (given === null) (secret as OrganizerSecret).writeSalt(firstIndex + i, scratch, 1)
    else scratch.set(given[i]!, 1)
    if (weights !== null) writeU64be(scratch, 1 + saltBytes, weights[i]!)
    sha256Words(scratch, prefix + utf8Into(entries[i]!, scratch, prefix), out, i * 8)
  }
  return out
}

function secretOf(options: ParticipantsHashOptions | undefined): OrganizerSecret | null {
  return options?.secret === undefined ? null : OrganizerSecret.from(options.secret)
}

/** @internal The salt source of {@link participantsRoot}: the secret, the given salts (checked), or none. */
export function saltSource(options: ParticipantsHashOptions | undefined, n: number): OrganizerSecret | readonly Uint8Array[] | null {
  const salts = options?.salts
  if (salts === undefined) return secretOf(options)
  if (options?.secret !== undefined) throw new InvalidInputError('INVALID_OPTION', 'give the secret or the salts, not both', 'pass secret (organizer) or salts (verifier)')
  if (!Array.isArray(salts) || salts.length !== n) {
    throw new InvalidInputError('SALTS_MISMATCH', `${Array.isArray(salts) ? salts.length : 'no'} salts for ${n} entries`, 'give exactly one 32-byte salt per entry, in the same order', { path: '$' })
  }
  salts.forEach((x, i) => {
    if (!(x instanceof Uint8Array) || x.length !== SECRET_BYTES) throw new InvalidInputError('INVALID_SALT', `salt ${i} is not ${SECRET_BYTES} bytes`, 'give each salt as 32 bytes (64 hex digits in a proof)', { path: `$[${i}]` })
  })
  return salts
}

/**
 * The participants digest: validates the list (strings, or `{ entry, weight }` objects; not mixed), then
 * returns the RFC 9162 Merkle Tree Hash over the leaves in the given order (32 bytes). With
 * `options.secret` (organizer) or `options.salts` (verifier of a full disclosure), the leaves are salted.
 * @category Draw
 */
export function participantsRoot(list: readonly string[] | readonly WeightedEntry[], options?: ParticipantsHashOptions): Uint8Array {
  const { entries, weights } = normalize(list)
  const salts = saltSource(options, entries.length)
  return rootOfLeafWords(leafWords(entries, weights, salts), entries.length)
}

/**
 * A participants digest: {@link participantsRoot} (the default everywhere) or the caller's own function
 * that returns the same bytes (Node: `participantsRootParallel`, on two threads). It validates the list
 * and throws `participantsRoot`'s errors. Where it is accepted (`verify`, `commitAsync`, `prepareDrawAsync`)
 * it is the caller's own code, never something taken from a proof: the core compares the root it returns
 * with the committed root.
 * @category Verify
 */
export interface ParticipantsDigest {
  /** The digest of `list` (salted with `options.secret` or `options.salts` when given), as {@link participantsRoot} computes it. */
  (list: readonly string[] | readonly WeightedEntry[], options: ParticipantsHashOptions): Uint8Array | Promise<Uint8Array>
}

/**
 * A builder of the participants' whole tree: {@link participantsTree} (the default) or the caller's own
 * function that builds the same tree (Node: `participantsTreeParallel`, on two threads). The core compares
 * the tree's root and size with the commitment before using its salts and inclusion proofs.
 * @category Draw
 */
export interface ParticipantsTreeBuilder {
  /** The tree of `list` (salted with `options.secret` when given), as {@link participantsTree} builds it. */
  (list: readonly string[] | readonly WeightedEntry[], options: ParticipantsHashOptions): ParticipantsTree | Promise<ParticipantsTree>
}

/**
 * A validated participants list with its whole Merkle tree, for producing inclusion proofs of chosen entries.
 * @category Draw
 */
export interface ParticipantsTree {
  /** Number of entries. */
  readonly size: number
  /** True for a weighted list (leaves carry the weight prefix). */
  readonly weighted: boolean
  /** The participants digest (same as {@link participantsRoot}). */
  root(): Uint8Array
  /** True for a salted (private) list. */
  readonly salted: boolean
  /** Leaf data of entry `index` (what a verifier hashes). */
  leafData(index: number): Uint8Array
  /** Salt of entry `index` (32 bytes); throws `NOT_SALTED` for a public list. */
  salt(index: number): Uint8Array
  /** Audit path of entry `index` (RFC 9162 §2.1.3.1). */
  inclusionProof(index: number): Uint8Array[]
  /** Audit paths of several entries, in the order given, from the same tree. */
  inclusionProofs(indices: readonly number[]): Uint8Array[][]
}

/**
 * Validates the list and builds its Merkle tree once (about 64 bytes of memory per entry), so that the
 * inclusion proofs of any chosen entries (the winners) come without recomputing the tree. With
 * `options.secret` the leaves are salted (a private list) and {@link ParticipantsTree.salt} gives each salt.
 * @category Draw
 */
export function participantsTree(list: readonly string[] | readonly WeightedEntry[], options?: ParticipantsHashOptions): ParticipantsTree {
  const secret = secretOf(options)
  const { entries, weights } = normalize(list)
  const ents = entries.slice()
  const ws = weights === null ? null : weights.slice()
  return treeOver(ents, ws, secret, MerkleTree.fromLeafWords(leafWords(ents, ws, secret), ents.length))
}

/**
 * @internal The {@link ParticipantsTree} of entries already validated (by {@link normalize}) whose Merkle
 * tree was built elsewhere from their leaf hashes (for example on two threads, from lower levels).
 * `entries` and `weights` are kept: pass copies the caller will not change.
 */
export function participantsTreeOf(entries: readonly string[], weights: readonly number[] | null, secret: OrganizerSecret | null, tree: MerkleTree): ParticipantsTree {
  if (tree.size !== entries.length) throw new RangeError(`a tree of ${tree.size} leaves for ${entries.length} entries`)
  return treeOver(entries, weights, secret, tree)
}

function treeOver(ents: readonly string[], ws: readonly number[] | null, secret: OrganizerSecret | null, tree: MerkleTree): ParticipantsTree {
  const saltAt = (index: number): Uint8Array => {
    tree.leafHash(index) // range check with the tree's error
    if (secret === null) throw new InvalidInputError('NOT_SALTED', 'this participants list is not salted', 'build the tree with the organizer secret (participantsTree(list, { secret }))')
    return secret.saltOf(index)
  }
  return {
    size: tree.size,
    weighted: ws !== null,
    salted: secret !== null,
    root: () => tree.root(),
    leafData(index: number): Uint8Array {
      tree.leafHash(index) // range check with the tree's error
      const plain = ws === null ? encoder.encode(ents[index]!) : encodeWeightedLeaf(ents[index]!, ws[index]!)
      if (secret === null) return plain
      const out = new Uint8Array(SECRET_BYTES + plain.length)
      out.set(secret.saltOf(index), 0)
      out.set(plain, SECRET_BYTES)
      return out
    },
    salt: saltAt,
    inclusionProof: (index: number) => tree.inclusionProof(index),
    inclusionProofs: (indices: readonly number[]) => tree.inclusionProofs(indices),
  }
}
