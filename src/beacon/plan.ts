/**
 * Planning a commitment: learn the beacon's latest block and its interval, and choose a target
 * sequence at least a given delay ahead.
 *
 * @module
 */
import { InvalidInputError } from '../core/errors.js'
import type { BeaconClient, CallOptions } from './client.js'

/**
 * Options of {@link planTarget}.
 * @category Draw
 */
export interface PlanOptions extends CallOptions {
  /** The beacon client (its name is the committed beacon). */
  client: BeaconClient
  /** The target must be published at least this many seconds from now (default 0: the next block). */
  delaySeconds?: number
  /** And at least this many blocks after the latest one (default 1). */
  minBlocks?: number
  /** Refuse to plan on an unauthenticated head (default true: only a signed head is a safe `after`). */
  requireAuthenticated?: boolean
}

/**
 * A planned target. Spread `{ beacon, target, after }` into `commit()`.
 * @category Draw
 */
export interface TargetPlan {
  /** The beacon's IPNS name (canonical base36). */
  readonly beacon: string
  /** The latest block seen now: the commitment is provably made after it. */
  readonly after: { readonly sequence: number; readonly block: string }
  /** The chosen target sequence. */
  readonly target: number
  /** The publication interval used, in seconds. */
  readonly intervalSeconds: number
  /** When the target is expected (local clock). */
  readonly estimatedTime: Date
  /** Whether the latest block came with a valid signed IPNS record. */
  readonly authenticated: boolean
}

/**
 * Chooses a target sequence at least `delaySeconds` ahead. The interval is learned from the chain's
 * timestamps (or the client's configured `intervalMs`). The estimate counts from the latest block's
 * own timestamp, so a head that has been out for a while does not shorten the delay; one extra block
 * of margin is added so clock skew and a late block cannot make the target appear too soon.
 *
 * @throws {@link InvalidInputError} for bad options or an unauthenticated head when `requireAuthenticated`;
 *   the client's errors (network, fork…).
 * @category Draw
 */
export async function planTarget(options: PlanOptions): Promise<TargetPlan> {
  const { client } = options
  const delaySeconds = options.delaySeconds ?? 0
  const minBlocks = options.minBlocks ?? 1
  if (typeof delaySeconds !== 'number' || !Number.isFinite(delaySeconds) || delaySeconds < 0) {
    throw new InvalidInputError('INVALID_OPTION', `delaySeconds must be a non-negative number, got ${String(delaySeconds)}`, 'pass how many seconds ahead the target must be', { path: '$.delaySeconds' })
  }
  if (!Number.isSafeInteger(minBlocks) || minBlocks < 1) {
    throw new InvalidInputError('INVALID_OPTION', `minBlocks must be a positive integer, got ${String(minBlocks)}`, 'pass at least 1', { path: '$.minBlocks' })
  }
  const call = options.signal ? { signal: options.signal } : {}
  const requestedAt = Date.now()
  const head = await client.latest(call)
  if ((options.requireAuthenticated ?? true) && !head.authenticated) {
    throw new InvalidInputError('UNAUTHENTICATED_HEAD', 'the latest block was not authenticated by a signed IPNS record', 'use gateways that serve ?format=ipns-record, or pass requireAuthenticated: false knowingly')
  }
  const intervalMs = await client.intervalMs(call)
  const now = Date.now()
  // Counted from the head's own timestamp: that is the clock `verify` compares a time-stamp with, and it
  // is never later than the head's real publication (timestamps are whole seconds, rounded down). Not
  // from "now less one interval": a head served from a cache, or a slow interval lookup (it may fetch
  // up to 16 blocks), leaves the chain further ahead than that, and the target block then comes earlier
  // than estimated, before a time-stamp that the estimate said would precede it. Never later than the
  // request, whatever the clocks say.
  const publishedAt = Math.min(requestedAt, head.block.timestamp * 1000)
  const k = Math.max(minBlocks, Math.ceil((now + delaySeconds * 1000 - publishedAt) / intervalMs) + 1)
  return {
    beacon: client.name,
    after: { sequence: head.block.sequence, block: head.block.cid },
    target: head.block.sequence + k,
    intervalSeconds: intervalMs / 1000,
    estimatedTime: new Date(publishedAt + k * intervalMs),
    authenticated: head.authenticated,
  }
}

/**
 * {@link planTarget}, returning only what `commit()` takes: `{ beacon, target, after }`.
 * @category Draw
 */
export async function planCommitment(options: PlanOptions): Promise<{ beacon: string; target: number; after: { sequence: number; block: string } }> {
  const p = await planTarget(options)
  return { beacon: p.beacon, target: p.target, after: { sequence: p.after.sequence, block: p.after.block } }
}

/**
 * A plan for a target the organizer fixed (`sequence`): its time estimated from the latest block and the
 * beacon's interval, as {@link planTarget} estimates a planned one.
 * @throws {@link InvalidInputError} `UNAUTHENTICATED_HEAD` when the latest block came without a signed
 *   record and `requireAuthenticated` is not `false`; `INVALID_SEQUENCE` when the block is already published.
 */
export async function planFixedTarget(client: BeaconClient, sequence: number, options: CallOptions & { readonly requireAuthenticated?: boolean } = {}): Promise<TargetPlan> {
  const call = options.signal === undefined ? {} : { signal: options.signal }
  const requestedAt = Date.now()
  const head = await client.latest(call)
  if (options.requireAuthenticated !== false && !head.authenticated) throw new InvalidInputError('UNAUTHENTICATED_HEAD', 'the latest block was not authenticated by a signed IPNS record', 'use gateways that serve ?format=ipns-record, or pass requireAuthenticated: false knowingly')
  if (!Number.isSafeInteger(sequence) || sequence <= head.block.sequence) throw new InvalidInputError('INVALID_SEQUENCE', `block ${String(sequence)} is not in the future (the latest is ${head.block.sequence})`, 'choose a later sequence, or a delay', { path: '$.sequence' })
  const intervalMs = await client.intervalMs(call)
  return {
    beacon: client.name,
    after: { sequence: head.block.sequence, block: head.block.cid },
    target: sequence,
    intervalSeconds: intervalMs / 1000,
    estimatedTime: new Date(Math.min(requestedAt, head.block.timestamp * 1000) + (sequence - head.block.sequence) * intervalMs),
    authenticated: head.authenticated,
  }
}
