/**
 * The default trusted time-stamping roots.
 *
 * @module
 */
import { base64ToBytes } from '../bytes.js'
import type { TimestampTrustAnchor } from './anchor.js'
import type { TimestampAuthority } from './authority.js'
import { BUILT_IN_ROOT_FINGERPRINTS, DIGICERT_TRUSTED_ROOT_G4_PEM, USERTRUST_RSA_CERTIFICATION_AUTHORITY_PEM } from './roots.js'

/**
 * One built-in root as {@link parseTrustAnchor} would return it, from its PEM, its subject name and its
 * published fingerprint, without parsing or hashing the certificate when the module loads: every
 * strict `orbitdraw verify` loads this module, and parsing and hashing both roots there took about
 * 6 ms of its start-up before the JIT warms up (docs/performance.md, Start-up).
 * `test/core/timestamp/roots.test.ts` checks that each entry equals `parseTrustAnchor(pem)`.
 */
function builtIn(pem: string, name: string, sha256: string): TimestampTrustAnchor {
  // The PEM's one certificate, base64-decoded here (not with anchor.ts's pemCertificates): every verify
  // builds its trust material with these roots, and anchor.ts would bring the certificate parser along.
  const body = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]*?)-----END CERTIFICATE-----/.exec(pem)![1]!
  return { name, der: base64ToBytes(body.replace(/\s+/g, ''), '$'), sha256 }
}

/**
 * Built-in trust anchors: the roots that the default public authorities (`timestamp.digicert.com`,
 * `timestamp.sectigo.com`) chain to. Replace or extend them with `trust.timestampAuthorities` (API)
 * or `--trust-tsa FILE` (CLI). Sources and fingerprints: `roots.ts`. The older DigiCert Assured ID
 * Root CA (roots of DigiCert tokens made before 2021 or so) is shipped as data but not trusted by default:
 * add it with `parseTrustAnchor(DIGICERT_ASSURED_ID_ROOT_CA_PEM)` to check old tokens.
 * @category Time-stamping
 */
export const DEFAULT_TIMESTAMP_AUTHORITIES: readonly TimestampTrustAnchor[] = /* @__PURE__ */ Object.freeze([
  builtIn(DIGICERT_TRUSTED_ROOT_G4_PEM, 'DigiCert Trusted Root G4', BUILT_IN_ROOT_FINGERPRINTS.DIGICERT_TRUSTED_ROOT_G4),
  builtIn(USERTRUST_RSA_CERTIFICATION_AUTHORITY_PEM, 'USERTrust RSA Certification Authority', BUILT_IN_ROOT_FINGERPRINTS.USERTRUST_RSA_CERTIFICATION_AUTHORITY),
])

/**
 * The public time-stamping authorities trusted by default, with where to ask them and the roots their
 * tokens chain to ({@link DEFAULT_TIMESTAMP_AUTHORITIES}): the default `timestampAuthorities` of
 * `createTrust`, and the authorities `commit` and `draw` ask (their URLs: `DEFAULT_TSA_URLS`).
 * @category Time-stamping
 */
export const PUBLIC_TIMESTAMP_AUTHORITIES: readonly TimestampAuthority[] = /* @__PURE__ */ Object.freeze([
  Object.freeze({ name: 'DigiCert', url: 'http://timestamp.digicert.com', roots: Object.freeze([DEFAULT_TIMESTAMP_AUTHORITIES[0]!]) }),
  Object.freeze({ name: 'Sectigo', url: 'http://timestamp.sectigo.com', roots: Object.freeze([DEFAULT_TIMESTAMP_AUTHORITIES[1]!]) }),
])

/**
 * The public authorities asked by default: the URLs of {@link PUBLIC_TIMESTAMP_AUTHORITIES}, the
 * default trust material's authorities (their roots are in {@link DEFAULT_TIMESTAMP_AUTHORITIES}).
 * Here, not in the time-stamping client, so that the CLI's flags name them without loading the client.
 * @category Time-stamping
 */
export const DEFAULT_TSA_URLS: readonly string[] = /* @__PURE__ */ Object.freeze(PUBLIC_TIMESTAMP_AUTHORITIES.map((a) => a.url!))
