/**
 * Checks of a typed commitment (as a caller builds it, or after parsing): the version, the beacon
 * name, the blocks, the drand round, the label, the draw kind and its spec against the participants.
 *
 * @module
 */
import { CID } from 'multiformats/cid'
import { base36 } from 'multiformats/bases/base36'
import { parseCid } from './block.js'
import { isWellFormed, utf8Encode } from './bytes.js'
import { usesParticipants, validateDrawSpec } from './draw-spec.js'
import { DEFAULT_DRAW_KINDS } from './kinds/registry.js'
import type { DrawKinds } from './kinds/kind.js'
import { InvalidInputError, UnsupportedVersionError, type OrbitdrawError } from './errors.js'
import { show } from './json.js'
import { LIMITS } from './limits.js'
import { MIXED_PROTOCOL_VERSION, SUPPORTED_VERSIONS } from './version.js'
import { checkRound } from './drand/chain.js'
import type { Commitment } from './commitment-types.js'

const LIBP2P_KEY = 0x72

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
