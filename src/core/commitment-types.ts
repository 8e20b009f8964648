/**
 * The commitment's types (its typed form, the block it was made after, its participants and its drand
 * round), apart from the code that makes, encodes and parses commitments so that those modules share them
 * without an import cycle.
 *
 * @module
 */
import type { DrawSpec } from './kinds/registry.js'

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
