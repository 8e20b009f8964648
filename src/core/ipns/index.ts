/**
 * IPNS, the pure part a verifier needs: names, the strict record decoder and its signature checks
 * (Ed25519, RSA). No dependency on the `ipns` or `@libp2p/*` packages. Exported by the `orbitdraw/beacon`
 * entry (src/beacon/index.ts); the matching encoder is the emulator's (`orbitdraw/emulator`).
 *
 * @module
 */
export { parseIpnsName, type IpnsName } from './name.js'
export { ipnsNameOfKey, type IpnsPublicKey, type IpnsKeyType } from './keys.js'
export { parseIpnsRecord, checkRecordSignature, verifyIpnsRecord, type IpnsRecordInfo, type VerifiedIpnsRecord, type RecordKeyResult, type VerifyIpnsRecordOptions } from './record.js'
export { recordKeyForName } from './record-key.js'
