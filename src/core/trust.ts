/**
 * Trust anchors that belong to the verifier, never to the proof, as one value built once
 * ({@link createTrust}): the beacons whose signed blocks may decide a draw (by default Orbitport's own,
 * {@link ORBITPORT_BEACONS}), the time-stamping authorities (name, URL, roots, validity window) and the
 * drand chains. A proof names its beacon, authority roots and chain; `verify` accepts them only when
 * they are in the verifier's lists.
 *
 * @module
 */
import { underPath } from './commitment.js'
import { checkChainInfo, DEFAULT_DRAND_CHAINS, type DrandChainInfo } from './drand/chain.js'
import { InvalidInputError, OrbitdrawError } from './errors.js'
import { parseIpnsName } from './ipns/name.js'
// Types only: the certificate parser and the built-in roots load when createTrust needs them.
import type { TimestampTrustAnchor } from './timestamp/anchor.js'
import type { TimestampAuthority } from './timestamp/authority.js'
export type { TimestampAuthority } from './timestamp/authority.js'

/**
 * A beacon the verifier trusts: its IPNS name and a label to show people.
 * @category Verify
 */
export interface TrustedBeacon {
  /** IPNS name (`k2k4r8…` for RSA keys, `k51…` for Ed25519; other encodings of the same name are accepted). */
  readonly name: string
  /** What to call it in a verdict, for example "Orbitport randomness beacon". */
  readonly label: string
}

/**
 * Orbitport's randomness beacons: the current IPNS name and the former one. This is the default
 * beacon trust list of `verify`.
 *
 * @example
 * ```ts
 * await verify(proof) // trusts ORBITPORT_BEACONS
 * await verify(proof, { trust: { beacons: [...ORBITPORT_BEACONS, { name: myBeacon, label: 'test beacon' }] } })
 * ```
 * @category Verify
 */
export const ORBITPORT_BEACONS: readonly TrustedBeacon[] = Object.freeze([
  Object.freeze({ name: 'k2k4r8lvomw737sajfnpav0dpeernugnryng50uheyk1k39lursmn09f', label: 'Orbitport randomness beacon' }),
  Object.freeze({ name: 'k2k4r8pigrw8i34z63om8f015tt5igdq0c46xupq8spp1bogt35k5vhe', label: 'Orbitport randomness beacon (former name)' }),
])

/**
 * How a verdict refers to the committed beacon.
 * @category Verify
 */
export interface BeaconIdentity {
  /** The committed name, in canonical form when it parses. */
  readonly name: string
  /** True when the verifier's list holds the name. */
  readonly trusted: boolean
  /** The verifier's label for it, when trusted. */
  readonly label?: string
  /** `default` when trusted through the built-in {@link ORBITPORT_BEACONS}, `caller` when through the caller's own list. */
  readonly source?: 'default' | 'caller'
  /** The name in words: "Orbitport randomness beacon (k2k4r8lvom…)" or "untrusted beacon k2k4r8…". */
  readonly text: string
}

/**
 * Normalizes a caller's beacon trust list: each item is an IPNS name or a {@link TrustedBeacon}.
 *
 * @throws {@link InvalidInputError} `INVALID_TRUSTED_BEACON` naming the bad item.
 * @category Verify
 */
export function normalizeTrustedBeacons(list: readonly (string | TrustedBeacon)[]): TrustedBeacon[] {
  if (!Array.isArray(list)) throw new InvalidInputError('INVALID_TRUSTED_BEACON', 'trust.beacons must be an array of IPNS names or { name, label } objects', 'pass e.g. [...ORBITPORT_BEACONS, { name: "k51…", label: "my test beacon" }]', { path: '$.trust.beacons' })
  return list.map((item, i) => {
    const path = `$.trust.beacons[${i}]`
    const name = typeof item === 'string' ? item : typeof item === 'object' && item !== null ? item.name : undefined
    const label = typeof item === 'object' && item !== null && typeof item.label === 'string' && item.label.length > 0 ? item.label : undefined
    try {
      const canonical = parseIpnsName(name as string, path).name
      return { name: canonical, label: label ?? 'beacon' }
    } catch (err) {
      throw new InvalidInputError('INVALID_TRUSTED_BEACON', `trust.beacons[${i}] is not an IPNS name: ${err instanceof OrbitdrawError ? err.detail : String(err)}`, 'give the beacon IPNS name (k2k4r8… or k51…), as printed by `orbitdraw emulator` or the beacon operator', { path })
    }
  })
}

/** Canonical form of an IPNS name, or undefined when it does not parse. */
function canonical(name: string): string | undefined {
  try {
    return parseIpnsName(name).name
  } catch {
    return undefined
  }
}

/**
 * The first 10 characters of a name and an ellipsis: enough to tell beacons apart in a sentence.
 * @category Verify
 */
export function shortName(name: string): string {
  return name.length > 12 ? `${name.slice(0, 10)}…` : name
}

/**
 * Names the committed beacon for a verdict, against the verifier's list.
 *
 * @param beacon - the beacon name the commitment states (untrusted).
 * @param trusted - the verifier's list (normalized); default {@link ORBITPORT_BEACONS}.
 * @category Verify
 */
export function identifyBeacon(beacon: string, trusted: readonly TrustedBeacon[] = ORBITPORT_BEACONS): BeaconIdentity {
  const name = canonical(beacon) ?? String(beacon)
  const match = trusted.find((t) => canonical(t.name) === name)
  if (match === undefined) return { name, trusted: false, text: `untrusted beacon ${shortName(name)}` }
  const source = ORBITPORT_BEACONS.some((o) => o.name === name) ? 'default' : 'caller'
  return { name, trusted: true, label: match.label, source, text: `${match.label} (${shortName(name)})` }
}

/**
 * An authority as {@link createTrust} takes it: its roots as PEM text, DER bytes or parsed anchors,
 * its window as ISO 8601 text or a `Date`.
 * @category Verify
 */
export interface TimestampAuthorityInput {
  readonly name: string
  readonly url?: string
  readonly roots: readonly (string | Uint8Array | TimestampTrustAnchor)[]
  readonly validFrom?: string | Date
  readonly validUntil?: string | Date
}

/**
 * The verifier's trust material as {@link createTrust} takes it (and as `verify`'s `trust` option
 * accepts it, building it once). Each list replaces the built-in default when given.
 * @category Verify
 */
export interface VerifyTrust {
  /**
   * Beacons whose blocks may decide a draw: IPNS names or `{ name, label }`. Default:
   * {@link ORBITPORT_BEACONS}. To add a beacon, pass `[...ORBITPORT_BEACONS, { name, label }]`.
   */
  readonly beacons?: readonly (string | TrustedBeacon)[]
  /**
   * Time-stamping authorities that may vouch for the commitment's time (and, in a mixed draw, the target
   * block's): `{ name, url, roots, validFrom, validUntil }`, or a bare root (PEM text, DER bytes or a parsed
   * anchor) standing for an authority of that root with no URL and no window. Default:
   * {@link PUBLIC_TIMESTAMP_AUTHORITIES} (DigiCert and Sectigo). To add one, pass
   * `[...PUBLIC_TIMESTAMP_AUTHORITIES, { name, url, roots: [pemOfItsRoot] }]`.
   */
  readonly timestampAuthorities?: readonly (string | Uint8Array | TimestampTrustAnchor | TimestampAuthorityInput)[]
  /**
   * drand chains whose rounds may be mixed into a draw (protocol v2), each pinned by chain hash, public
   * key, genesis, period and scheme. Default: {@link DEFAULT_DRAND_CHAINS} (drand's quicknet). To add
   * one, pass `[...DEFAULT_DRAND_CHAINS, parseDrandInfo(infoJson)]`.
   */
  readonly drandChains?: readonly DrandChainInfo[]
}

/**
 * The verifier's trust material, built once by {@link createTrust}: every anchor checked and frozen.
 * It belongs to the verifier, never to a proof.
 * @category Verify
 */
export interface VerifierTrust {
  /** Beacons whose blocks may decide a draw (canonical IPNS names). */
  readonly beacons: readonly TrustedBeacon[]
  /** Time-stamping authorities whose tokens may date the commitment and, in a mixed draw, the target block. */
  readonly timestampAuthorities: readonly TimestampAuthority[]
  /** drand chains whose rounds may be mixed into a draw. */
  readonly drandChains: readonly DrandChainInfo[]
}

/** The values {@link createTrust} built: `verify` takes them as they are. */
const built = new WeakSet<object>()

/**
 * Builds the verifier's trust material once, from the defaults and the caller's lists: beacons (IPNS
 * names), time-stamping authorities (name, URL, roots, validity window) and drand chains. Pass the
 * result to `verify` (`{ trust }`) as often as you like; the command line builds it from its `--trust-*`
 * flags and `ORBITDRAW_TRUST_*` variables, the verifier page from its trust settings.
 *
 * Loads the certificate parser only when a root is given as PEM or DER, and the built-in roots only
 * when `timestampAuthorities` is omitted.
 *
 * @example
 * ```ts
 * const trust = await createTrust({
 *   beacons: [...ORBITPORT_BEACONS, { name: 'k51…', label: 'our test beacon' }],
 *   timestampAuthorities: [...PUBLIC_TIMESTAMP_AUTHORITIES, { name: 'Our TSA', url: 'https://tsa.example', roots: [pem], validFrom: '2026-01-01T00:00:00Z' }],
 *   drandChains: [...DEFAULT_DRAND_CHAINS, parseDrandInfo(infoJson)],
 * })
 * for (const proof of proofs) console.log((await verify(proof, { trust })).verdict)
 * ```
 * @throws {@link InvalidInputError} `INVALID_TRUSTED_BEACON`, `INVALID_TRUST_ANCHOR` or `INVALID_DRAND_INFO`,
 *   with the path of the bad item (`$.trust.beacons[1]`...); `TIMESTAMP_ANCHOR_INVALID` (a {@link ParseError})
 *   for a root that is not a readable certificate.
 * @category Verify
 */
export async function createTrust(input: VerifyTrust = {}): Promise<VerifierTrust> {
  if (built.has(input)) return input as VerifierTrust
  if (typeof input !== 'object' || input === null) throw new InvalidInputError('INVALID_TRUST_ANCHOR', 'the trust material must be an object { beacons, timestampAuthorities, drandChains }', 'pass e.g. { beacons: [...ORBITPORT_BEACONS, name] }, or omit it for the defaults', { path: '$.trust' })
  const trust: VerifierTrust = Object.freeze({
    beacons: Object.freeze(input.beacons === undefined ? [...ORBITPORT_BEACONS] : normalizeTrustedBeacons(input.beacons)),
    timestampAuthorities: Object.freeze(input.timestampAuthorities === undefined ? [...(await import('./timestamp/defaults.js')).PUBLIC_TIMESTAMP_AUTHORITIES] : await normalizeAuthorities(input.timestampAuthorities)),
    drandChains: Object.freeze(input.drandChains === undefined ? [...DEFAULT_DRAND_CHAINS] : normalizeDrandChains(input.drandChains)),
  })
  built.add(trust)
  return trust
}

/**
 * The roots of every authority, each carrying its authority's window: what the time-stamp checks take.
 * @category Verify
 */
export function timestampRoots(trust: Pick<VerifierTrust, 'timestampAuthorities'>): TimestampTrustAnchor[] {
  return trust.timestampAuthorities.flatMap((a) => a.roots.map((r) => (a.validFrom === undefined && a.validUntil === undefined ? r : { ...r, ...(a.validFrom === undefined ? {} : { validFrom: a.validFrom }), ...(a.validUntil === undefined ? {} : { validUntil: a.validUntil }) })))
}

/** `trust.drandChains`, each checked (hex fields, scheme, chain hash recomputed when the group hash is given). */
function normalizeDrandChains(list: readonly DrandChainInfo[]): DrandChainInfo[] {
  if (!Array.isArray(list)) throw new InvalidInputError('INVALID_DRAND_INFO', 'trust.drandChains must be an array of drand chain infos', 'pass e.g. [...DEFAULT_DRAND_CHAINS, parseDrandInfo(infoJson)]', { path: '$.trust.drandChains' })
  return list.map((c, i) => checkChainInfo(c, `$.trust.drandChains[${i}]`))
}

const isRoot = (a: unknown): a is string | Uint8Array => typeof a === 'string' || a instanceof Uint8Array

/** `trust.timestampAuthorities` (authorities, or bare roots as PEM, DER or parsed anchors), replacing the defaults. */
async function normalizeAuthorities(list: NonNullable<VerifyTrust['timestampAuthorities']>): Promise<TimestampAuthority[]> {
  const hint = 'pass e.g. [...PUBLIC_TIMESTAMP_AUTHORITIES, { name, url, roots: [pemText] }]'
  if (!Array.isArray(list)) throw new InvalidInputError('INVALID_TRUST_ANCHOR', 'trust.timestampAuthorities must be an array of authorities { name, url, roots } or roots (PEM text, DER bytes or parsed anchors)', hint, { path: '$.trust.timestampAuthorities' })
  const toParse = list.some((a) => isRoot(a) || (isAuthority(a) && Array.isArray(a.roots) && a.roots.some(isRoot)))
  const parse = toParse ? (await import('./timestamp/anchor.js')).parseTrustAnchor : undefined
  const root = (r: unknown, path: string): TimestampTrustAnchor => {
    if (isRoot(r)) return underPath(path, () => parse!(r))
    if (typeof r === 'object' && r !== null && typeof (r as TimestampTrustAnchor).name === 'string' && (r as TimestampTrustAnchor).der instanceof Uint8Array) return r as TimestampTrustAnchor
    throw new InvalidInputError('INVALID_TRUST_ANCHOR', 'a time-stamping root must be PEM text, DER bytes or a parsed anchor', hint, { path })
  }
  return list.map((a, i): TimestampAuthority => {
    const path = `$.trust.timestampAuthorities[${i}]`
    if (!isAuthority(a)) {
      const r = root(a, path)
      return Object.freeze({ name: r.name, roots: Object.freeze([r]) })
    }
    if (typeof a.name !== 'string' || a.name.length === 0 || a.name.length > 200) throw new InvalidInputError('INVALID_TRUST_ANCHOR', 'an authority needs a name of 1 to 200 characters', hint, { path: `${path}.name` })
    if (a.url !== undefined && !isHttpUrl(a.url)) throw new InvalidInputError('INVALID_TRUST_ANCHOR', `the authority's url ${JSON.stringify(String(a.url).slice(0, 200))} is not an http(s) URL`, 'give its RFC 3161 endpoint, e.g. http://timestamp.digicert.com', { path: `${path}.url` })
    if (!Array.isArray(a.roots) || a.roots.length === 0) throw new InvalidInputError('INVALID_TRUST_ANCHOR', 'an authority needs at least one root', hint, { path: `${path}.roots` })
    const validFrom = instant(a.validFrom, `${path}.validFrom`)
    const validUntil = instant(a.validUntil, `${path}.validUntil`)
    if (validFrom !== undefined && validUntil !== undefined && Date.parse(validFrom) > Date.parse(validUntil)) throw new InvalidInputError('INVALID_TRUST_ANCHOR', `the authority's window is empty: validFrom ${validFrom} is after validUntil ${validUntil}`, 'swap or correct the two instants', { path })
    return Object.freeze({
      name: a.name,
      ...(a.url === undefined ? {} : { url: a.url }),
      roots: Object.freeze(a.roots.map((r, j) => root(r, `${path}.roots[${j}]`))),
      ...(validFrom === undefined ? {} : { validFrom }),
      ...(validUntil === undefined ? {} : { validUntil }),
    })
  })
}

function isAuthority(a: unknown): a is TimestampAuthorityInput {
  return typeof a === 'object' && a !== null && !(a instanceof Uint8Array) && 'roots' in a
}

/** An instant as ISO 8601 text (UTC, milliseconds), or undefined. */
function instant(v: string | Date | undefined, path: string): string | undefined {
  if (v === undefined) return undefined
  const ms = v instanceof Date ? v.getTime() : typeof v === 'string' && v.length <= 40 ? Date.parse(v) : NaN
  if (!Number.isFinite(ms)) throw new InvalidInputError('INVALID_TRUST_ANCHOR', `${JSON.stringify(String(v).slice(0, 40))} is not an instant`, 'give ISO 8601 text (2026-01-01T00:00:00Z) or a Date', { path })
  return new Date(ms).toISOString()
}

function isHttpUrl(u: unknown): boolean {
  if (typeof u !== 'string' || u.length > 2048) return false
  try {
    const p = new URL(u).protocol
    return p === 'http:' || p === 'https:'
  } catch {
    return false
  }
}
