/**
 * The REST client's fallback to the public beacon: when the cTRNG endpoint is unavailable, the
 * latest verified beacon block's values are handed out instead, each at most once per client, and
 * labelled as such (`source: 'beacon'`, the block, and why the endpoint was not used).
 *
 * @module
 */
import { bytesToHex } from '../core/bytes.js'
import { OrbitdrawError } from '../core/errors.js'
import { NetworkError, RateLimitedError, TimeoutError } from '../net/errors.js'
import { abortedError } from '../net/abort.js'
import { FallbackError, InvalidResponseError, OrbitportError, ServerError } from './errors.js'
import type { RandomValue } from './response.js'

/**
 * The latest values of the public beacon, as a fallback provider gives them.
 * @category REST
 */
export interface BeaconValues {
  /** The block's cTRNG values (32 bytes each). */
  values: Uint8Array[]
  /** The block's sequence number. */
  sequence: number
  /** The block's CID. */
  cid: string
  /** Whether the provider verified the block (IPNS record signature and content address). */
  authenticated: boolean
}

/**
 * A provider of the public beacon's latest verified block (the beacon client implements it).
 * @category REST
 */
export interface BeaconFallback {
  latestValues(signal?: AbortSignal): Promise<BeaconValues>
}

/**
 * The part of a beacon client {@link beaconFallbackFrom} needs (structural: `BeaconClient` fits).
 * @category REST
 */
export interface BeaconHeadSource {
  latest(options?: { signal?: AbortSignal }): Promise<{
    readonly block: { readonly cid: string; readonly sequence: number; readonly values: readonly Uint8Array[] }
    readonly authenticated: boolean
  }>
}

/**
 * Adapts a beacon client (anything with `latest({ signal })` returning a verified head) into a
 * {@link BeaconFallback}: the values of the latest block, labelled with its sequence, CID and
 * whether a signed record authenticated it.
 *
 * @example
 * const rest = new OrbitportClient({ clientId, clientSecret, beaconFallback: beaconFallbackFrom(new BeaconClient()) })
 * @category REST
 */
export function beaconFallbackFrom(beacon: BeaconHeadSource): BeaconFallback {
  return {
    async latestValues(signal?: AbortSignal): Promise<BeaconValues> {
      const head = await beacon.latest(signal === undefined ? {} : { signal })
      return { values: [...head.block.values], sequence: head.block.sequence, cid: head.block.cid, authenticated: head.authenticated }
    },
  }
}

/**
 * Default fallback policy: the endpoint is unavailable or misbehaving (not a config or trust problem).
 * @category REST
 */
export function defaultFallbackOn(error: unknown): boolean {
  if (error instanceof ServerError) return error.status >= 500
  return error instanceof NetworkError || error instanceof TimeoutError || error instanceof RateLimitedError || error instanceof InvalidResponseError
}

function checkBeaconValues(b: BeaconValues): string | undefined {
  if (b === null || typeof b !== 'object') return 'the fallback returned no block'
  if (!Array.isArray(b.values) || b.values.length === 0) return 'the fallback block has no values'
  for (const v of b.values) if (!(v instanceof Uint8Array) || v.length !== 32) return 'a fallback value is not 32 bytes'
  if (typeof b.cid !== 'string' || b.cid === '') return 'the fallback block has no CID'
  if (!Number.isSafeInteger(b.sequence)) return 'the fallback block has no sequence number'
  return undefined
}

/** Blocks whose use is remembered (values of older blocks are never offered again anyway). */
const BLOCKS_REMEMBERED = 16

/** Hands out beacon values, each at most once. */
export class BeaconValueDispenser {
  readonly #fallback: BeaconFallback
  readonly #used = new Map<string, number>()
  readonly #scrub: (text: string) => string
  readonly #log: (message: string, fields: Record<string, unknown>) => void

  constructor(fallback: BeaconFallback, scrub: (text: string) => string, log: (message: string, fields: Record<string, unknown>) => void) {
    this.#fallback = fallback
    this.#scrub = scrub
    this.#log = log
  }

  /**
   * The next unused value of the latest beacon block, as a {@link RandomValue} that records why the
   * endpoint (`endpointError`) was not used.
   * @throws {@link FallbackError} with both errors when the beacon fails too; `AbortedError` on abort.
   */
  async next(endpointError: unknown, signal: AbortSignal | undefined): Promise<RandomValue> {
    let latest: BeaconValues
    try {
      latest = await this.#fallback.latestValues(signal)
    } catch (err) {
      if (signal?.aborted === true) throw abortedError({ edge: 'rest' }, err)
      throw new FallbackError(endpointError, err)
    }
    const problem = checkBeaconValues(latest)
    if (problem !== undefined) throw new FallbackError(endpointError, new OrbitportError('ORBITPORT_BEACON_INVALID', problem, 'the beacon fallback provider returned malformed values'))
    const used = this.#used.get(latest.cid) ?? 0
    if (used >= latest.values.length) {
      throw new FallbackError(
        endpointError,
        new OrbitportError('ORBITPORT_BEACON_EXHAUSTED', `all ${latest.values.length} values of beacon block ${latest.sequence} were already used by this client`, 'wait for the next beacon block (one every 60 s) or for the endpoint to recover'),
      )
    }
    this.#used.set(latest.cid, used + 1)
    while (this.#used.size > BLOCKS_REMEMBERED) this.#used.delete(this.#used.keys().next().value!)
    const data = latest.values[used]!.slice()
    const reason = endpointError instanceof OrbitdrawError ? { code: endpointError.code, message: endpointError.message } : { code: 'UNKNOWN', message: this.#scrub(String(endpointError)) }
    this.#log('value taken from the public beacon', { sequence: latest.sequence, cid: latest.cid, index: used, authenticated: latest.authenticated })
    return {
      source: 'beacon',
      src: 'beacon',
      data,
      hex: bytesToHex(data),
      signatureVerified: false,
      beacon: { sequence: latest.sequence, cid: latest.cid, index: used, authenticated: latest.authenticated },
      fallbackReason: reason,
    }
  }
}
