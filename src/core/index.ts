/**
 * The pure core of orbitdraw: everything a third party needs to verify a draw. No network, no
 * clock; runs in browsers and Node alike. Import it alone as `orbitdraw/core`.
 *
 * @module
 */
export { OrbitdrawError, InvalidInputError, ParseError, IntegrityError, MismatchError, LimitExceededError, UnsupportedVersionError, type OrbitdrawErrorOptions } from './errors.js'
export { PROTOCOL_VERSION, SUPPORTED_VERSIONS, PROOF_TYPE } from './version.js'
export { LIMITS } from './limits.js'
export type { Check } from './check.js'
export type { JsonObject } from './json.js'
export { bytesToHex, hexToBytes, bytesToBase64, base64ToBytes } from './bytes.js'
export { parseBlock, blockCid, encodeBlock, parseCid, sameContent, type BeaconBlock } from './block.js'
export { type DrawSpec, type ShuffleSpec, type PickSpec, type RangeSpec, type WeightedSpec, DRAW_KINDS, validateDrawSpec, usesParticipants } from './draw-spec.js'
export {
  commit,
  parseCommitment,
  encodeCommitment,
  commitmentCid,
  describeCommitment,
  validateBeaconName,
  type Commitment,
  type CommitOptions,
  type CommitResult,
  type BlockRef,
  type ParticipantsCommitment,
} from './commitment.js'
export { validateEntry, validateEntries, validateWeightedEntries, encodeLeaf, encodeWeightedLeaf, participantsRoot, participantsTree, type WeightedEntry, type ParticipantsTree } from './participants.js'
export { leafHash, nodeHash, merkleRoot, inclusionProof, inclusionProofs, verifyInclusion, type InclusionCheck } from './merkle.js'
export { deriveSeed, SEED_DOMAIN_V1 } from './seed.js'
export { streamFromSeed, uniformIndex, uniformBigInt, shuffleIndices, shuffle, pickIndices, rangeValues, weightedPick, type RandomStream } from './random/index.js'
export { computeOutcome, type Outcome } from './outcome.js'
export { parseProof, serializeProof, type Proof, type ParticipantsDisclosure, type FullDisclosure, type WinnersDisclosure, type RevealedEntry, type ChainJson, type BlockJson, type OutcomeJson, type RankedJson, type WeightedEntryJson } from './proof.js'
export { drawFromBlock, prepareDraw, drawPrepared, type PreparedDraw, type DrawFromBlockOptions, type Participants } from './draw.js'
export { verify, type VerifyOptions, type VerifyResult } from './verify.js'
export { checkChain, CHAIN_CHECK_NAMES, type ChainCheckInput, type ChainCheckResult } from './chain.js'
export { verifyIpnsRecord, parseIpnsRecord, parseIpnsName, checkRecordSignature, type IpnsRecordInfo, type VerifiedIpnsRecord, type IpnsName, type VerifyIpnsRecordOptions } from './ipns-record.js'
export { derivedValue, derivedValues, derivedPublicKey, DerivedSource, DERIVED_SEED_BYTES, DERIVED_VALUE_BYTES, type DerivedSeed } from './derived.js'
