/**
 * The pure draw: from a commitment, its participants and the committed block, derive the outcome
 * and build the proof bundle. No network, no clock.
 *
 * @module
 */
import { parseBlock, type BeaconBlock } from './block.js'
import { bytesToBase64, bytesToHex } from './bytes.js'
import { checkParticipantsShape, describeCommitment, underPath, validateCommitment, type Commitment, type CommitResult } from './commitment.js'
import { usesParticipants } from './draw-spec.js'
import { InvalidInputError, MismatchError } from './errors.js'
import { computeOutcome, type Outcome } from './outcome.js'
import { participantsRoot, participantsTree, type ParticipantsTree, type WeightedEntry } from './participants.js'
import type { OutcomeJson, ParticipantsDisclosure, Proof, RankedJson } from './proof.js'
import { deriveSeed } from './seed.js'
import { PROOF_TYPE } from './version.js'

/** Options for {@link drawFromBlock}. */
export interface DrawFromBlockOptions {
  /**
   * `'full'` (default) puts every entry in the proof (public draw). `'winners'` puts only the winners,
   * each with its Merkle inclusion proof, so the list stays private (`pick` draws only).
   */
  disclosure?: 'full' | 'winners'
}

/** Participants as passed to a draw: strings, or weighted entries for `weighted` draws. */
export type Participants = readonly string[] | readonly WeightedEntry[]

/**
 * A draw whose inputs have been checked and hashed, waiting only for its block. Made by
 * {@link prepareDraw}; turned into a proof by {@link drawPrepared}. Holding one lets a caller fail
 * fast on a wrong participants list *before* waiting for the target block.
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
  /** The Merkle tree, kept only for a private draw (its inclusion proofs). */
  readonly tree: ParticipantsTree | undefined
}

/**
 * Checks everything a draw needs except its block: the commitment is valid, the disclosure fits the
 * draw kind, and the participants hash to the committed root and count. Pure.
 *
 * @throws {@link MismatchError} `PARTICIPANTS_MISMATCH`; {@link InvalidInputError} for bad options,
 *   missing or unexpected participants, or an invalid commitment.
 */
export function prepareDraw(commitment: Commitment, participants: Participants | undefined, options: DrawFromBlockOptions = {}): PreparedDraw {
  validateCommitment(commitment)
  const { cid, json } = describeCommitment(commitment)
  const disclosure = options.disclosure ?? 'full'
  if (disclosure !== 'full' && disclosure !== 'winners') {
    throw new InvalidInputError('INVALID_OPTIONS', `unknown disclosure ${JSON.stringify(disclosure)}`, 'use "full" or "winners"')
  }
  if (disclosure === 'winners' && commitment.draw.kind !== 'pick') {
    throw new InvalidInputError('INVALID_OPTIONS', `a ${commitment.draw.kind} draw cannot keep the list private`, 'private (winners-only) proofs are for pick draws; use disclosure "full"')
  }

  let tree: ParticipantsTree | undefined
  if (usesParticipants(commitment.draw)) {
    if (participants === undefined) {
      throw new InvalidInputError('MISSING_PARTICIPANTS', 'this draw needs the committed participants', 'pass the same list, in the same order, as at commit time')
    }
    checkParticipantsShape(commitment.draw, participants)
    const expected = commitment.participants!
    if (participants.length !== expected.count) {
      throw new MismatchError('PARTICIPANTS_MISMATCH', `${participants.length} participants given, ${expected.count} committed`, 'pass exactly the committed list, in the committed order')
    }
    // Only a private draw needs the whole tree (for inclusion proofs); a public one needs the root.
    const list = participants
    tree = disclosure === 'winners' ? underPath('$.participants', () => participantsTree(list)) : undefined
    const root = tree === undefined ? underPath('$.participants', () => participantsRoot(list)) : tree.root()
    if (bytesToHex(root) !== expected.root) {
      throw new MismatchError('PARTICIPANTS_MISMATCH', 'the participants do not hash to the committed root', 'pass exactly the committed list, in the committed order, with the same spelling')
    }
  } else if (participants !== undefined) {
    throw new InvalidInputError('UNEXPECTED_PARTICIPANTS', 'a range draw takes no participants', 'pass undefined for participants')
  }
  return { commitment, cid, json, participants, disclosure, tree }
}

/**
 * Derives a prepared draw's outcome from its block and returns the proof bundle. Pure.
 *
 * @param block - the target block (its CID and exact bytes; re-checked here).
 * @throws {@link MismatchError} `WRONG_BLOCK`; {@link InvalidInputError} `NO_RANDOMNESS`;
 *   {@link IntegrityError} when the block's bytes do not match its CID.
 */
export function drawPrepared(prepared: PreparedDraw, block: Pick<BeaconBlock, 'cid' | 'bytes'>): Proof {
  const { commitment, cid, json, participants, tree } = prepared
  const parsed = parseBlock(block.bytes, block.cid)
  if (parsed.sequence !== commitment.target) {
    throw new MismatchError('WRONG_BLOCK', `block ${parsed.cid} has sequence ${parsed.sequence}, the commitment targets ${commitment.target}`, `fetch block ${commitment.target} of the beacon`)
  }
  const seed = deriveSeed(cid, parsed)
  const weights = commitment.draw.kind === 'weighted' ? (participants as readonly WeightedEntry[]).map((e) => e.weight) : undefined
  const outcome = computeOutcome(seed, commitment.draw, commitment.participants?.count ?? 0, weights)

  return {
    type: PROOF_TYPE,
    version: commitment.version,
    commitment: json,
    commitmentCid: cid,
    ...(participants === undefined ? {} : { participants: disclose(participants, outcome, tree) }),
    chain: { blocks: [{ cid: parsed.cid, bytes: bytesToBase64(parsed.bytes) }] },
    seed: bytesToHex(seed),
    outcome: outcomeToJson(outcome, (i) => entryAt(participants, i)),
  }
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
 */
export function drawFromBlock(
  commitment: Commitment,
  participants: Participants | undefined,
  block: Pick<BeaconBlock, 'cid' | 'bytes'>,
  options: DrawFromBlockOptions = {},
): Proof {
  return drawPrepared(prepareDraw(commitment, participants, options), block)
}

function entryAt(participants: Participants | undefined, i: number): string {
  const e = participants![i]!
  return typeof e === 'string' ? e : e.entry
}

function disclose(participants: Participants, outcome: Outcome, tree: ParticipantsTree | undefined): ParticipantsDisclosure {
  if (tree === undefined) {
    const entries = participants.map((e) => (typeof e === 'string' ? e : { entry: e.entry, weight: e.weight }))
    return { disclosure: 'full', entries: entries as string[] | { entry: string; weight: number }[] }
  }
  if (outcome.kind === 'range') throw new Error('unreachable: range has no participants')
  const paths = tree.inclusionProofs(outcome.indices)
  return {
    disclosure: 'winners',
    revealed: outcome.indices.map((index, i) => ({ index, entry: entryAt(participants, index), path: paths[i]!.map(bytesToHex) })),
  }
}

/** Converts a computed outcome to its proof form, naming each winner's entry. */
export function outcomeToJson(outcome: Outcome, entry: (index: number) => string): OutcomeJson {
  const ranked = (indices: readonly number[]): RankedJson[] => indices.map((index, i) => ({ rank: i + 1, index, entry: entry(index) }))
  switch (outcome.kind) {
    case 'shuffle':
      return { kind: 'shuffle', ranking: ranked(outcome.indices) }
    case 'pick':
      return { kind: 'pick', winners: ranked(outcome.indices) }
    case 'weighted':
      return { kind: 'weighted', winners: ranked(outcome.indices) }
    case 'range':
      return { kind: 'range', values: outcome.values.map((v) => v.toString()) }
  }
}
