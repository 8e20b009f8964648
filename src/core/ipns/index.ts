/**
 * IPNS for orbitdraw: names, the strict record decoder, signature checks (Ed25519, RSA) and the
 * matching encoder. Pure; no dependency on the `ipns` or `@libp2p/*` packages.
 *
 * @module
 */
export { parseIpnsName, ipnsNameKey, type IpnsName } from './name.js'
export { ipnsNameOfKey, publicKeyToProtobuf, publicKeyMultihash, decodePublicKey, verifyKeySignature, RSA_MIN_BITS, RSA_MAX_BITS, type IpnsPublicKey, type IpnsKeyType } from './keys.js'
export {
  MAX_IPNS_RECORD_BYTES,
  IPNS_ENTRY_SCHEMA,
  parseIpnsRecord,
  checkRecordSignature,
  verifyIpnsRecord,
  parseRfc3339,
  formatRfc3339Nano,
  type IpnsRecordInfo,
  type VerifiedIpnsRecord,
  type RecordKeyResult,
  type VerifyIpnsRecordOptions,
} from './record.js'
export { recordKeyForName } from './record-key.js'
export { createIpnsRecord, type IpnsSigner, type IpnsRecordContent } from './encode.js'
export { decodeMessage, encodeMessage, type MessageSchema, type FieldValue, type WireKind } from './protobuf.js'
