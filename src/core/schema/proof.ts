/**
 * The proof bundle's shape (docs/spec.md, "The proof bundle"). `parseProof` runs it (with the
 * outcome read by the draw kind's own `parseOutcome`, {@link proofParseShapeOf}); `Proof` and its
 * parts are inferred from it; `npm run schema` publishes it (with the kinds' declared outcome
 * shapes) as docs/proof.schema.json.
 *
 * The large arrays (`participants.entries`, `participants.salts`, `participants.revealed`) are checked in one tight loop each
 * ({@link bulkList}, {@link deferredItems}): the same first issue as the declared item shape, without
 * a valibot dataset per item; they are published as the declared lists.
 *
 * @module
 */
import { LIMITS } from '../limits.js'
import { PROOF_TYPE } from '../version.js'
import { base64, cidText, hash, HEX32_RE, index, token } from './common.js'
import { COMMITMENT_SLOT } from './commitment.js'
import { DEFAULT_DRAW_KINDS, type OutcomeJson } from '../kinds/registry.js'
import type { DrawKinds } from '../kinds/kind.js'
import { outcomeShapeOf } from './draw.js'
import * as v from 'valibot'
import { anyObject, arrayHead, arrayUnion, bulkList, deferredItems, described, expected, integer, list, message, option, pattern, strictObject, text, variant, version, type FastItem, type Shape } from './kit.js'
import { show, type JsonObject } from '../json.js'
import { ParseError } from '../errors.js'

/** A weighted participant as carried in a proof. */
export const weightedEntryShape = strictObject({ entry: text(), weight: integer(1) })

/** A salted list's leaf salts, in committed order (one tight loop; published as a list of `hash`). */
export const saltsShape = bulkList(hash, LIMITS.maxParticipants, { accept: (x) => typeof x === 'string' && HEX32_RE.test(x) })


const stringEntryShape = text()

/** A string entry: any string (the participants check judges its text). */
const stringEntry: FastItem<string> = { accept: (x) => typeof x === 'string' }

/** A weighted entry `{entry, weight}` with exactly these two own fields, copied. */
const weightedEntry: FastItem<{ entry: string; weight: number }> = {
  accept: (x) => {
    if (typeof x !== 'object' || x === null || Array.isArray(x)) return false
    const o = x as { entry?: unknown; weight?: unknown }
    return typeof o.entry === 'string' && Number.isSafeInteger(o.weight) && (o.weight as number) >= 1 && Object.hasOwn(o, 'entry') && Object.hasOwn(o, 'weight') && Object.keys(o).length === 2
  },
  copy: (x) => ({ entry: (x as { entry: string }).entry, weight: (x as { weight: number }).weight }),
}

/** The first entry decides: an object (or null) means a weighted list, anything else a list of strings. */
const isWeightedList = (a: readonly unknown[]): boolean => a.length > 0 && typeof a[0] === 'object'

/** Every entry in committed order: strings, or `{entry, weight}` objects (declared; published). */
const entriesShape = arrayUnion(list(text(), LIMITS.maxParticipants), list(weightedEntryShape, LIMITS.maxParticipants), isWeightedList)

/** Every entry is disclosed (public draw), with every salt for a salted list. */
const fullDisclosure = option({
  disclosure: v.literal('full'),
  // Here only the array itself (its limit before its items); its items after `salts`, by
  // `disclosureShape`, the protocol's order. Published as `entriesShape`.
  entries: described(arrayHead(LIMITS.maxParticipants, entriesShape), 'Every entry in committed order: strings, or {entry, weight} objects for weighted draws.'),
  salts: v.optional(described(saltsShape, "Only for a salted commitment: every entry's leaf salt, in committed order (the organizer's secret is never carried).")),
})

/** One disclosed winner with its leaf salt and RFC 9162 audit path. */
export const revealedShape = strictObject({ index: index, entry: text(), salt: hash, path: list(hash, 64) })

/** Only the winners are disclosed (private draw of a salted list). */
const isHash = (x: unknown): boolean => typeof x === 'string' && HEX32_RE.test(x)

/** A revealed winner `revealedShape` accepts: exactly its four own fields, each valid; copied (its path too). */
const revealedEntry: FastItem<v.InferOutput<typeof revealedShape>> = {
  accept: (x) => {
    if (typeof x !== 'object' || x === null || Array.isArray(x)) return false
    const r = x as { index?: unknown; entry?: unknown; salt?: unknown; path?: unknown }
    const path = r.path
    return (
      Number.isSafeInteger(r.index) && (r.index as number) >= 0 && typeof r.entry === 'string' && isHash(r.salt) &&
      Array.isArray(path) && path.length <= 64 && path.every(isHash) && !path.includes(undefined) &&
      Object.hasOwn(r, 'index') && Object.hasOwn(r, 'entry') && Object.hasOwn(r, 'salt') && Object.hasOwn(r, 'path') && Object.keys(r).length === 4
    )
  },
  copy: (x) => {
    const r = x as { index: number; entry: string; salt: string; path: string[] }
    return { index: r.index, entry: r.entry, salt: r.salt, path: r.path.slice() }
  },
}

const winnersDisclosure = option({
  disclosure: v.literal('winners'),
  revealed: described(
    // One per winner: up to LIMITS.maxDrawCount inclusion proofs, checked in one tight loop.
    bulkList(revealedShape, LIMITS.maxDrawCount, revealedEntry),
    'One per winner, in rank order, each with its leaf salt and its RFC 9162 audit path (leaf to root). Allowed only for a salted commitment (participants.salted).',
  ),
})

/** The participants section of a proof. */
export const disclosureShape = v.pipe(
  variant('disclosure', [fullDisclosure, winnersDisclosure], (mode) => `disclosure must be "full" or "winners", got ${show(mode)}`, 'use "full" for public draws and "winners" for private ones'),
  deferredItems<v.InferOutput<typeof fullDisclosure> | v.InferOutput<typeof winnersDisclosure>, (Omit<v.InferOutput<typeof fullDisclosure>, 'entries'> & { entries: string[] | v.InferOutput<typeof weightedEntryShape>[] }) | v.InferOutput<typeof winnersDisclosure>>('entries', (a) =>
    isWeightedList(a) ? { item: weightedEntryShape, fast: weightedEntry } : { item: stringEntryShape, fast: stringEntry },
  ),
)

/** A beacon block carried in a proof: its CID and its exact bytes. */
export const blockEntryShape = strictObject({ bytes: described(base64, "The block's exact bytes, standard padded base64."), cid: cidText })

/** The beacon evidence: blocks from the head down to the target, and the signed head record. */
export const chainShape =
  strictObject({
    blocks: described(
      v.pipe(list(blockEntryShape, LIMITS.maxChainBlocks), v.minLength(1, message('INVALID_FIELD', () => 'chain.blocks is empty', 'a proof must carry at least the target block'))),
      'Newest first: blocks[0] is the head, each next block is the previous of the one before, down to at least the target.',
    ),
    ipnsRecord: v.optional(described(base64, "The beacon's signed IPNS record (protobuf), standard padded base64.")),
  })

/** RFC 3161 time-stamp tokens over the commitment. */
export const timestampsShape =
  described(
    list(token, LIMITS.maxTimestampTokens),
    'RFC 3161 time-stamp tokens over the commitment (DER TimeStampToken, standard padded base64), proving it existed before the target block. See docs/timestamps.md.',
  )

/** The drand evidence of a mixed (version 2) proof. */
export const drandEvidenceShape = strictObject({
  round: described(integer(1), 'The committed drand round.'),
  signature: described(pattern(/^[0-9a-f]{96}$/, '96 lowercase hex digits (a compressed G1 point)'), "The round's BLS signature as the chain published it; its randomness is SHA-256 of these bytes, recomputed by verify."),
  timestamps: described(
    list(token, LIMITS.maxTimestampTokens),
    "RFC 3161 time-stamp tokens over the target block (message imprint: SHA-256 of its bytes, the digest inside its CID), dated before the round's time: block N was fixed before round R was public.",
  ),
})

/** The proof bundle (version 1) with `outcome` as given. Fields in the order the parser checks them. */
function proofShapeWith<O extends Shape>(outcome: O) {
  return strictObject({
    type: v.literal(PROOF_TYPE),
    version: v.union([version(1), version(2)], expected('1 or 2')),
    commitment: COMMITMENT_SLOT,
    commitmentCid: cidText,
    participants: v.optional(described(disclosureShape, 'Absent for range draws.')),
    chain: chainShape,
    seed: described(hash, 'The seed, recomputed and compared by verify.'),
    outcome,
    timestamps: v.optional(timestampsShape),
    drand: v.optional(described(drandEvidenceShape, 'Version 2 (a mixed draw) only: the drand round and the time-stamps that order the sources.')),
    original: v.optional(described(v.unknown(), 'A follow-up draw (a panel replacement) only: the whole proof of the draw it follows, verified as a proof of its own (docs/spec.md, Follow-up draws).')),
  })
}

/**
 * The proof bundle (version 1) with `outcome` declared by the kinds of `kinds` (for the published
 * JSON Schema; `parseProof` reads `outcome` with the kind's own `parseOutcome`).
 * @category Formats
 */
export function proofShapeOf(kinds: DrawKinds) {
  return proofShapeWith(outcomeShapeOf(kinds))
}

/**
 * Reads `outcome` with the draw kind its `kind` names, from `kinds`: the kind's own `parseOutcome`
 * (docs/draw-kinds.md) throws its own error (code and full path), which `parseShape` lets through.
 */
function readOutcome(o: JsonObject, kinds: DrawKinds): OutcomeJson {
  if (!Object.prototype.hasOwnProperty.call(o, 'kind')) throw new ParseError('MISSING_FIELD', 'missing required field "kind"', 'add the field "kind"', { path: '$.outcome.kind' })
  const name = o.kind
  const kind = kinds.get(name)
  if (kind === undefined) throw new ParseError('INVALID_FIELD', `unknown outcome kind ${show(name)}`, `use ${kinds.names.slice(0, -1).join(', ')}${kinds.names.length > 1 ? ' or ' : ''}${kinds.names.at(-1) ?? ''}`, { path: '$.outcome.kind' })
  return kind.parseOutcome(o, '$.outcome') as OutcomeJson
}

/** The proof's `outcome` as `parseProof` reads it: an object, then the kind's `parseOutcome`. */
function outcomeReader(kinds: DrawKinds) {
  return v.pipe(anyObject(), v.rawTransform<JsonObject, OutcomeJson>(({ dataset }) => readOutcome(dataset.value, kinds)))
}

/** The shape `parseProof` runs for the built-in kinds (the one `Proof` is inferred from). */
export const PROOF_PARSE_SHAPE = proofShapeWith(outcomeReader(DEFAULT_DRAW_KINDS))

const parseShapes = new WeakMap<DrawKinds, typeof PROOF_PARSE_SHAPE>([[DEFAULT_DRAW_KINDS, PROOF_PARSE_SHAPE]])

/** The shape `parseProof` runs for a registry of kinds (built once per registry). */
export function proofParseShapeOf(kinds: DrawKinds): typeof PROOF_PARSE_SHAPE {
  let shape = parseShapes.get(kinds)
  if (shape === undefined) {
    shape = proofShapeWith(outcomeReader(kinds))
    parseShapes.set(kinds, shape)
  }
  return shape
}
