/**
 * A time-stamping authority as the verifier's trust material holds it (see `createTrust`).
 *
 * @module
 */
import type { TimestampTrustAnchor } from './anchor.js'

/**
 * A time-stamping authority the verifier trusts: where to ask it for tokens, the roots its tokens chain
 * to, and the window in which its tokens count.
 * @category Verify
 */
export interface TimestampAuthority {
  /** What to call it in a verdict, for example "DigiCert". */
  readonly name: string
  /** Its RFC 3161 endpoint, for the edges that ask it for tokens (`commit`, `draw`); verification never uses it. */
  readonly url?: string
  /** The roots its tokens chain to (at least one). */
  readonly roots: readonly TimestampTrustAnchor[]
  /** ISO 8601: a token whose time (with its accuracy) starts before this instant does not count for this authority. */
  readonly validFrom?: string
  /** ISO 8601: a token whose time (with its accuracy) ends after this instant does not count for this authority. */
  readonly validUntil?: string
}
