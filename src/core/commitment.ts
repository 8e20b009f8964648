/**
 * Commitments. A commitment fixes, before its randomness exists, everything that decides a draw:
 * the beacon, the future target block, the participants (by Merkle root and count), the draw kind,
 * a label, and the latest block seen when committing. It is encoded as canonical DAG-JSON and
 * identified by its CIDv1 (dag-json codec 0x0129, sha2-256).
 *
 * @module
 */
import * as dagJson from '@ipld/dag-json'
import { CID } from 'multiformats/cid'
import { base36 } from 'multiformats/bases/base36'
import { create as createDigest } from 'multiformats/hashes/digest'
import { sha256 } from '@noble/hashes/sha2.js'
import { parseCid, SHA2_256 } from './block.js'
import { bytesToHex, hexToBytes, isWellFormed, utf8Decode, utf8Encode } from './bytes.js'
import { usesParticipants, validateDrawSpec } from './draw-spec.js'
import { DEFAULT_DRAW_KINDS, type DrawSpec } from './kinds/registry.js'
import { type DrawKinds, type DrawSpecBase } from './kinds/kind.js'
import { InvalidInputError, LimitExceededError, OrbitdrawError, ParseError, UnsupportedVersionError } from './errors.js'
import { decodeJsonInput, expectObject, expectString, field, show, type JsonObject } from './json.js'
import { checkCommitFits, entryBytesFloor } from './proof-size.js'
import { checkLimit, LIMITS } from './limits.js'
import { participantsRoot, type ParticipantsDigest, type WeightedEntry } from './participants.js'
import { OrganizerSecret } from './secret.js'
import { COMMITMENT_PARSE_SHAPE } from './schema/commitment.js'
import { parseShape, type Infer } from './schema/kit.js'
import { MIXED_PROTOCOL_VERSION, PROTOCOL_VERSION, SUPPORTED_VERSIONS } from './version.js'
import { checkRound } from './drand/chain.js'

/** Multicodec code of `libp2p-key`, the codec of IPNS names. */
const LIBP2P_KEY = 0x72

/**
 * The latest beacon block the organizer saw when committing.
 * @category Formats
 */
export interface BlockRef {
  /** Its sequence number. */
  readonly sequence: number
  /** Its CID (canonical CIDv1 string). */
  readonly block: string
}

/**
 * The participants as committed: their RFC 9162 Merkle tree hash and their number.
 * @category Formats
 */
export interface ParticipantsCommitment {
  /** Number of entries. */
  readonly count: number
  /** Merkle tree hash of the entries' leaves in committed order, as 64 lowercase hex digits. */
  readonly root: string
  /**
   * `true` for a private list: every leaf is salted with a value derived from the organizer's secret
   * (docs/spec.md, Salted leaves). Absent for a public list (never `false`: one encoding per meaning).
   */
  readonly salted?: true
}

/**
 * A commitment, in its typed form. Its canonical bytes come from {@link encodeCommitment}.
 * @category Formats
 */
export interface Commitment {
  /** Protocol version (currently 1). */
  readonly version: number
  /** IPNS name of the beacon (`k2k4r8…` or `k51…`). */
  readonly beacon: string
  /** Sequence number of the future block whose `ctrng` values decide the draw. */
  readonly target: number
  /** The latest block seen when committing; `target` must be greater than its sequence. */
  readonly after: BlockRef
  /** The committed participants; absent for `range` draws. */
  readonly participants?: ParticipantsCommitment
  /** What is drawn. */
  readonly draw: DrawSpec
  /** Free text naming the draw (at most 1024 UTF-8 bytes). */
  readonly label: string
  /** The second source of a mixed draw (protocol version 2 only): a drand chain and round. */
  readonly drand?: DrandCommitment
}

/**
 * The drand round a mixed (version 2) draw commits to, beside its target block (docs/spec.md, "Protocol
 * v2: the second source").
 * @category Formats
 */
export interface DrandCommitment {
  /** drand's chain hash of the chain (64 lowercase hex digits); the verifier pins the chain itself. */
  readonly chain: string
  /** The round whose signature is mixed in; its time falls after the target block's expected time. */
  readonly round: number
  /**
   * The void rule, stated in the commitment: `"void"`, always. If the target block or the round never
   * appears, the draw is void and needs a new commitment; no source is ever substituted.
   */
  readonly ifMissing: 'void'
}

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
    throw new LimitExceededError('LIMIT_EXCEEDED', `the commitment encodes to ${bytes.length} bytes, over the limit maxCommitmentBytes = ${LIMITS.maxCommitmentBytes}`, 'shorten the label or the range bounds', { path: '$' })
  }
  return {
    commitment,
    cid: commitmentCidOfBytes(bytes),
    bytes,
    json: JSON.parse(utf8Decode(bytes)) as JsonObject,
  }
}

/**
 * Validates a typed commitment.
 * @throws {@link InvalidInputError} naming the first bad field; {@link UnsupportedVersionError}.
 */
export function validateCommitment(c: Commitment, kinds: DrawKinds = DEFAULT_DRAW_KINDS): void {
  const bad: (path: string, detail: string, hint: string) => never = (path, detail, hint) => {
    throw new InvalidInputError('INVALID_COMMITMENT', detail, hint, { path })
  }
  if (!SUPPORTED_VERSIONS.includes(c.version)) {
    throw new UnsupportedVersionError('UNSUPPORTED_VERSION', `protocol version ${String(c.version)} is not supported`, `this release implements version ${SUPPORTED_VERSIONS.join(', ')}; upgrade orbitdraw`, { path: '$.version' })
  }
  validateBeaconName(c.beacon, '$.beacon')
  if (!Number.isSafeInteger(c.after?.sequence) || c.after.sequence < 0) bad('$.after.sequence', 'after.sequence must be a non-negative integer', 'pass the sequence of the latest block you saw')
  if (typeof c.after.block !== 'string') bad('$.after.block', 'after.block must be a CID string', 'pass the CID of the latest block you saw')
  try {
    parseCid(c.after.block, '$.after.block')
  } catch (err) {
    const e = err as OrbitdrawError
    const code = e.code === 'UNSUPPORTED_HASH' ? 'UNSUPPORTED_HASH' : 'INVALID_CID' // parseCid's two codes
    throw new InvalidInputError(code, e.detail, e.hint, { path: '$.after.block', cause: err })
  }
  if (!Number.isSafeInteger(c.target) || c.target <= c.after.sequence) {
    bad('$.target', `target ${String(c.target)} must be an integer greater than the latest seen block ${c.after.sequence}`, 'commit to a block that does not exist yet')
  }
  validateDrandCommitment(c)
  if (typeof c.label !== 'string' || !isWellFormed(c.label)) bad('$.label', 'label must be a well-formed string', 'use plain text')
  if (utf8Encode(c.label).length > LIMITS.maxLabelBytes) bad('$.label', `label is over ${LIMITS.maxLabelBytes} UTF-8 bytes`, 'shorten the label')
  if (typeof c.draw !== 'object' || c.draw === null || kinds.get(c.draw.kind) === undefined) {
    bad('$.draw.kind', `unknown draw kind ${show((c.draw as { kind?: unknown } | null)?.kind)}`, `use one of ${kinds.names.join(', ')}`)
  }
  if (usesParticipants(c.draw, kinds)) {
    const p = c.participants
    if (p === undefined) bad('$.participants', `a ${c.draw.kind} draw needs participants`, 'commit to a participants list')
    if (!Number.isSafeInteger(p.count) || p.count < 1 || p.count > LIMITS.maxParticipants) bad('$.participants.count', `participants count must be 1 to ${LIMITS.maxParticipants}`, 'check the participants list')
    if (typeof p.root !== 'string' || !/^[0-9a-f]{64}$/.test(p.root)) bad('$.participants.root', 'participants root must be 64 lowercase hex digits', 'use the root computed by commit()')
    if (p.salted !== undefined && p.salted !== true) bad('$.participants.salted', 'participants.salted must be true or absent', 'omit salted for a public list (it is never false)')
    validateDrawSpec(c.draw, p.count, '$.draw', kinds)
  } else {
    if (c.participants !== undefined) bad('$.participants', `a ${c.draw.kind} draw takes no participants`, 'omit participants')
    validateDrawSpec(c.draw, 0, '$.draw', kinds)
  }
}

/** A version 2 commitment names a drand chain and round; a version 1 commitment does not. */
function validateDrandCommitment(c: Commitment): void {
  const d = c.drand
  if (c.version === MIXED_PROTOCOL_VERSION && d === undefined) throw new InvalidInputError('INVALID_COMMITMENT', 'a version 2 commitment must name a drand round', 'add drand: { chain, round }, or commit with version 1', { path: '$.drand' })
  if (d === undefined) return
  if (c.version !== MIXED_PROTOCOL_VERSION) throw new InvalidInputError('INVALID_COMMITMENT', `a version ${c.version} commitment cannot name a drand round`, 'a mixed draw is protocol version 2 (commit() sets it)', { path: '$.drand' })
  if (typeof d !== 'object' || d === null) throw new InvalidInputError('INVALID_COMMITMENT', 'drand must be { chain, round }', 'pass the chain hash and the planned round', { path: '$.drand' })
  if (typeof d.chain !== 'string' || !/^[0-9a-f]{64}$/.test(d.chain)) throw new InvalidInputError('INVALID_DRAND_INFO', 'drand.chain must be a chain hash (64 lowercase hex digits)', 'use the chain\'s "hash" from its /info (quicknet: 52db9ba7…)', { path: '$.drand.chain' })
  checkRound(d.round, '$.drand.round')
  if (d.ifMissing !== 'void') throw new InvalidInputError('INVALID_COMMITMENT', 'drand.ifMissing must be "void"', 'a missing source voids the draw; no source is ever substituted', { path: '$.drand.ifMissing' })
}

/**
 * Validates an IPNS name: a CIDv1 with the libp2p-key codec, as base36 (`k…`) or base32 (`b…`).
 * @category Draw
 */
export function validateBeaconName(name: unknown, path = '$.beacon'): void {
  const fail: (cause?: unknown) => never = (cause) => {
    throw new InvalidInputError('INVALID_BEACON_NAME', `beacon must be an IPNS name (libp2p-key CID), got ${JSON.stringify(String(name).slice(0, 80))}`, 'use a name like k2k4r8lvomw737sajfnpav0dpeernugnryng50uheyk1k39lursmn09f', { path, cause })
  }
  // Base36 (k…) or base32 (b…) only, as the spec and the schema say (CID.parse would also take base58btc z…).
  if (typeof name !== 'string' || name.length > LIMITS.maxCidChars || !/^[bk]/.test(name)) fail()
  let cid: CID
  try {
    cid = name.startsWith('k') ? CID.parse(name, base36) : CID.parse(name)
  } catch (cause) {
    return fail(cause)
  }
  if (cid.version !== 1 || cid.code !== LIBP2P_KEY) fail()
}

/** The IPLD data-model form of a commitment (links as CIDs, the root as bytes, bigints as strings). */
function toIpld(c: Commitment, kinds: DrawKinds): Record<string, unknown> {
  const out: Record<string, unknown> = {
    version: c.version,
    beacon: c.beacon,
    target: c.target,
    after: { sequence: c.after.sequence, block: parseCid(c.after.block, '$.after.block') },
    draw: drawToIpld(c.draw, kinds),
    label: c.label,
  }
  if (c.drand !== undefined) out.drand = { chain: c.drand.chain, round: c.drand.round, ifMissing: c.drand.ifMissing }
  if (c.participants !== undefined) {
    out.participants = { count: c.participants.count, root: hexToBytes(c.participants.root), ...(c.participants.salted === true ? { salted: true } : {}) }
  }
  return out
}

/** The draw's IPLD form, from its kind. @throws {@link InvalidInputError} `INVALID_DRAW` for an unknown kind. */
function drawToIpld(d: DrawSpecBase, kinds: DrawKinds): { readonly [key: string]: unknown } {
  const kind = kinds.get(d.kind)
  if (kind === undefined) throw new InvalidInputError('INVALID_DRAW', `unknown draw kind ${show(d.kind)}`, `use one of ${kinds.names.join(', ')}`, { path: '$.draw.kind' })
  return kind.encode(d)
}

/**
 * Canonical DAG-JSON bytes of a commitment (keys sorted bytewise, no whitespace).
 * @category Formats
 */
export function encodeCommitment(c: Commitment, kinds: DrawKinds = DEFAULT_DRAW_KINDS): Uint8Array {
  return dagJson.encode(toIpld(c, kinds))
}

/** The CIDv1 (dag-json 0x0129, sha2-256) of canonical commitment bytes. */
export function commitmentCidOfBytes(bytes: Uint8Array): string {
  return CID.createV1(dagJson.code, createDigest(SHA2_256, sha256(bytes))).toString()
}

/**
 * The CID of a commitment.
 * @category Formats
 */
export function commitmentCid(c: Commitment, kinds: DrawKinds = DEFAULT_DRAW_KINDS): string {
  return commitmentCidOfBytes(encodeCommitment(c, kinds))
}

/**
 * The order in which the protocol checks a commitment's fields where it is not the declaration
 * order: `after.sequence` after `target`, just before `label`; the beacon name after every field's shape.
 */
function checkOrder(keys: readonly (string | number)[], code: string): number {
  if (code === 'INVALID_BEACON_NAME') return 3
  if (keys[0] === 'after' && keys[1] === 'sequence') return 1
  return keys[0] === 'label' ? 2 : 0
}


/**
 * Whether a failed check of the commitment's shape comes after the draw in the protocol's order
 * (after `version`, the unknown top-level fields, `after` and its block link, and `draw` itself):
 * then a bad draw, read by its kind, is reported first.
 */
function afterDraw(err: OrbitdrawError): boolean {
  const path = err.path ?? '$'
  if (err.code === 'UNKNOWN_FIELD' && path.lastIndexOf('.') === 1) return false
  return ['$.participants', '$.beacon', '$.target', '$.after.sequence', '$.label'].some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`))
}

/** Reads the commitment's `draw` (decoded DAG-JSON data model) with its kind's own parser. */
function readDraw(o: JsonObject, kinds: DrawKinds): DrawSpec {
  const drawObj = expectObject(field(o, 'draw', '$'), '$.draw')
  const name = expectString(field(drawObj, 'kind', '$.draw'), '$.draw.kind')
  const kind = kinds.get(name)
  if (kind === undefined) throw new ParseError('INVALID_FIELD', `unknown draw kind ${JSON.stringify(name)}`, `use one of ${kinds.names.join(', ')}`, { path: '$.draw.kind' })
  return kind.parse(drawObj, '$.draw') as DrawSpec
}

function tooLarge(size: number): LimitExceededError {
  return new LimitExceededError('LIMIT_EXCEEDED', `the commitment is ${size} bytes, over the limit maxCommitmentBytes = ${LIMITS.maxCommitmentBytes}`, 'supply the commitment exactly as commit() produced it', { path: '$' })
}

/** Rejects any DAG-JSON link `{"/": "<cid>"}` whose text is longer than LIMITS.maxCidChars (iterative walk). */
function checkLinkLengths(root: unknown, rootPath: string): void {
  const stack: [unknown, string][] = [[root, rootPath]]
  while (stack.length > 0) {
    const [v, path] = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push([x, `${path}[${i}]`]))
      continue
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (k === '/' && typeof x === 'string' && x.length > LIMITS.maxCidChars) {
        throw new ParseError('INVALID_CID', `a link is ${x.length} characters, over the limit maxCidChars = ${LIMITS.maxCidChars}`, 'use the CID exactly as commit() wrote it', { path })
      }
      stack.push([x, `${path}.${k}`])
    }
  }
}

/**
 * Parses a commitment from its DAG-JSON form (as found in a proof or a published file): strict,
 * unknown fields rejected, every field checked.
 *
 * @param json - the DAG-JSON form, either as parsed JSON or as text/bytes.
 * @param options - `kinds`: the registry to read the draw kind from (default: the built-in kinds).
 * @throws {@link ParseError} with the path of the first bad field; {@link UnsupportedVersionError}.
 * @category Formats
 */
export function parseCommitment(json: unknown, options: { readonly kinds?: DrawKinds } = {}): Commitment {
  const kinds = options.kinds ?? DEFAULT_DRAW_KINDS
  let value: unknown
  let text: string
  try {
    // Bytes and text go through the core's one entry point (size in UTF-8 bytes before decoding, strict
    // UTF-8, no BOM, bounded depth, no duplicate keys, integers only); a parsed value is re-serialized.
    const parsed = json instanceof Uint8Array || typeof json === 'string' ? decodeJsonInput(json, { what: 'commitment', maxBytes: LIMITS.maxCommitmentBytes, integersOnly: true, tooLarge }) : json
    const serialized = JSON.stringify(parsed)
    if (serialized === undefined) throw new Error('not JSON')
    text = serialized
    // The limit is in UTF-8 bytes of the compact form, whatever the input was (docs/spec.md, The proof bundle).
    const encoded = utf8Encode(text)
    if (encoded.length > LIMITS.maxCommitmentBytes) throw tooLarge(encoded.length)
    // DAG-JSON decodes links as it reads them; CID text is checked first (base58/base36 decoding is quadratic).
    checkLinkLengths(JSON.parse(text), '$')
    value = dagJson.decode(encoded)
  } catch (cause) {
    if (cause instanceof ParseError || cause instanceof LimitExceededError) throw cause
    throw new ParseError('INVALID_COMMITMENT', `commitment is not valid DAG-JSON: ${(cause as Error).message}`, 'supply the commitment JSON exactly as commit() produced it', { path: '$', cause })
  }
  const o = expectObject(value, '$')
  const version = field(o, 'version', '$')
  if (typeof version !== 'number' || !SUPPORTED_VERSIONS.includes(version)) {
    throw new UnsupportedVersionError('UNSUPPORTED_VERSION', `commitment protocol version ${show(version)} is not supported`, `this release implements version ${SUPPORTED_VERSIONS.join(', ')}; upgrade orbitdraw to verify it`, { path: '$.version' })
  }
  // The declared shape (src/core/schema/commitment.ts) on the JSON form, which the DAG-JSON decoder
  // accepted: links and bytes in their one canonical spelling, no unknown field, every field's type.
  // `draw` is only required to be an object there: its kind's own parser reads it (the registry the
  // caller passed), in its place in the protocol's order.
  let shaped: Infer<typeof COMMITMENT_PARSE_SHAPE>
  try {
    shaped = parseShape(COMMITMENT_PARSE_SHAPE, JSON.parse(text), '$', checkOrder)
  } catch (err) {
    if (err instanceof OrbitdrawError && afterDraw(err)) readDraw(o, kinds)
    throw err
  }
  // The decoded form gives the link as a CID and the root as bytes (the shape guarantees both).
  const decoded = o as { after: { block: unknown }; participants?: { root: Uint8Array } }
  const afterBlock = CID.asCID(decoded.after.block)
  if (afterBlock === null) throw new ParseError('INVALID_FIELD', 'after.block must be a CID link {"/": "<cid>"}', 'use the DAG-JSON link form', { path: '$.after.block' })
  const draw = readDraw(o, kinds)
  let participants: ParticipantsCommitment | undefined
  if (shaped.participants !== undefined && decoded.participants !== undefined) {
    const { count, salted } = shaped.participants
    const root = bytesToHex(decoded.participants.root)
    participants = salted === true ? { count, root, salted } : { count, root }
  }
  const commitment: Commitment = {
    version,
    beacon: shaped.beacon,
    target: shaped.target,
    after: { sequence: shaped.after.sequence, block: afterBlock.toString() },
    ...(participants === undefined ? {} : { participants }),
    draw,
    label: shaped.label,
    ...(shaped.drand === undefined ? {} : { drand: { chain: shaped.drand.chain, round: shaped.drand.round, ifMissing: shaped.drand.ifMissing } }),
  }
  try {
    validateCommitment(commitment, kinds)
  } catch (err) {
    if (err instanceof InvalidInputError) throw new ParseError(err.code, err.detail, err.hint, { path: err.path ?? '$', cause: err })
    throw err
  }
  return commitment
}
