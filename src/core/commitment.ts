/**
 * Commitments. A commitment fixes, before its randomness exists, everything that decides a draw:
 * the beacon, the future target block, the participants (by Merkle root and count), the draw kind,
 * a label, and the latest block seen when committing. It is encoded as canonical DAG-JSON and
 * identified by its CIDv1 (dag-json codec 0x0129, sha2-256).
 *
 * @module
 */
import { bytesToHex, utf8Decode } from './bytes.js'
import { usesParticipants, validateDrawSpec } from './draw-spec.js'
import { DEFAULT_DRAW_KINDS } from './kinds/registry.js'
import type { DrawKinds, DrawSpecBase } from './kinds/kind.js'
import type { DrawSpec } from './kinds/registry.js'
import type { BlockRef, Commitment, ParticipantsCommitment } from './commitment-types.js'
export type { BlockRef, Commitment, ParticipantsCommitment, DrandCommitment } from './commitment-types.js'
import { InvalidInputError, LimitExceededError, OrbitdrawError } from './errors.js'
import { type JsonObject } from './json.js'
import { checkCommitFits, entryBytesFloor } from './proof-size.js'
import { checkLimit, LIMITS } from './limits.js'
import { participantsRoot, type ParticipantsDigest, type WeightedEntry } from './participants.js'
import { OrganizerSecret } from './secret.js'
import { MIXED_PROTOCOL_VERSION, PROTOCOL_VERSION } from './version.js'
import { validateCommitment } from './commitment-validate.js'
import { commitmentCidOfBytes, encodeCommitment } from './commitment-codec.js'



/**
 * Options for {@link commit}.
 * @category Draw
 */
export interface CommitOptions {
  /** IPNS name of the beacon. */
  beacon: string
  /** Target block sequence. Must be greater than `after.sequence`. */
  target: number
  /** The latest block seen now (from the beacon client's `latest()`, or a plan). */
  after: BlockRef
  /** Entries (strings), or weighted entries for `weighted` draws; omitted for `range`. */
  participants?: readonly string[] | readonly WeightedEntry[]
  /** What is drawn. */
  draw: DrawSpec
  /** Free text naming the draw. Default: empty. */
  label?: string
  /**
   * Mix a drand round in (protocol v2): the chain (its chain hash) and the round, chosen so that the
   * round's time falls safely after the target block's expected time (`planRound`; the Node entry's
   * `commit` plans it). The commitment then has version 2 and states the void rule.
   */
  drand?: { readonly chain: string; readonly round: number }
  /**
   * Make the list private: salt every leaf with a value derived from `secret` (32 random bytes, fresh
   * for every commitment; the core has no randomness source, so the caller supplies them; the Node
   * entry's `commit` also accepts `private: true` and generates them). A private list can be drawn
   * with a winners-only proof that reveals nothing about the other entries. Keep the secret: the draw
   * and the receipts need it. It is returned as {@link CommitResult.secret}, never in the commitment.
   */
  private?: { secret: OrganizerSecret | Uint8Array }
  /** The registry of draw kinds (default: the built-in kinds; see `withKinds`). */
  kinds?: DrawKinds
}

/**
 * A commitment with its canonical encoding and identity.
 * @category Draw
 */
export interface CommitResult {
  /** The typed commitment. */
  readonly commitment: Commitment
  /** Its CIDv1 (dag-json, sha2-256) as a base32 string (`baguqeera…`). */
  readonly cid: string
  /** Its canonical DAG-JSON bytes (what the CID hashes). */
  readonly bytes: Uint8Array
  /** Its DAG-JSON form as a plain JSON value, ready to publish or embed. */
  readonly json: JsonObject
  /**
   * The organizer's secret of a private (salted) list, separate from everything publishable; absent
   * for a public list. Store it privately (the draw and the receipts need it); it never serializes
   * (`JSON.stringify` and `console.log` print `[redacted]`), use `serializeSecretFile` on purpose.
   */
  readonly secret?: OrganizerSecret
}

/**
 * Builds a commitment. Pure: validates every input, computes the participants' Merkle root, encodes
 * canonically, and returns the commitment with its CID. Publish the CID (or the JSON) before the
 * target block exists.
 *
 * @example
 * ```ts
 * const { cid, json } = commit({
 *   beacon: 'k2k4r8lvomw737sajfnpav0dpeernugnryng50uheyk1k39lursmn09f',
 *   target: 1042, after: { sequence: 1037, block: 'bafkrei…' },
 *   participants: ['alice', 'bob', 'carol'], draw: { kind: 'pick', count: 1 }, label: 'Door prize',
 * })
 * ```
 * @throws {@link InvalidInputError} naming the bad option.
 * @category Draw
 */
export function commit(options: CommitOptions): CommitResult {
  const inputs = checkCommitInputs(options)
  const { list, secret } = inputs
  const root = list === undefined ? undefined : underPath('$.participants', () => participantsRoot(list, { secret }))
  return finishCommit(options, inputs, root)
}

/**
 * {@link commit} with the participants hashed by the caller's own, possibly asynchronous, digest
 * (default {@link participantsRoot}): the same checks, errors and result. The Node entry's `commitAsync`
 * passes `participantsRootParallel` (two threads) and also takes `private: true`.
 *
 * @example
 * ```ts
 * const { cid } = await commitAsync({ ...options, participants }, participantsRootParallel)
 * ```
 * @throws (the promise rejects with) {@link commit}'s errors.
 * @category Draw
 */
export async function commitAsync(options: CommitOptions, participantsDigest: ParticipantsDigest = participantsRoot): Promise<CommitResult> {
  const inputs = checkCommitInputs(options)
  const { list, secret } = inputs
  const root = list === undefined ? undefined : await underPathAsync('$.participants', () => participantsDigest(list, { secret }))
  return finishCommit(options, inputs, root)
}

interface CommitInputs {
  readonly kinds: DrawKinds
  readonly secret: OrganizerSecret | undefined
  /** The participants to hash, when the draw uses them (their shape checked). */
  readonly list: readonly string[] | readonly WeightedEntry[] | undefined
}

/** Every check of {@link commit} before the participants are hashed. */
function checkCommitInputs(options: CommitOptions): CommitInputs {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError('INVALID_OPTION', 'commit() needs an options object', 'pass { beacon, target, after, participants, draw, label }')
  }
  if (typeof options.draw !== 'object' || options.draw === null) {
    throw new InvalidInputError('INVALID_DRAW', 'draw must be an object', 'pass e.g. draw: { kind: "pick", count: 3 }', { path: '$.draw' })
  }
  const kinds = options.kinds ?? DEFAULT_DRAW_KINDS
  let secret: OrganizerSecret | undefined
  if (options.private !== undefined) {
    if (typeof options.private !== 'object' || options.private === null || options.private.secret === undefined) {
      throw new InvalidInputError('INVALID_OPTION', 'private must be { secret } with 32 random bytes', 'pass private: { secret: crypto.getRandomValues(new Uint8Array(32)) } (the Node entry also takes private: true)', { path: '$.private' })
    }
    secret = underPath('$.private.secret', () => OrganizerSecret.from(options.private!.secret))
    if (!usesParticipants(options.draw, kinds)) {
      throw new InvalidInputError('UNEXPECTED_SECRET', `a ${options.draw.kind} draw has no participants to keep private`, `omit private for ${options.draw.kind} draws`, { path: '$.private' })
    }
  }
  if (usesParticipants(options.draw, kinds)) {
    if (options.participants === undefined) {
      throw new InvalidInputError('MISSING_PARTICIPANTS', `a ${options.draw.kind} draw needs participants`, 'pass participants: an array of entries', { path: '$.participants' })
    }
    checkParticipantsShape(options.draw, options.participants, kinds)
    // A list no verifier could read the proof of (a public list's only proof is a full disclosure) is
    // refused before it is hashed; for a draw that is not valid, buildCommitment says why instead.
    try {
      checkCommitFits(options.participants.length, entryBytesFloor(options.participants), secret !== undefined, kinds.get(options.draw.kind), options.draw)
    } catch (err) {
      if (isValidDrawSpec(options.draw, options.participants.length, kinds)) throw err
    }
    return { kinds, secret, list: options.participants }
  }
  if (options.participants !== undefined) {
    throw new InvalidInputError('UNEXPECTED_PARTICIPANTS', `a ${options.draw.kind} draw takes no participants`, `omit participants for ${options.draw.kind} draws`, { path: '$.participants' })
  }
  return { kinds, secret, list: undefined }
}

/** Whether `draw` is a valid spec for `count` participants (its error, if any, is `buildCommitment`'s to raise). */
function isValidDrawSpec(draw: DrawSpecBase, count: number, kinds: DrawKinds): boolean {
  try {
    validateDrawSpec(draw, count, '$.draw', kinds)
    return true
  } catch {
    return false
  }
}

function finishCommit(options: CommitOptions, { kinds, secret, list }: CommitInputs, rootBytes: Uint8Array | undefined): CommitResult {
  let participants: ParticipantsCommitment | undefined
  if (list !== undefined && rootBytes !== undefined) {
    const root = bytesToHex(rootBytes)
    participants = secret === undefined ? { count: list.length, root } : { count: list.length, root, salted: true }
  }
  return buildCommitment(options, participants, kinds, secret, list)
}

/**
 * @internal `commit` for a list whose digest the caller computed itself, without holding the list: the
 * CLI streams a participants file through the same digest (`participants-stream.ts`, proven equal to
 * `participantsRoot` by tests). The organizer's own computation: nothing here is taken from a third
 * party (a verifier always recomputes the digest from the entries it is given). `salted` records a
 * private list (the secret stays with the caller). `entryBytes`, a floor of the entries' UTF-8 bytes
 * (the CLI: their UTF-16 length), refuses a public list whose full disclosure no verifier could read,
 * as `commit` does.
 */
export function commitWithDigest(options: Omit<CommitOptions, 'participants' | 'private'>, digest: { count: number; root: Uint8Array; salted: boolean; entryBytes?: number }): CommitResult {
  const kinds = options.kinds ?? DEFAULT_DRAW_KINDS
  if (typeof options.draw !== 'object' || options.draw === null || !usesParticipants(options.draw, kinds)) {
    throw new InvalidInputError('INVALID_DRAW', 'a digest is only for draws with participants', 'pass a draw over participants, e.g. { kind: "pick", count: 3 }', { path: '$.draw' })
  }
  if (kinds.get(options.draw.kind)?.checkEntries !== undefined) {
    throw new InvalidInputError('INVALID_DRAW', `a ${options.draw.kind} draw checks its entries: commit the list itself, not its digest`, 'pass participants to commit', { path: '$.draw' })
  }
  checkLimit('maxParticipants', digest.count, 'participant count')
  const root = bytesToHex(digest.root)
  const result = buildCommitment(options, digest.salted ? { count: digest.count, root, salted: true } : { count: digest.count, root }, kinds, undefined, undefined)
  if (digest.entryBytes !== undefined) checkCommitFits(digest.count, digest.entryBytes, digest.salted, kinds.get(options.draw.kind), options.draw)
  return result
}

function buildCommitment(options: Omit<CommitOptions, 'participants' | 'private'>, participants: ParticipantsCommitment | undefined, kinds: DrawKinds, secret: OrganizerSecret | undefined, list: readonly (string | WeightedEntry)[] | undefined): CommitResult {
  const commitment: Commitment = {
    version: options.drand === undefined ? PROTOCOL_VERSION : MIXED_PROTOCOL_VERSION,
    beacon: options.beacon,
    target: options.target,
    after: { sequence: options.after?.sequence, block: options.after?.block },
    ...(participants === undefined ? {} : { participants }),
    draw: options.draw,
    label: options.label ?? '',
    ...(options.drand === undefined ? {} : { drand: { chain: options.drand?.chain, round: options.drand?.round, ifMissing: 'void' as const } }),
  }
  validateCommitment(commitment, kinds)
  const kind = kinds.get(commitment.draw.kind)!
  kind.validateCommit?.(commitment.draw, participants?.count ?? 0, '$.draw')
  if (list !== undefined) checkKindEntries(commitment.draw, list, kinds)
  const described = describeCommitment(commitment, kinds)
  return secret === undefined ? described : { ...described, secret }
}

/** Runs `fn`, re-rooting the JSON path of any {@link OrbitdrawError} it throws under `prefix`. */
export function underPath<T>(prefix: string, fn: () => T): T {
  try {
    return fn()
  } catch (err) {
    throw rerooted(prefix, err)
  }
}

/** {@link underPath} for a `fn` that may return a promise (a caller's own digest or tree function). */
export async function underPathAsync<T>(prefix: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    throw rerooted(prefix, err)
  }
}

/** `err` with its JSON path under `prefix` when it is an {@link OrbitdrawError} with a JSON path (or none); else `err`. */
function rerooted(prefix: string, err: unknown): unknown {
  if (err instanceof OrbitdrawError && (err.path === undefined || err.path.startsWith('$'))) {
    const Ctor = err.constructor as new (code: string, detail: string, hint: string, options: { path: string; cause: unknown }) => OrbitdrawError
    return new Ctor(err.code, err.detail, err.hint, { path: prefix + (err.path ?? '$').slice(1), cause: err })
  }
  return err
}

/**
 * Checks the whole committed list against a kind's own rule for entries (`checkEntries`, for example
 * a sortition entry spelling out the type its index has), after the spec is valid.
 * @throws {@link InvalidInputError} `INVALID_PARTICIPANTS`.
 */
export function checkKindEntries(draw: DrawSpecBase, list: readonly (string | WeightedEntry)[], kinds: DrawKinds = DEFAULT_DRAW_KINDS): void {
  const kind = kinds.get(draw.kind)
  if (kind?.checkEntries === undefined) return
  const problem = kind.checkEntries(draw, list.map((e, index) => ({ index, entry: typeof e === 'string' ? e : e.entry })), true)
  if (problem !== undefined) throw new InvalidInputError('INVALID_PARTICIPANTS', `the participants do not fit the ${draw.kind} draw: ${problem}`, `commit the list the ${draw.kind} draw was built with, in its order`, { path: '$.participants' })
}

/** Checks that the participants list has the shape the draw kind needs (strings or weighted entries). */
export function checkParticipantsShape(draw: DrawSpecBase, list: readonly unknown[], kinds: DrawKinds = DEFAULT_DRAW_KINDS): void {
  if (!Array.isArray(list)) {
    throw new InvalidInputError('INVALID_PARTICIPANTS', 'participants must be an array', 'pass an array of entries', { path: '$.participants' })
  }
  checkLimit('maxParticipants', list.length, 'participant count')
  const weighted = kinds.get(draw.kind)?.participants === 'weighted'
  list.forEach((e, i) => {
    const ok = weighted ? typeof e === 'object' && e !== null && typeof (e as WeightedEntry).entry === 'string' : typeof e === 'string'
    if (!ok) {
      throw new InvalidInputError(
        'INVALID_PARTICIPANTS',
        weighted ? 'a weighted draw needs entries of the form { entry, weight }' : `a ${draw.kind} draw needs string entries`,
        weighted ? 'give every entry a positive integer weight' : 'pass plain strings (weights are only for weighted draws)',
        { path: `$.participants[${i}]` },
      )
    }
  })
}

/**
 * Returns the CID, canonical bytes and JSON form of an already valid commitment.
 * @category Formats
 */
export function describeCommitment(commitment: Commitment, kinds: DrawKinds = DEFAULT_DRAW_KINDS): CommitResult {
  const bytes = encodeCommitment(commitment, kinds)
  if (bytes.length > LIMITS.maxCommitmentBytes) {
    throw new LimitExceededError('LIMIT_EXCEEDED', `the commitment encodes to ${bytes.length} bytes, over the limit maxCommitmentBytes = ${LIMITS.maxCommitmentBytes}`, 'shorten the label, or commit fewer distinct types (a sortition pool, allocation columns)', { path: '$' })
  }
  return {
    commitment,
    cid: commitmentCidOfBytes(bytes),
    bytes,
    json: JSON.parse(utf8Decode(bytes)) as JsonObject,
  }
}

export { validateCommitment, validateBeaconName } from './commitment-validate.js'
export { encodeCommitment, commitmentCidOfBytes, commitmentCid } from './commitment-codec.js'
export { parseCommitment } from './commitment-parse.js'
