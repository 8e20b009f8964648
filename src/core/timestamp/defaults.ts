/**
 * The default trusted time-stamping roots.
 *
 * @module
 */
import { parseTrustAnchor, type TimestampTrustAnchor } from './anchor.js'
import { DIGICERT_TRUSTED_ROOT_G4_PEM, USERTRUST_RSA_CERTIFICATION_AUTHORITY_PEM } from './roots.js'

/**
 * Built-in trust anchors: the roots that the default public authorities (`timestamp.digicert.com`,
 * `timestamp.sectigo.com`) chain to. Replace or extend them with `trust.timestampAuthorities` (API)
 * or `--trust-tsa FILE` (CLI). Sources and fingerprints: `roots.ts`. The older DigiCert Assured ID
 * Root CA (roots of DigiCert tokens made before 2021 or so) is shipped as data but not trusted by default:
 * add it with `parseTrustAnchor(DIGICERT_ASSURED_ID_ROOT_CA_PEM)` to check old tokens.
 * @category Time-stamping
 */
export const DEFAULT_TIMESTAMP_AUTHORITIES: readonly TimestampTrustAnchor[] = /* @__PURE__ */ Object.freeze(
  [DIGICERT_TRUSTED_ROOT_G4_PEM, USERTRUST_RSA_CERTIFICATION_AUTHORITY_PEM].map((pem) => parseTrustAnchor(pem)),
)
