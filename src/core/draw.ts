/**
 * The pure draw: from a commitment, its participants and the committed block, derive the outcome
 * and build the proof bundle. No network, no clock.
 *
 * @module
 */
import { parseBlock, type BeaconBlock } from './block.js'
import { bytesToBase64, bytesToHex } from './bytes.js'
import { checkKindEntries, checkParticipantsShape, describeCommitment, underPath, underPathAsync, validateCommitment, type Commitment, type CommitResult } from './commitment.js'
import { kindOf, usesParticipants } from './draw-spec.js'
import { InvalidInputError, MismatchError } from './errors.js'
import { checkProofFits, entryBytesFloor } from './proof-size.js'
import { DEFAULT_DRAW_KINDS, type OutcomeJson } from './kinds/registry.js'
import { type AnyDrawKind, type DrawKinds } from './kinds/kind.js'
import { computeOutcome, type Outcome } from './outcome.js'
import { participantsRoot, participantsTree, type ParticipantsDigest, type ParticipantsTree, type ParticipantsTreeBuilder, type WeightedEntry } from './participants.js'
import type { ParticipantsDisclosure, Proof } from './proof.js'
import { deriveSeed } from './seed.js'
import { deriveMixedSeed } from './drand/seed.js'
import { OrganizerSecret } from './secret.js'
import { PROOF_TYPE } from './version.js'

/**
 * Options for {@link drawFromBlock}.
 * @category Draw
 */
export interface DrawFromBlockOptions {
  /**
   * `'winners'` puts only the winners in the proof, each with its leaf salt and Merkle inclusion proof,
   * so the rest of a private list stays secret (kinds with ranked winners: `pick`, `weighted`, `panel`…).
   * `'full'` puts every entry (and, for a private list, every salt) in the proof.
   *
   * Default: `'winners'` for a salted (private) commitment, `'full'` for a public one. A salted
   * commitment of a kind that must disclose every entry (`shuffle`) needs `'full'` said explicitly.
   */
  disclosure?: 'full' | 'winners'
  /**
   * The organizer's secret, required for a salted (private) commitment and refused for a public one.
   * It derives the leaf salts; the proof carries salts (the winners' only, for `'winners'`), never the
   * secret.
   */
  secret?: OrganizerSecret | Uint8Array | undefined
  /** The registry of draw kinds (default: the built-in kinds; see `withKinds`). */
  kinds?: DrawKinds
}

/**
 * Participants as passed to a draw: strings, or weighted entries for `weighted` draws.
 * @category Draw
 */
export type Participants = readonly string[] | readonly WeightedEntry[]

/**
 * A draw whose inputs have been checked and hashed, waiting only for its block. Made by
 * {@link prepareDraw}; turned into a proof by {@link drawPrepared}. Holding one lets a caller fail
 * fast on a wrong participants list *before* waiting for the target block.
 * @category Draw
 */
export interface PreparedDraw {
  /** The validated commitment. */
  readonly commitment: Commitment
  /** Its CID. */
  readonly cid: string
  /** Its DAG-JSON form, as carried in the proof. */
  readonly json: CommitResult['json']
  /** The participants, checked against the committed root and count (`undefined` for `range`). */
  readonly participants: Participants | undefined
  /** How the proof discloses the participants. */
  readonly disclosure: 'full' | 'winners'
  /** The Merkle tree, kept for a private draw (inclusion proofs) and for a salted list (its salts). */
  readonly tree: ParticipantsTree | undefined
  /** The registry the draw's kind comes from. */
  readonly kinds: DrawKinds
}

/**
 * Checks everything a draw needs except its block: the commitment is valid, the disclosure fits the
 * draw kind and the list (winners-only needs a salted list), the secret is given exactly when the list
 * is salted, and the participants (salted with it) hash to the committed root and count. Pure.
 *
 * @throws {@link MismatchError} `PARTICIPANTS_MISMATCH` (also for a wrong secret); {@link InvalidInputError}
 *   `PRIVATE_NEEDS_SALTED_LIST`, `MISSING_SECRET`, `UNEXPECTED_SECRET`, bad options, missing or
 *   unexpected participants, or an invalid commitment.
 * @category Draw
 */
export function prepareDraw(commitment: Commitment, participants: Participants | undefined, options: DrawFromBlockOptions = {}): PreparedDraw {
  const inputs = checkDrawInputs(commitment, participants, options)
  const { list, secret, salted } = inputs
  if (list === undefined) return prepared(inputs, undefined, undefined)
  // A private draw needs the whole tree (inclusion proofs) and a salted one its salts; a public one needs the root.
  const tree = salted ? underPath('$.participants', () => participantsTree(list, { secret })) : undefined
  const root = tree === undefined ? underPath('$.participants', () => participantsRoot(list)) : tree.root()
  return prepared(inputs, root, tree)
}

/**
 * Options of {@link prepareDrawAsync}: {@link DrawFromBlockOptions}, plus the caller's own hashing
 * functions (each must give exactly what the core's gives; the result is compared with the commitment).
 * @category Draw
 */
export interface PrepareDrawOptions extends DrawFromBlockOptions {
  /** Digest of a public list (default {@link participantsRoot}; Node: `participantsRootParallel`, on two threads). */
  participantsDigest?: ParticipantsDigest
  /** Tree of a salted list, for its salts and inclusion proofs (default {@link participantsTree}; Node: `participantsTreeParallel`). */
  participantsTree?: ParticipantsTreeBuilder
}

/**
 * {@link prepareDraw} with the participants hashed by the caller's own, possibly asynchronous, functions:
 * the same checks in the same order, the same errors, the same {@link PreparedDraw}. The Node entry's
 * `draw` uses it with the two-thread digest and tree; in a browser it gives nothing over `prepareDraw`.
 *
 * @example
 * ```ts
 * const prepared = await prepareDrawAsync(commitment, entries, { participantsDigest: participantsRootParallel })
 * const proof = drawPrepared(prepared, block)
 * ```
 * @throws (the promise rejects with) {@link prepareDraw}'s errors.
 * @category Draw
 */
export async function prepareDrawAsync(commitment: Commitment, participants: Participants | undefined, options: PrepareDrawOptions = {}): Promise<PreparedDraw> {
  const inputs = checkDrawInputs(commitment, participants, options)
  const { list, secret, salted } = inputs
  if (list === undefined) return prepared(inputs, undefined, undefined)
  // The hashing functions validate the list: their errors are re-rooted as prepareDraw's are.
  const tree = salted ? await underPathAsync('$.participants', () => (options.participantsTree ?? participantsTree)(list, { secret })) : undefined
  const root = tree === undefined ? await underPathAsync('$.participants', () => (options.participantsDigest ?? participantsRoot)(list, {})) : tree.root()
  return prepared(inputs, root, tree)
}

interface DrawInputs {
  readonly commitment: Commitment
  readonly cid: string
  readonly json: CommitResult['json']
  readonly kinds: DrawKinds
  readonly disclosure: 'full' | 'winners'
  readonly salted: boolean
  readonly secret: OrganizerSecret | undefined
  readonly participants: Participants | undefined
  /** The participants to hash, when the draw uses them (checked for shape, kind rules and count). */
  readonly list: Participants | undefined
}

/** Every check of {@link prepareDraw} before the participants are hashed. */
function checkDrawInputs(commitment: Commitment, participants: Participants | undefined, options: DrawFromBlockOptions): DrawInputs {
  const { kind, ...checked } = checkDrawOptions(commitment, options)
  const { kinds } = checked
  const inputs = { commitment, ...checked, participants }
  if (usesParticipants(commitment.draw, kinds)) {
    if (participants === undefined) {
      throw new InvalidInputError('MISSING_PARTICIPANTS', 'this draw needs the committed participants', 'pass the same list, in the same order, as at commit time')
    }
    checkParticipantsShape(commitment.draw, participants, kinds)
    checkKindEntries(commitment.draw, participants, kinds)
    checkCount(commitment, participants.length)
    checkProofFits(participants.length, entryBytesFloor(participants), { full: checked.disclosure === 'full', salted: checked.salted, kind, spec: commitment.draw })
    return { ...inputs, list: participants }
  }
  if (participants !== undefined) {
    throw new InvalidInputError('UNEXPECTED_PARTICIPANTS', `a ${commitment.draw.kind} draw takes no participants`, 'pass undefined for participants')
  }
  return { ...inputs, list: undefined }
}

/** What {@link checkDrawOptions} found. */
interface DrawOptionsChecked {
  readonly kinds: DrawKinds
  readonly cid: string
  readonly json: CommitResult['json']
  readonly kind: AnyDrawKind
  readonly disclosure: 'full' | 'winners'
  readonly salted: boolean
  readonly secret: OrganizerSecret | undefined
}

/**
 * The checks of {@link prepareDraw} that do not look at the list: the commitment, the disclosure against
 * the kind and the list's salting, the secret given exactly when the list is salted.
 */
function checkDrawOptions(commitment: Commitment, options: DrawFromBlockOptions): DrawOptionsChecked {
  const kinds = options.kinds ?? DEFAULT_DRAW_KINDS
  validateCommitment(commitment, kinds)
  const { cid, json } = describeCommitment(commitment, kinds)
  const kind = kindOf(commitment.draw, kinds)
  const salted = commitment.participants?.salted === true
  // A salted commitment says the list is private: its draw reveals only the winners unless the caller
  // asks for a full disclosure by name. A salted kind that cannot draw winners-only needs that ask too.
  if (salted && options.disclosure === undefined && kind.winnersOnly === undefined) {
    throw new InvalidInputError(
      'FULL_DISCLOSURE_REQUIRED',
      `this commitment salts its leaves (a private list), but a ${commitment.draw.kind} draw's proof must carry every entry and its salt`,
      'pass disclosure: "full" to publish the whole list knowingly (orbitdraw draw --full-disclosure)',
    )
  }
  const disclosure = options.disclosure ?? (salted ? 'winners' : 'full')
  if (disclosure !== 'full' && disclosure !== 'winners') {
    throw new InvalidInputError('INVALID_OPTION', `unknown disclosure ${JSON.stringify(disclosure)}`, 'use "full" or "winners"')
  }
  if (disclosure === 'winners' && kind.winnersOnly === undefined) {
    throw new InvalidInputError('INVALID_OPTION', `a ${commitment.draw.kind} draw cannot keep the list private`, `private (winners-only) proofs are for ${privateKindNames(kinds)} draws; use disclosure "full"`)
  }
  if (disclosure === 'winners' && !salted) {
    throw new InvalidInputError(
      'PRIVATE_NEEDS_SALTED_LIST',
      'this commitment does not salt its leaves: the inclusion paths of a winners-only proof would let anyone test guesses of the other entries',
      'commit with private: { secret } (orbitdraw commit --private) to keep the list private, or draw with disclosure "full"',
    )
  }
  if (salted && options.secret === undefined) {
    throw new InvalidInputError('MISSING_SECRET', 'this commitment salts its leaves: the draw needs the organizer secret', 'pass secret: the secret returned by commit() (orbitdraw: --secret FILE, the *.secret.json written by commit --private)')
  }
  if (!salted && options.secret !== undefined) {
    throw new InvalidInputError('UNEXPECTED_SECRET', 'this commitment does not salt its leaves, but a secret was given', 'omit the secret, or use the commitment that was made with it')
  }
  const secret = options.secret === undefined ? undefined : OrganizerSecret.from(options.secret)
  return { kinds, cid, json, kind, disclosure, salted, secret }
}

/** Throws `PARTICIPANTS_MISMATCH` unless `count` participants were committed. */
function checkCount(commitment: Commitment, count: number): void {
  const expected = commitment.participants!.count
  if (count !== expected) {
    throw new MismatchError('PARTICIPANTS_MISMATCH', `${count} participants given, ${expected} committed`, 'pass exactly the committed list, in the committed order')
  }
}

/** The prepared draw, once the participants' root (from the digest or the tree) matches the commitment. */
function prepared(inputs: DrawInputs, root: Uint8Array | undefined, tree: ParticipantsTree | undefined): PreparedDraw {
  const { commitment, cid, json, participants, disclosure, kinds, salted } = inputs
  if (root !== undefined && (bytesToHex(root) !== commitment.participants!.root || (tree !== undefined && tree.size !== commitment.participants!.count))) {
    throw new MismatchError(
      'PARTICIPANTS_MISMATCH',
      'the participants do not hash to the committed root',
      salted ? 'pass exactly the committed list, in the committed order, with the same spelling, and the secret made with this commitment' : 'pass exactly the committed list, in the committed order, with the same spelling',
    )
  }
  return { commitment, cid, json, participants, disclosure, tree, kinds }
}

/**
 * @internal A participants list known only by its size and digest, as a streaming reader computes them
 * (`src/node/participants-stream.ts`: a draw of a file never holds the list).
 */
export interface ParticipantsDigestOnly {
  /** Number of entries. */
  readonly count: number
  /** Their participants digest (salted with the draw's secret for a salted list). */
  readonly root: Uint8Array
  /**
   * At least how many UTF-8 bytes the entries take together (the CLI: their UTF-16 length), to refuse
   * before waiting a proof no verifier could read.
   */
  readonly entryBytes?: number
  /** A weighted list's weights, in committed order (one per entry). */
  readonly weights?: readonly number[]
}

/**
 * @internal Whether a draw of this kind can go from the list's digest alone (see
 * {@link prepareDrawFromDigest}): it takes participants (plain entries, or weighted ones whose weights the
 * caller passes), and no rule looks at the whole list (`checkEntries`: the sortition and column kinds,
 * whose entries must spell out the types their spec counts, checked against each other). Its outcome
 * is computed from the count (and the weights) as for a list in memory.
 */
export function drawsFromDigest(kind: AnyDrawKind): boolean {
  return kind.participants !== 'none' && kind.checkEntries === undefined
}

/**
 * @internal {@link prepareDraw} for a list given by its count and digest (and, for a weighted kind, its
 * weights), for kinds that {@link drawsFromDigest}: the same checks in the same order, with the same
 * errors (the caller has checked each entry, the duplicates and the list's size, as `prepareDraw` does).
 * The prepared draw has no `participants` and no `tree`: its outcome comes from {@link outcomeFromBlock}
 * (with the weights) and its proof from {@link proofOf}, with the disclosure the caller builds from the
 * list (see `src/node/draw-stream.ts`).
 * @throws as {@link prepareDraw}; {@link InvalidInputError} `INVALID_OPTION` for a kind that needs the
 *   list, or takes none.
 */
export function prepareDrawFromDigest(commitment: Commitment, digest: ParticipantsDigestOnly, options: DrawFromBlockOptions = {}): PreparedDraw {
  const { kind, ...checked } = checkDrawOptions(commitment, options)
  if (kind.participants === 'none') throw new InvalidInputError('INVALID_OPTION', `a ${kind.name} draw takes no participants: there is no list to read`, 'draw it without a participants file (draw(commitment, undefined, options))')
  if (!drawsFromDigest(kind)) throw new InvalidInputError('INVALID_OPTION', `a ${kind.name} draw needs its whole participants list, not only its digest: its entries are checked against each other (they must spell out the types its spec counts)`, 'read the list and pass it to draw (orbitdraw draw reads such a list whole; its size is bounded by the kind\'s own limit)')
  if (kind.participants === 'weighted' && digest.weights?.length !== digest.count) throw new InvalidInputError('MISSING_WEIGHTS', `a weighted draw needs one weight per participant (${digest.count}), got ${digest.weights?.length ?? 'none'}`, 'read the list with its weights')
  checkCount(commitment, digest.count)
  if (digest.entryBytes !== undefined) checkProofFits(digest.count, digest.entryBytes, { full: checked.disclosure === 'full', salted: checked.salted, kind, spec: commitment.draw })
  return prepared({ commitment, ...checked, participants: undefined, list: undefined }, digest.root, undefined)
}

/**
 * @internal What the block decides: the block (parsed and checked against the target), the seed and the
 * computed outcome. The first half of {@link drawPrepared}.
 * @throws as {@link drawPrepared}.
 */
export function outcomeFromBlock(prepared: PreparedDraw, block: Pick<BeaconBlock, 'cid' | 'bytes'>, drand?: DrandEvidence, streamedWeights?: readonly number[]): { readonly block: BeaconBlock; readonly seed: Uint8Array; readonly outcome: Outcome; readonly drand?: DrandEvidence } {
  const { commitment, cid, participants } = prepared
  const kinds = prepared.kinds ?? DEFAULT_DRAW_KINDS
  const kind = kindOf(commitment.draw, kinds)
  const parsed = parseBlock(block.bytes, block.cid)
  if (parsed.sequence !== commitment.target) {
    throw new MismatchError('WRONG_BLOCK', `block ${parsed.cid} has sequence ${parsed.sequence}, the commitment targets ${commitment.target}`, `fetch block ${commitment.target} of the beacon`)
  }
  const committed = commitment.drand
  if (committed === undefined && drand !== undefined) throw new InvalidInputError('UNEXPECTED_DRAND_ROUND', 'this commitment names no drand round, but one was given', 'omit drand: only a mixed (version 2) commitment takes one')
  if (committed !== undefined && drand === undefined) throw new InvalidInputError('MISSING_DRAND_ROUND', `this commitment mixes in drand round ${committed.round}: the draw needs it`, 'pass the round (its signature, checked against the chain) and the time-stamps over the target block; if the round never appears, the draw is void')
  if (committed !== undefined && drand !== undefined && drand.round !== committed.round) throw new MismatchError('WRONG_DRAND_ROUND', `drand round ${drand.round} was given, the commitment names round ${committed.round}`, 'use the committed round; no other round may be substituted')
  const seed = drand === undefined ? deriveSeed(cid, parsed) : deriveMixedSeed(cid, parsed, drand)
  // A list read as a stream gives its weights (prepareDrawFromDigest); a list in memory carries them.
  const weights = kind.participants !== 'weighted' ? undefined : participants === undefined ? streamedWeights : (participants as readonly WeightedEntry[]).map((e) => e.weight)
  const outcome = computeOutcome(seed, commitment.draw, commitment.participants?.count ?? 0, weights, kinds)
  return drand === undefined ? { block: parsed, seed, outcome } : { block: parsed, seed, outcome, drand: { round: drand.round, signature: drand.signature, timestamps: [...drand.timestamps] } }
}

/**
 * The drand evidence of a mixed draw, as its proof carries it: the committed round, its signature (96
 * hex digits, checked against the chain by whoever fetched it; `verify` checks it again), and RFC 3161
 * tokens over the target block (standard base64) dated before the round's time.
 * @category Draw
 */
export interface DrandEvidence {
  readonly round: number
  readonly signature: string
  readonly timestamps: readonly string[]
}

/**
 * @internal The proof bundle of a drawn outcome with the given disclosure of the participants; `entry(i)`
 * names committed entry `i` in the outcome. The second half of {@link drawPrepared}.
 */
export function proofOf(prepared: PreparedDraw, drawn: ReturnType<typeof outcomeFromBlock>, participants: ParticipantsDisclosure | undefined, entry: (index: number) => string): Proof {
  return proofWith(prepared, drawn, participants, outcomeToJson(drawn.outcome, entry, prepared.kinds ?? DEFAULT_DRAW_KINDS))
}

/**
 * @internal {@link proofOf} with the outcome's proof form given by the caller (the streamed draw of a
 * file gives a ranking written from the file: `src/node/draw-stream.ts`).
 */
export function proofWith<O>(prepared: PreparedDraw, drawn: ReturnType<typeof outcomeFromBlock>, participants: ParticipantsDisclosure | undefined, outcome: O): Omit<Proof, 'outcome'> & { readonly outcome: O } {
  const { commitment, cid, json } = prepared
  return {
    type: PROOF_TYPE,
    version: commitment.version,
    commitment: json,
    commitmentCid: cid,
    ...(participants === undefined ? {} : { participants }),
    chain: { blocks: [{ cid: drawn.block.cid, bytes: bytesToBase64(drawn.block.bytes) }] },
    seed: bytesToHex(drawn.seed),
    outcome,
    ...(drawn.drand === undefined ? {} : { drand: drawn.drand }),
  }
}

/**
 * Derives a prepared draw's outcome from its block and returns the proof bundle. Pure.
 *
 * @param block - the target block (its CID and exact bytes; re-checked here).
 * @param drand - for a mixed (version 2) commitment, the committed drand round and the time-stamps over the block.
 * @throws {@link MismatchError} `WRONG_BLOCK`, `WRONG_DRAND_ROUND`; {@link InvalidInputError} `MISSING_DRAND_ROUND`; {@link InvalidInputError} `NO_RANDOMNESS`;
 *   {@link IntegrityError} when the block's bytes do not match its CID.
 * @category Draw
 */
export function drawPrepared(prepared: PreparedDraw, block: Pick<BeaconBlock, 'cid' | 'bytes'>, drand?: DrandEvidence): Proof {
  const { participants, tree } = prepared
  const kind = kindOf(prepared.commitment.draw, prepared.kinds ?? DEFAULT_DRAW_KINDS)
  const drawn = outcomeFromBlock(prepared, block, drand)
  const disclosure = participants === undefined ? undefined : disclose(participants, drawn.outcome, kind, tree, prepared.disclosure)
  return proofOf(prepared, drawn, disclosure, (i) => entryAt(participants, i))
}

/**
 * Derives a draw's outcome from the committed block and returns its proof bundle. Pure; the same as
 * `drawPrepared(prepareDraw(commitment, participants, options), block)`.
 *
 * Checks, in order: the commitment is valid; the participants hash to the committed root and count;
 * the block's bytes hash to its CID; the block is the committed target; the block carries randomness.
 *
 * @param commitment - the commitment as returned by `commit()` (or parsed with `parseCommitment`).
 * @param participants - the committed entries, in committed order; `undefined` for `range` draws.
 * @param block - the target block (its CID and exact bytes; re-checked here).
 * @throws {@link MismatchError} `PARTICIPANTS_MISMATCH` / `WRONG_BLOCK`; {@link InvalidInputError}
 *   `NO_RANDOMNESS` and others; {@link IntegrityError} when the block's bytes do not match its CID.
 * @category Draw
 */
export function drawFromBlock(
  commitment: Commitment,
  participants: Participants | undefined,
  block: Pick<BeaconBlock, 'cid' | 'bytes'>,
  options: DrawFromBlockOptions & { readonly drand?: DrandEvidence } = {},
): Proof {
  return drawPrepared(prepareDraw(commitment, participants, options), block, options.drand)
}

function entryAt(participants: Participants | undefined, i: number): string {
  const e = participants![i]!
  return typeof e === 'string' ? e : e.entry
}

function disclose(participants: Participants, outcome: Outcome, kind: AnyDrawKind, tree: ParticipantsTree | undefined, disclosure: 'full' | 'winners'): ParticipantsDisclosure {
  if (disclosure === 'full') {
    const entries = participants.map((e) => (typeof e === 'string' ? e : { entry: e.entry, weight: e.weight }))
    const salts = tree === undefined ? {} : { salts: participants.map((_, i) => bytesToHex(tree.salt(i))) }
    return { disclosure: 'full', entries: entries as string[] | { entry: string; weight: number }[], ...salts }
  }
  if (kind.winnersOnly === undefined || tree === undefined) throw new Error('unreachable: a private draw has a salted tree and participants')
  const winners = kind.winnersOnly.winners(outcome)
  const paths = tree.inclusionProofs(winners)
  return {
    disclosure: 'winners',
    revealed: winners.map((index, i) => ({ index, entry: entryAt(participants, index), salt: bytesToHex(tree.salt(index)), path: paths[i]!.map(bytesToHex) })),
  }
}

/**
 * Converts a computed outcome to its proof form, naming each winner's entry (the kind comes from `kinds`, default the built-in kinds).
 * @category Draw
 */
export function outcomeToJson(outcome: Outcome, entry: (index: number) => string, kinds: DrawKinds = DEFAULT_DRAW_KINDS): OutcomeJson {
  return kindOf(outcome, kinds, '$.outcome').toJson(outcome, entry) as OutcomeJson
}

/**
 * "pick" (or "pick or …"): the kinds that allow a winners-only proof.
 * @category Draw
 */
export function privateKindNames(kinds: DrawKinds): string {
  const names = kinds.list.filter((k) => k.winnersOnly !== undefined).map((k) => k.name)
  return names.length <= 1 ? (names[0] ?? 'no') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
}
