/**
 * Participant receipts of a private (salted) list: one small JSON per participant that proves "I was
 * in the draw" (my entry, at my index, is a leaf of the committed root) without showing anyone else.
 * A receipt carries the commitment itself, so it checks offline; its path's sibling hashes are salted
 * leaves and nodes, so it reveals nothing about the other entries.
 *
 * @module
 */
import { bytesToHex, hexToBytes } from './bytes.js'
import { check, type Check } from './check.js'
import type { ReceiptCheckName } from './check-names.js'
import { commitmentCid, describeCommitment, parseCommitment, validateCommitment, type Commitment, type CommitResult, type ParticipantsCommitment } from './commitment.js'
import { usesParticipants } from './draw-spec.js'
import { DEFAULT_DRAW_KINDS } from './kinds/registry.js'
import { type DrawKinds } from './kinds/kind.js'
import { InvalidInputError, MismatchError, ParseError, UnsupportedVersionError } from './errors.js'
import { parseJsonText, show } from './json.js'
import { parseShape, requiredFields, type Infer } from './schema/kit.js'
import { RECEIPT_TYPE, ReceiptShape } from './schema/receipt.js'
import { LIMITS } from './limits.js'
import { verifyInclusion } from './merkle.js'
import { encodeSaltedLeaf, participantsTree, type ParticipantsTree, type ParticipantsTreeBuilder, type WeightedEntry } from './participants.js'
import { OrganizerSecret } from './secret.js'
import { SUPPORTED_VERSIONS } from './version.js'
import { CID } from 'multiformats/cid'

export { RECEIPT_TYPE }

/**
 * A participant's receipt (version 1), as declared in src/core/schema/receipt.ts (published as
 * docs/receipt.schema.json): the commitment (DAG-JSON form) and its CID, the participant's 0-based
 * `index`, `entry` (and `weight` for a weighted draw only), leaf `salt` and RFC 9162 audit `path`
 * from the leaf to the committed root (leaf level first).
 * @category Formats
 */
export type Receipt = Infer<typeof ReceiptShape>

/**
 * Receipts for every participant of one private list. Made by {@link makeReceipts}.
 * @category Draw
 */
export interface ReceiptBook {
  /** The commitment's CID. */
  readonly cid: string
  /** Number of participants (= receipts). */
  readonly count: number
  /** The receipt of participant `index`. @throws {@link InvalidInputError} `INDEX_OUT_OF_RANGE`. */
  receiptFor(index: number): Receipt
  /** Every receipt, in committed order (generated one at a time). */
  receipts(): Generator<Receipt, void, undefined>
}

/**
 * Builds the receipts of a private (salted) list: checks that the participants, salted with the
 * secret, hash to the committed root and count, then gives one receipt per participant.
 *
 * @example
 * ```ts
 * const result = commit({ ...options, private: { secret } })
 * const book = makeReceipts(result, participants, result.secret!)
 * for (const r of book.receipts()) await send(r.entry, serializeReceipt(r))
 * ```
 * @throws {@link InvalidInputError} `NOT_SALTED` for a public list (its paths would let a receipt
 *   holder test guesses of the neighbours), `INVALID_SECRET`; {@link MismatchError}
 *   `PARTICIPANTS_MISMATCH` when the list or the secret is not the committed one.
 * @category Draw
 */
export function makeReceipts(commitment: CommitResult | Commitment, participants: readonly string[] | readonly WeightedEntry[], secret: OrganizerSecret | Uint8Array, options: { readonly kinds?: DrawKinds } = {}): ReceiptBook {
  const inputs = checkReceiptInputs(commitment, participants, secret, options.kinds)
  return receiptBook(inputs, participantsTree(participants, { secret: inputs.secret }))
}

/**
 * Options of {@link makeReceiptsAsync}.
 * @category Draw
 */
export interface MakeReceiptsOptions {
  /** The registry of draw kinds (default: the built-in kinds). */
  readonly kinds?: DrawKinds
  /**
   * Builds the salted list's tree (default {@link participantsTree}; the Node entry's `makeReceiptsAsync`
   * uses `participantsTreeParallel`, on two threads). Its root is compared with the commitment.
   */
  readonly participantsTree?: ParticipantsTreeBuilder
}

/**
 * {@link makeReceipts} with the tree built by the caller's own, possibly asynchronous, builder: the same
 * checks, errors and receipts. The Node entry's `makeReceiptsAsync` builds it on two threads.
 *
 * @example
 * ```ts
 * const book = await makeReceiptsAsync(result, participants, result.secret!, { participantsTree: participantsTreeParallel })
 * ```
 * @throws (the promise rejects with) {@link makeReceipts}'s errors.
 * @category Draw
 */
export async function makeReceiptsAsync(commitment: CommitResult | Commitment, participants: readonly string[] | readonly WeightedEntry[], secret: OrganizerSecret | Uint8Array, options: MakeReceiptsOptions = {}): Promise<ReceiptBook> {
  const inputs = checkReceiptInputs(commitment, participants, secret, options.kinds)
  return receiptBook(inputs, await (options.participantsTree ?? participantsTree)(participants, { secret: inputs.secret }))
}

/** @internal What the receipts' checks found. */
export interface ReceiptInputs {
  readonly c: Commitment
  readonly cid: string
  readonly json: CommitResult['json']
  readonly kinds: DrawKinds
  readonly committed: ParticipantsCommitment
  readonly participants: readonly string[] | readonly WeightedEntry[]
  readonly secret: OrganizerSecret
}

function checkReceiptInputs(commitment: CommitResult | Commitment, participants: readonly string[] | readonly WeightedEntry[], secret: OrganizerSecret | Uint8Array, kindsOption: DrawKinds | undefined): ReceiptInputs {
  const checked = checkReceiptCommitment(commitment, secret, kindsOption)
  checkReceiptCount(checked.committed, Array.isArray(participants) ? participants.length : undefined)
  return { ...checked, participants }
}

/**
 * @internal The checks of {@link makeReceipts} before the list: a valid commitment of a salted list, a
 * valid secret (shared with the Node entry's receipts of a file read as a stream).
 */
export function checkReceiptCommitment(commitment: CommitResult | Commitment, secret: OrganizerSecret | Uint8Array, kindsOption: DrawKinds | undefined): Omit<ReceiptInputs, 'participants'> {
  const kinds = kindsOption ?? DEFAULT_DRAW_KINDS
  const c: Commitment = 'commitment' in commitment && 'cid' in commitment ? commitment.commitment : (commitment as Commitment)
  validateCommitment(c, kinds)
  const { cid, json } = describeCommitment(c, kinds)
  if (!usesParticipants(c.draw, kinds) || c.participants?.salted !== true) {
    throw new InvalidInputError('NOT_SALTED', 'receipts are for a private (salted) list, and this commitment does not salt its leaves', 'commit with private: { secret } (orbitdraw commit --private); a public list is checked against the published participants file')
  }
  return { c, cid, json, kinds, committed: c.participants, secret: OrganizerSecret.from(secret) }
}

/** @internal {@link makeReceipts}'s count check: `count` entries given (undefined: not a list). */
export function checkReceiptCount(committed: ParticipantsCommitment, count: number | undefined): void {
  if (count !== committed.count) {
    throw new MismatchError('PARTICIPANTS_MISMATCH', `${count ?? 'no'} participants given, ${committed.count} committed`, 'pass exactly the committed list, in the committed order')
  }
}

/** @internal {@link makeReceipts}'s root check: the salted list's root and size against the commitment. */
export function checkReceiptRoot(committed: ParticipantsCommitment, root: Uint8Array, size: number): void {
  if (bytesToHex(root) !== committed.root || size !== committed.count) {
    throw new MismatchError('PARTICIPANTS_MISMATCH', 'the participants, salted with this secret, do not hash to the committed root', 'pass exactly the committed list, in the committed order, and the secret made with this commitment')
  }
}

function receiptBook({ c, cid, json, kinds, committed, participants }: ReceiptInputs, tree: ParticipantsTree): ReceiptBook {
  checkReceiptRoot(committed, tree.root(), tree.size)
  const weighted = kinds.get(c.draw.kind)?.participants === 'weighted'
  const receiptFor = (index: number): Receipt => {
    const path = tree.inclusionProof(index).map(bytesToHex)
    const e = participants[index]!
    return {
      type: RECEIPT_TYPE,
      version: c.version,
      commitmentCid: cid,
      commitment: json,
      index,
      entry: typeof e === 'string' ? e : e.entry,
      ...(weighted ? { weight: (e as WeightedEntry).weight } : {}),
      salt: bytesToHex(tree.salt(index)),
      path,
    }
  }
  return {
    cid,
    count: committed.count,
    receiptFor,
    *receipts() {
      for (let i = 0; i < committed.count; i++) yield receiptFor(i)
    },
  }
}

/**
 * Serializes a receipt as pretty-printed JSON (2-space indent, trailing newline).
 * @category Formats
 */
export function serializeReceipt(receipt: Receipt): string {
  return `${JSON.stringify(receipt, null, 2)}\n`
}

/** A receipt's head: an object with a `type`; then with a `version`. */
const TYPE_HEAD = requiredFields('type')
const VERSION_HEAD = requiredFields('version')

/**
 * Parses a receipt from untrusted JSON (text, UTF-8 bytes or a parsed value) with the project's strict
 * rules: size checked before decoding (`LIMITS.maxReceiptBytes`), strict UTF-8, no duplicate keys, no
 * unknown fields, every field's shape. It does not check the cryptography ({@link checkReceipt} does).
 *
 * @throws {@link ParseError} with the path of the first bad field; {@link UnsupportedVersionError}.
 * @category Formats
 */
export function parseReceipt(input: unknown): Receipt {
  let raw: unknown = input
  if (input instanceof Uint8Array || typeof input === 'string') {
    if (input.length > LIMITS.maxReceiptBytes) {
      throw new ParseError('RECEIPT_TOO_LARGE', `receipt is ${input.length} ${typeof input === 'string' ? 'characters' : 'bytes'}, over the limit maxReceiptBytes = ${LIMITS.maxReceiptBytes}`, 'pass the receipt file exactly as orbitdraw wrote it', { path: '$' })
    }
    let text: string
    if (typeof input === 'string') text = input
    else {
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(input)
      } catch (cause) {
        throw new ParseError('INVALID_UTF8', 'receipt bytes are not valid UTF-8', 'pass the receipt file exactly as written', { path: '$', cause })
      }
    }
    raw = parseJsonText(text, 'receipt')
  }
  const type = parseShape(TYPE_HEAD, raw).type
  if (type !== RECEIPT_TYPE) throw new ParseError('NOT_A_RECEIPT', `type is ${show(type)}, expected "${RECEIPT_TYPE}"`, 'pass an orbitdraw receipt file', { path: '$.type' })
  const version = parseShape(VERSION_HEAD, raw).version
  if (typeof version !== 'number' || !SUPPORTED_VERSIONS.includes(version)) {
    throw new UnsupportedVersionError('UNSUPPORTED_VERSION', `receipt protocol version ${show(version)} is not supported`, `this release checks version ${SUPPORTED_VERSIONS.join(', ')}; upgrade orbitdraw`, { path: '$.version' })
  }
  return parseShape(ReceiptShape, raw)
}

/**
 * Options of {@link checkReceipt}.
 * @category Verify
 */
export interface CheckReceiptOptions {
  /** The commitment CID the organizer published. Without it, the receipt is only checked against itself. */
  commitment?: string
  /** The draw kinds this checker knows (default: the built-in kinds; see `withKinds`). */
  kinds?: DrawKinds
}

/**
 * What {@link checkReceipt} found.
 * @category Verify
 */
export interface ReceiptCheckResult {
  /** True when every check passed. */
  readonly ok: boolean
  /** True when the receipt's commitment was compared with a CID given by the caller (and matched). */
  readonly pinned: boolean
  /** Every check that ran, in order: `format`, `commitment-cid`, `commitment-pinned` (with a CID), `inclusion`. */
  readonly checks: readonly Check<ReceiptCheckName>[]
  /** Remarks that are not failures (an unpinned commitment, checks not run). */
  readonly notes: readonly string[]
  /** The parsed receipt, when it could be parsed. */
  readonly receipt?: Receipt
  /** The parsed commitment, when it could be parsed. */
  readonly commitment?: Commitment
}

/**
 * Checks a participant's receipt offline: its commitment hashes to its CID (and to the published CID
 * when `options.commitment` is given), the commitment salts its leaves, and the salted leaf of the
 * entry (and weight) at `index` is proven under the committed root and count. Never throws on a bad
 * receipt: each problem is a failed named check.
 *
 * @example
 * ```ts
 * const r = await checkReceipt(await readFile('0003-alice.json'), { commitment: 'baguqeera…' })
 * if (!r.ok) console.log(r.checks.filter((c) => !c.ok))
 * ```
 * @param receipt - the receipt as text, bytes or parsed JSON. Untrusted.
 * @category Verify
 */
export function checkReceipt(receipt: unknown, options: CheckReceiptOptions = {}): ReceiptCheckResult {
  const checks: Check<ReceiptCheckName>[] = []
  const notes: string[] = []
  let pinned = false
  const done = (extra: { receipt?: Receipt; commitment?: Commitment } = {}): ReceiptCheckResult => ({ ok: checks.length > 0 && checks.every((c) => c.ok), pinned, checks, notes, ...extra })
  const kinds = options.kinds ?? DEFAULT_DRAW_KINDS
  let r: Receipt
  try {
    r = parseReceipt(receipt)
    checks.push(check('format', true, 'the receipt is well-formed'))
  } catch (err) {
    checks.push(check('format', false, err instanceof Error ? err.message : String(err)))
    notes.push('the remaining checks were not run because the receipt could not be read')
    return done()
  }
  let c: Commitment
  try {
    c = parseCommitment(r.commitment, { kinds })
  } catch (err) {
    checks.push(check('commitment-cid', false, `the commitment is invalid: ${err instanceof Error ? err.message : String(err)}`))
    notes.push('the remaining checks were not run because the commitment could not be read')
    return done({ receipt: r })
  }
  const cid = commitmentCid(c, kinds)
  const selfOk = sameCid(cid, r.commitmentCid)
  checks.push(check('commitment-cid', selfOk, selfOk ? `the commitment encodes to ${cid}` : `the commitment encodes to ${cid}, not the claimed ${r.commitmentCid}`))
  if (options.commitment !== undefined) {
    pinned = sameCid(cid, options.commitment)
    checks.push(check('commitment-pinned', pinned, pinned ? `the commitment is the published ${options.commitment}` : `the receipt's commitment is ${cid}, not the published ${String(options.commitment).slice(0, LIMITS.maxCidChars)}`))
  } else {
    notes.push(`not pinned: compare the commitment CID ${cid} with the one the organizer published (pass it to check against it)`)
  }
  checks.push(inclusionCheck(c, r, kinds))
  return done({ receipt: r, commitment: c })
}

function inclusionCheck(c: Commitment, r: Receipt, kinds: DrawKinds): Check<'inclusion'> {
  const p = c.participants
  if (!usesParticipants(c.draw, kinds) || p === undefined) return check('inclusion', false, `a ${c.draw.kind} draw has no participants`)
  if (p.salted !== true) return check('inclusion', false, 'the commitment does not salt its leaves: receipts are for private (salted) lists')
  const weighted = kinds.get(c.draw.kind)?.participants === 'weighted'
  if (weighted !== (r.weight !== undefined)) return check('inclusion', false, weighted ? 'a weighted draw\'s receipt must carry the weight' : 'only a weighted draw\'s receipt carries a weight')
  if (r.index >= p.count) return check('inclusion', false, `index ${r.index} is not below the committed count ${p.count}`)
  let leafData: Uint8Array
  try {
    leafData = encodeSaltedLeaf(hexToBytes(r.salt), r.entry, r.weight)
  } catch (err) {
    return check('inclusion', false, `the entry is not a valid participant: ${err instanceof Error ? err.message : String(err)}`)
  }
  const ok = verifyInclusion({ root: hexToBytes(p.root), size: p.count, index: r.index, leafData, path: r.path.map((h) => hexToBytes(h)) })
  // A kind with its own rule for entries (a sortition entry spells out the type its index has).
  const problem = ok ? kinds.get(c.draw.kind)?.checkEntries?.(c.draw, [{ index: r.index, entry: r.entry }], false) : undefined
  if (problem !== undefined) return check('inclusion', false, `${JSON.stringify(r.entry)} is entry ${r.index} of the committed list but does not fit the ${c.draw.kind} draw: ${problem}`)
  return check('inclusion', ok, ok ? `${JSON.stringify(r.entry)} is entry ${r.index} of the ${p.count} committed` : `${JSON.stringify(r.entry)} with this salt and path is not proven to be entry ${r.index} of the committed list`)
}

function sameCid(a: string, b: unknown): boolean {
  if (typeof b !== 'string' || a.length > LIMITS.maxCidChars || b.length > LIMITS.maxCidChars) return false
  try {
    return CID.parse(a).equals(CID.parse(b))
  } catch {
    return false
  }
}
