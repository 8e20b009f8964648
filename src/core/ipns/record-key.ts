/**
 * The synchronous {@link recordKeyForName}: which key signs a record, checked against a name. It checks
 * an Ed25519 key's point on the spot, so it loads `@noble/curves` (`./ed25519.ts`); the verifier uses
 * `recordKeyForNameAsync` (`./record.ts`), which loads it only for an Ed25519 key.
 *
 * Pure: no network, no clock.
 *
 * @module
 */
import { ed25519KeyValid } from './ed25519.js'
import type { IpnsName } from './name.js'
import { recordKeyWith, type IpnsRecordInfo, type RecordKeyResult } from './record.js'

/**
 * Finds the record's signing key and checks that it hashes to `name` (never throws on a mismatch;
 * throws only on malformed input).
 * @throws {@link ParseError} `IPNS_RECORD_MALFORMED` (bad `pubKey`), `IPNS_KEY_UNSUPPORTED`
 *   (a secp256k1 or ECDSA key), `INVALID_IPNS_NAME`.
 * @category Beacon
 */
export function recordKeyForName(record: IpnsRecordInfo, name: string | IpnsName): RecordKeyResult {
  return recordKeyWith(record, name, ed25519KeyValid)
}
