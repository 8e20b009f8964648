/**
 * The block-source interface: the three things the beacon client needs from the network. A source
 * returns only what it checked (block bytes against their CID, records against the beacon's key);
 * trust in the *head* (freshness, forks, chain links) is the head tracker's job, on top.
 *
 * Implementations compose: {@link GatewaySource} (one gateway), {@link FailoverSource} (many, with
 * rate-limit pauses), {@link CachedSource} (CID-keyed cache and in-flight sharing). A new way to read
 * the beacon (a local IPFS node, a CAR file, a test fake) is one more class with these methods.
 *
 * @module
 */
import type { BeaconBlock } from '../core/block.js'
import type { VerifiedIpnsRecord } from '../core/ipns/record.js'

/**
 * Per-call options of a block source (and of `waitFor`).
 * @category Beacon
 */
export interface SourceCallOptions {
  /** Cancels the call (rejects with `AbortedError`). */
  readonly signal?: AbortSignal | undefined
}

/** A signed IPNS record as a source served it, already verified against the name's key. */
export interface RecordAnswer {
  /** The marshalled record. */
  readonly bytes: Uint8Array
  /** Its verified fields (`valueCid` is set: sources refuse records whose value is not `/ipfs/<cid>`). */
  readonly info: VerifiedIpnsRecord & { readonly valueCid: string }
  /** Which source served it (a gateway base URL). */
  readonly source: string
}

/** An unsigned head (`/ipns/<name>` as JSON), checked against its own hash only. */
export interface HeadAnswer {
  /** The head block. */
  readonly block: BeaconBlock
  /** Which source served it. */
  readonly source: string
}

/**
 * Where beacon blocks come from.
 *
 * @example
 * const source: BlockSource = new CachedSource(new FailoverSource([new GatewaySource(url, opts)], policy))
 * const block = await source.block(cid)
 */
export interface BlockSource {
  /** Names the source in failures (a gateway's base URL). */
  readonly id: string
  /** The block with this CID; its bytes hash to the CID. */
  block(cid: string, options?: SourceCallOptions): Promise<BeaconBlock>
  /** The latest signed IPNS record of `name`, verified against the name's key. */
  record(name: string, options?: SourceCallOptions): Promise<RecordAnswer>
  /** The head of `name` as unsigned JSON (no signature: only when the caller allows unsigned heads). */
  unsignedHead(name: string, options?: SourceCallOptions): Promise<HeadAnswer>
}
