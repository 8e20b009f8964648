/**
 * Writes IPNS records in the one encoding the strict decoder (`./record.ts`) accepts: canonical
 * DAG-CBOR `data`, a V2 signature over `"ipns-signature:" || data`, optionally the legacy V1 fields
 * and signature, and the key's protobuf when the name cannot inline it (RSA). The emulator publishes
 * with it; tests check that the `ipns` package validates what it writes.
 *
 * Pure: the caller supplies the signer and the validity time.
 *
 * @module
 */
import { encode as encodeDagCbor } from '@ipld/dag-cbor'
import { concatBytes, utf8Encode } from '../bytes.js'
import { publicKeyMultihash, publicKeyToProtobuf, type IpnsPublicKey } from './key-format.js'
import { encodeMessage, type FieldValue } from './protobuf.js'
import { formatRfc3339Nano, SIGNATURE_PREFIX, V1_VALIDITY_EOL } from './record.js'

/**
 * Something that signs IPNS records: a public key and a `sign` function. Ed25519 signatures are
 * RFC 8032; RSA ones RSASSA-PKCS1-v1_5 with SHA-256. `@libp2p/crypto` private keys fit this shape.
 * @category Beacon
 */
export interface IpnsSigner {
  /** The public key (its name is the record's name). */
  readonly publicKey: IpnsPublicKey
  /** Signs `data`. */
  sign(data: Uint8Array): Uint8Array | Promise<Uint8Array>
}

/**
 * What an IPNS record says.
 * @category Beacon
 */
export interface IpnsRecordContent {
  /** The value, for example `/ipfs/bafkrei…`. */
  readonly value: string
  /** End of validity: a Date (written with nanoseconds, like kubo) or an RFC 3339 string used as is. */
  readonly validity: Date | string
  /** The sequence number. */
  readonly sequence: bigint
  /** Time-to-live hint in nanoseconds (omitted from the record when undefined). */
  readonly ttlNs?: bigint
  /** Also write the legacy V1 fields and signature (default `true`, like kubo). */
  readonly v1Compatible?: boolean
}

/**
 * Creates and marshals a signed IPNS record.
 *
 * @example
 * ```ts
 * const bytes = await createIpnsRecord(signer, { value: '/ipfs/bafkrei…', validity: new Date(Date.now() + 3_600_000), sequence: 1n })
 * ```
 * @category Beacon
 */
export async function createIpnsRecord(signer: IpnsSigner, content: IpnsRecordContent): Promise<Uint8Array> {
  const value = utf8Encode(content.value)
  const validity = utf8Encode(typeof content.validity === 'string' ? content.validity : formatRfc3339Nano(content.validity))
  const map: Record<string, Uint8Array | bigint> = { Value: value, Validity: validity, ValidityType: 0n, Sequence: content.sequence }
  if (content.ttlNs !== undefined) map.TTL = content.ttlNs
  const data = encodeDagCbor(map)
  const signatureV2 = await signer.sign(concatBytes(SIGNATURE_PREFIX, data))
  // The key travels in the record only when the name cannot carry it (a sha2-256 name: RSA).
  const pubKey = publicKeyMultihash(signer.publicKey)[0] === 0x00 ? undefined : publicKeyToProtobuf(signer.publicKey)
  const fields: [number, FieldValue][] = []
  if (content.v1Compatible ?? true) {
    const signatureV1 = await signer.sign(concatBytes(value, validity, V1_VALIDITY_EOL))
    fields.push([1, value], [2, signatureV1], [3, 0n], [4, validity], [5, content.sequence])
    if (content.ttlNs !== undefined) fields.push([6, content.ttlNs])
  }
  if (pubKey !== undefined) fields.push([7, pubKey])
  fields.push([8, signatureV2], [9, data])
  return encodeMessage(fields)
}
