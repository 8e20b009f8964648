/**
 * The hand-written proof parser that `parseProof` ran before it ran the declared shape
 * (src/core/schema/proof.ts), kept unchanged as a test-only oracle: test/core/proof-parse.test.ts
 * checks that the shape-driven parser gives the same result, or the same error code and path, on
 * random and mutated proofs; bench/proof-parse.bench.ts times it beside the shape as the yardstick.
 * Not part of the library.
 */
import { base64ToBytes } from '../../src/core/bytes.js'
import { LimitExceededError, ParseError } from '../../src/core/errors.js'
import { DEFAULT_DRAW_KINDS, type OutcomeJson } from '../../src/core/kinds/registry.js'
import { type DrawKinds, type RankedJson } from '../../src/core/kinds/kind.js'
import { LIMITS } from '../../src/core/limits.js'
import { checkProofVersion, readProofJson, type ChainJson, type ParseProofOptions, type ParticipantsDisclosure, type Proof } from '../../src/core/proof.js'
import { PROOF_TYPE } from '../../src/core/version.js'
import { show } from '../../src/core/json.js'
import { expectArray, expectInteger, expectObject, expectOnlyKeys, expectString, field, optionalField } from './json-expect.js'

const HEX32 = /^[0-9a-f]{64}$/
const CID_TEXT = new RegExp(`^[a-zA-Z0-9]{1,${LIMITS.maxCidChars}}$`)

/** A CID as text: alphanumeric, at most LIMITS.maxCidChars characters (decoded later, by the checks). */
function cidString(v: unknown, path: string): string {
  return expectString(v, path, CID_TEXT, `a CID string of at most ${LIMITS.maxCidChars} characters`)
}

/**
 * The former `parseProof`: the same checks by hand, in the protocol's order.
 */
export function handParseProof(input: unknown, options: ParseProofOptions = {}): Proof {
  const o = expectObject(readProofJson(input), '$')
  checkProofVersion(o)
  expectOnlyKeys(o, ['type', 'version', 'commitment', 'commitmentCid', 'participants', 'chain', 'seed', 'outcome', 'timestamps', 'drand', 'original'], '$')
  const commitment = expectObject(field(o, 'commitment', '$'), '$.commitment')
  const commitmentCid = cidString(field(o, 'commitmentCid', '$'), '$.commitmentCid')
  const participantsRaw = optionalField(o, 'participants')
  const participants = participantsRaw === undefined ? undefined : parseDisclosure(participantsRaw)
  const chain = parseChain(field(o, 'chain', '$'))
  const seed = expectString(field(o, 'seed', '$'), '$.seed', HEX32, '64 lowercase hex digits')
  const outcome = parseOutcome(field(o, 'outcome', '$'), options.kinds ?? DEFAULT_DRAW_KINDS)
  const timestampsRaw = optionalField(o, 'timestamps')
  const timestamps = timestampsRaw === undefined ? undefined : handParseTimestamps(timestampsRaw, '$.timestamps')
  return {
    type: PROOF_TYPE,
    version: o.version as number,
    commitment,
    commitmentCid,
    ...(participants === undefined ? {} : { participants }),
    chain,
    seed,
    outcome,
    ...(timestamps === undefined ? {} : { timestamps }),
  }
}

function parseDisclosure(v: unknown): ParticipantsDisclosure {
  const o = expectObject(v, '$.participants')
  const mode = field(o, 'disclosure', '$.participants')
  if (mode === 'full') {
    expectOnlyKeys(o, ['disclosure', 'entries', 'salts'], '$.participants')
    const arr = expectArray(field(o, 'entries', '$.participants'), '$.participants.entries', LIMITS.maxParticipants)
    const saltsRaw = optionalField(o, 'salts')
    const salts =
      saltsRaw === undefined ? {} : { salts: expectArray(saltsRaw, '$.participants.salts', LIMITS.maxParticipants).map((h, i) => expectString(h, `$.participants.salts[${i}]`, HEX32, '64 lowercase hex digits')) }
    if (arr.length > 0 && typeof arr[0] === 'object') {
      return {
        disclosure: 'full',
        entries: arr.map((e, i) => {
          const p = `$.participants.entries[${i}]`
          const eo = expectObject(e, p)
          expectOnlyKeys(eo, ['entry', 'weight'], p)
          return { entry: expectString(field(eo, 'entry', p), `${p}.entry`), weight: expectInteger(field(eo, 'weight', p), `${p}.weight`, 1) }
        }),
        ...salts,
      }
    }
    return { disclosure: 'full', entries: arr.map((e, i) => expectString(e, `$.participants.entries[${i}]`)), ...salts }
  }
  if (mode === 'winners') {
    expectOnlyKeys(o, ['disclosure', 'revealed'], '$.participants')
    const arr = expectArray(field(o, 'revealed', '$.participants'), '$.participants.revealed', LIMITS.maxDrawCount)
    return {
      disclosure: 'winners',
      revealed: arr.map((r, i) => {
        const p = `$.participants.revealed[${i}]`
        const ro = expectObject(r, p)
        expectOnlyKeys(ro, ['index', 'entry', 'salt', 'path'], p)
        return {
          index: expectInteger(field(ro, 'index', p), `${p}.index`),
          entry: expectString(field(ro, 'entry', p), `${p}.entry`),
          salt: expectString(field(ro, 'salt', p), `${p}.salt`, HEX32, '64 lowercase hex digits'),
          path: expectArray(field(ro, 'path', p), `${p}.path`, 64).map((h, j) => expectString(h, `${p}.path[${j}]`, HEX32, '64 lowercase hex digits')),
        }
      }),
    }
  }
  throw new ParseError('INVALID_FIELD', `disclosure must be "full" or "winners", got ${show(mode)}`, 'use "full" for public draws and "winners" for private ones', { path: '$.participants.disclosure' })
}

function parseChain(v: unknown): ChainJson {
  const o = expectObject(v, '$.chain')
  expectOnlyKeys(o, ['ipnsRecord', 'blocks'], '$.chain')
  const rec = optionalField(o, 'ipnsRecord')
  const blocks = expectArray(field(o, 'blocks', '$.chain'), '$.chain.blocks', LIMITS.maxChainBlocks).map((b, i) => {
    const p = `$.chain.blocks[${i}]`
    const bo = expectObject(b, p)
    expectOnlyKeys(bo, ['cid', 'bytes'], p)
    const bytes = expectString(field(bo, 'bytes', p), `${p}.bytes`)
    base64ToBytes(bytes, `${p}.bytes`)
    return { cid: cidString(field(bo, 'cid', p), `${p}.cid`), bytes }
  })
  if (blocks.length === 0) throw new ParseError('INVALID_FIELD', 'chain.blocks is empty', 'a proof must carry at least the target block', { path: '$.chain.blocks' })
  if (rec === undefined) return { blocks }
  const ipnsRecord = expectString(rec, '$.chain.ipnsRecord')
  base64ToBytes(ipnsRecord, '$.chain.ipnsRecord')
  return { ipnsRecord, blocks }
}

function parseOutcome(v: unknown, kinds: DrawKinds): OutcomeJson {
  const o = expectObject(v, '$.outcome')
  const name = field(o, 'kind', '$.outcome')
  const kind = kinds.get(name)
  if (kind === undefined) throw new ParseError('INVALID_FIELD', `unknown outcome kind ${show(name)}`, `use ${kinds.names.slice(0, -1).join(', ')}${kinds.names.length > 1 ? ' or ' : ''}${kinds.names.at(-1) ?? ''}`, { path: '$.outcome.kind' })
  // The built-in ranked kinds' outcomes, by hand as their parseOutcome read them before their rows
  // were checked by the declared `rankedListShape`; any other kind by its own parseOutcome.
  const ranked = ({ shuffle: 'ranking', pick: 'winners', weighted: 'winners' } as const)[name as 'shuffle' | 'pick' | 'weighted']
  if (ranked !== undefined && kind === DEFAULT_DRAW_KINDS.get(name)) {
    expectOnlyKeys(o, ['kind', ranked], '$.outcome')
    return { kind: name, [ranked]: handParseRankedRows(field(o, ranked, '$.outcome'), `$.outcome.${ranked}`) } as unknown as OutcomeJson
  }
  return kind.parseOutcome(o, '$.outcome') as OutcomeJson
}

/** The former `parseRankedRows` (src/core/kinds/ranked.ts). */
function handParseRankedRows(v: unknown, path: string): RankedJson[] {
  return expectArray(v, path, LIMITS.maxParticipants).map((r, i) => {
    const p = `${path}[${i}]`
    const ro = expectObject(r, p)
    expectOnlyKeys(ro, ['rank', 'index', 'entry'], p)
    return { rank: expectInteger(field(ro, 'rank', p), `${p}.rank`, 1), index: expectInteger(field(ro, 'index', p), `${p}.index`), entry: expectString(field(ro, 'entry', p), `${p}.entry`) }
  })
}

/** The hand-written time-stamp list parser (proof and commitment file `timestamps`). */
export function handParseTimestamps(v: unknown, path: string): string[] {
  const maxChars = Math.ceil(LIMITS.maxTimestampTokenBytes / 3) * 4
  return expectArray(v, path, LIMITS.maxTimestampTokens).map((t, i) => {
    const p = `${path}[${i}]`
    const text = expectString(t, p)
    if (text.length === 0) throw new ParseError('INVALID_FIELD', 'empty time-stamp token', 'remove the empty entry', { path: p })
    if (text.length > maxChars) throw new LimitExceededError('LIMIT_EXCEEDED', `time-stamp token is ${text.length} base64 characters, over the limit maxTimestampTokenBytes = ${LIMITS.maxTimestampTokenBytes} bytes`, 'real tokens are a few KiB; drop this one', { path: p })
    base64ToBytes(text, p)
    return text
  })
}
