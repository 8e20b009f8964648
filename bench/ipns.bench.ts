/**
 * IPNS record verification with the core's strict decoder (`verifyIpnsRecord`: strict protobuf,
 * strict + canonical DAG-CBOR, V1/V2 agreement, key → name, V2 and V1 signatures) on 200 Ed25519
 * records (V1+V2), against the two pure-JS `@noble/curves` signature checks per record that a host
 * without a native Ed25519 pays (goal <= 1.1x: decoding is a small part, and the Web Crypto fast path
 * makes it far less in Node), and the strict parse alone against one signature check per record (goal
 * <= 0.1x). Reported without a goal: the `ipns` package's `ipnsValidator` on the same records (native
 * Ed25519 in Node, V2 signature only, lenient decoding).
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { multihashToIPNSRoutingKey } from 'ipns'
import { ipnsValidator } from 'ipns/validator'
import * as Digest from 'multiformats/hashes/digest'
import { concatBytes, utf8Encode } from '../src/core/bytes.js'
import { createIpnsRecord } from '../src/core/ipns/encode.js'
import { ipnsNameOfKey } from '../src/core/ipns/key-format.js'
import { parseIpnsName } from '../src/core/ipns/name.js'
import { parseIpnsRecord, verifyIpnsRecord } from '../src/core/ipns/record.js'
import { generateBeaconKey } from '../src/emulator/keys.js'
import { timePair, type BenchRow } from './harness.js'

const N = 200

export default async function (): Promise<BenchRow[]> {
  const key = await generateBeaconKey('Ed25519', { seed: new Uint8Array(32).fill(5) })
  const name = ipnsNameOfKey(key.publicKey)
  const routingKey = multihashToIPNSRoutingKey(Digest.decode(parseIpnsName(name).multihash) as Digest.Digest<0x00, number>)
  const validity = new Date(Date.UTC(2099, 0, 1))
  const records: Uint8Array[] = []
  for (let i = 0; i < N; i++) records.push(await createIpnsRecord(key, { value: `/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy`, validity, sequence: BigInt(i + 1), ttlNs: 60_000_000_000n }))
  const parsed = records.map((r) => parseIpnsRecord(r))
  const messages = parsed.map((p) => concatBytes(utf8Encode('ipns-signature:'), p.data))

  const verify = await timePair(
    async () => {
      for (const r of records) await verifyIpnsRecord(r, name)
    },
    () => {
      for (let i = 0; i < N; i++) {
        ed25519.verify(parsed[i]!.signatureV2, messages[i]!, key.publicKey.raw, { zip215: false })
        ed25519.verify(parsed[i]!.signatureV1!, parsed[i]!.v1Data!, key.publicKey.raw, { zip215: false })
      }
    },
  )
  const parse = await timePair(
    () => {
      for (const r of records) parseIpnsRecord(r)
    },
    () => {
      for (let i = 0; i < N; i++) ed25519.verify(parsed[i]!.signatureV2, messages[i]!, key.publicKey.raw, { zip215: false })
    },
  )
  const lenient = await timePair(
    async () => {
      for (const r of records) await verifyIpnsRecord(r, name)
    },
    async () => {
      for (const r of records) await ipnsValidator(routingKey, r)
    },
    3,
    1,
  )
  return [
    { name: `verifyIpnsRecord, ${N} Ed25519 records (V1+V2)`, value: verify.value, unit: 'ms', baseline: { name: `${2 * N} bare @noble/curves Ed25519 checks (V2 + V1)`, value: verify.baseline }, goal: '<= 1.1x baseline', met: verify.value <= 1.1 * verify.baseline },
    { name: `parseIpnsRecord (strict decode only), ${N} records`, value: parse.value, unit: 'ms', baseline: { name: `${N} bare Ed25519 checks`, value: parse.baseline }, goal: '<= 0.1x baseline', met: parse.value <= 0.1 * parse.baseline },
    { name: `verifyIpnsRecord, ${N} records (reported: other implementation)`, value: lenient.value, unit: 'ms', baseline: { name: 'ipns package ipnsValidator (native Ed25519 in Node, V2 only)', value: lenient.baseline } },
  ]
}
