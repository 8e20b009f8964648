/**
 * Fault injection for the emulated trustless gateway. Faults are added per route and apply to the
 * next `times` requests on that route (default: every request until removed). Several faults may be
 * active on a route at once: latency composes with the others; the first non-latency fault decides
 * the answer.
 *
 * @module
 */

/**
 * The gateway routes faults can target.
 * @category Emulator
 */
export type BeaconRoute =
  /** `GET /ipfs/<cid>` (raw block or JSON). */
  | 'block'
  /** `GET /ipns/<name>?format=ipns-record` (signed record). */
  | 'ipns-record'
  /** `GET /ipns/<name>` (latest block JSON, unsigned). */
  | 'ipns-json'
  /** `POST /tsa` (the RFC 3161 time-stamping authority). */
  | 'tsa'

/**
 * What a fault does.
 * @category Emulator
 */
export type FaultSpec =
  /** Delays the answer by `ms` (then answers normally, or with another active fault). */
  | { readonly kind: 'latency'; readonly ms: number }
  /**
   * Never answers: the request is held open until the client closes the connection or the emulator
   * stops (a gateway that accepted the connection and went silent). A client timeout fires whatever
   * its length, so a test of it does not depend on how fast the machine is.
   */
  | { readonly kind: 'hang' }
  /** Answers with this HTTP status (5xx by default 503) and a JSON `{message}` body. */
  | { readonly kind: 'status'; readonly status?: number; readonly message?: string }
  /** Answers 429 with `Retry-After: <seconds>`. */
  | { readonly kind: 'rate-limit'; readonly retryAfterSeconds?: number }
  /** Sends only the first `keepBytes` bytes of the body (default: half), with a matching Content-Length. */
  | { readonly kind: 'truncate'; readonly keepBytes?: number }
  /** Flips one byte of the body (a block no longer hashes to its CID; a record no longer verifies). */
  | { readonly kind: 'wrong-bytes'; readonly offset?: number }
  /** Serves a record (or head JSON) `back` publications older than the latest (default 1): a caching gateway. */
  | { readonly kind: 'stale-record'; readonly back?: number }
  /**
   * Serves a fork as the head: a different block with the same sequence as the real head (same
   * `previous`, other values), with a record signed by the beacon key at a higher record sequence.
   */
  | { readonly kind: 'fork' }
  /**
   * Answers with a redirect (default 302) to the same path and query on another base URL `to` (for
   * example a second loopback server: an origin a client must not follow to). On every route,
   * `tsa` included (there, after reading the request body).
   */
  | { readonly kind: 'redirect'; readonly to: string; readonly status?: 301 | 302 | 303 | 307 | 308 }
  /** `tsa` only: the token stamps another imprint than the one requested (first byte flipped). */
  | { readonly kind: 'wrong-imprint' }
  /** `tsa` only: the token's signature is corrupted (one byte flipped). */
  | { readonly kind: 'bad-signature' }
  /** `tsa` only: the authority's clock is off by `seconds` (positive: time-stamps in the future). */
  | { readonly kind: 'clock-skew'; readonly seconds: number }

/**
 * A fault as registered.
 * @category Emulator
 */
export interface Fault {
  /** Route it applies to, or `*` for every route. */
  readonly route: BeaconRoute | '*'
  /** What it does. */
  readonly spec: FaultSpec
  /** Requests left to affect (`Infinity` until removed). */
  remaining: number
  /** Requests affected so far. */
  hits: number
}

/**
 * Options for {@link FaultController.add}.
 * @category Emulator
 */
export interface AddFaultOptions {
  /** Affect only the next `times` matching requests (default: all until removed). */
  times?: number
}

/**
 * Per-route fault registry of one emulated gateway.
 * @category Emulator
 */
export class FaultController {
  readonly #faults: Fault[] = []

  /**
   * Adds a fault on `route` (or `*`). Returns a function that removes it.
   * @example faults.add('block', { kind: 'wrong-bytes' }, { times: 1 })
   */
  add(route: BeaconRoute | '*', spec: FaultSpec, options: AddFaultOptions = {}): () => void {
    const times = options.times ?? Infinity
    if (!(times > 0)) throw new RangeError('times must be positive')
    if (spec.kind === 'latency' && !(spec.ms >= 0)) throw new RangeError('latency ms must be >= 0')
    if (spec.kind === 'status' && spec.status !== undefined && !(spec.status >= 400 && spec.status <= 599)) throw new RangeError('status must be 4xx or 5xx')
    const fault: Fault = { route, spec, remaining: times, hits: 0 }
    this.#faults.push(fault)
    return () => {
      const i = this.#faults.indexOf(fault)
      if (i >= 0) this.#faults.splice(i, 1)
    }
  }

  /** Removes every fault. */
  clear(): void {
    this.#faults.length = 0
  }

  /** The registered faults (live objects; for inspection). */
  list(): readonly Fault[] {
    return [...this.#faults]
  }

  /**
   * Takes the faults that apply to one request on `route`, consuming one use of each. Returns the
   * total latency and the deciding fault (the first non-latency one), if any.
   */
  take(route: BeaconRoute): { latencyMs: number; fault: FaultSpec | undefined } {
    let latencyMs = 0
    let fault: FaultSpec | undefined
    for (const f of [...this.#faults]) {
      if (f.route !== '*' && f.route !== route) continue
      if (f.spec.kind === 'latency') {
        latencyMs += f.spec.ms
      } else if (fault === undefined) {
        if ((f.spec.kind === 'stale-record' || f.spec.kind === 'fork') && (route === 'block' || route === 'tsa')) continue
        if (TSA_ONLY.has(f.spec.kind) && route !== 'tsa') continue
        fault = f.spec
      } else {
        continue
      }
      f.hits++
      f.remaining--
      if (f.remaining <= 0) {
        const i = this.#faults.indexOf(f)
        if (i >= 0) this.#faults.splice(i, 1)
      }
    }
    return { latencyMs, fault }
  }
}

const TSA_ONLY: ReadonlySet<FaultSpec['kind']> = new Set(['wrong-imprint', 'bad-signature', 'clock-skew'])

/** Applies a body-altering fault (`truncate`, `wrong-bytes`); other kinds return the body unchanged. */
export function alterBody(body: Uint8Array, fault: FaultSpec | undefined): Uint8Array {
  if (fault?.kind === 'truncate') {
    const keep = Math.max(0, Math.min(body.length - 1, fault.keepBytes ?? Math.floor(body.length / 2)))
    return body.slice(0, keep)
  }
  if (fault?.kind === 'wrong-bytes') {
    const out = body.slice()
    if (out.length === 0) return new Uint8Array([0])
    const at = Math.min(out.length - 1, fault.offset ?? Math.floor(out.length / 2))
    // Keep JSON-ish bodies printable: swap between two digits/letters rather than writing garbage.
    out[at] = out[at] === 0x30 ? 0x31 : out[at] === 0x31 ? 0x30 : out[at]! ^ 0x01
    return out
  }
  return body
}
