/**
 * Trust anchors that belong to the verifier, never to the proof: the beacons whose signed blocks may
 * decide a draw. A proof names its beacon; `verify` accepts it only when that name is in the
 * verifier's list (by default Orbitport's own beacons, {@link ORBITPORT_BEACONS}).
 *
 * @module
 */
import { InvalidInputError, OrbitdrawError } from './errors.js'
import { parseIpnsName } from './ipns/name.js'

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
