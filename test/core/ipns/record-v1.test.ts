import { generateKeyPair } from '@libp2p/crypto/keys'
import { createIPNSRecord, marshalIPNSRecord } from 'ipns'
import { describe, expect, it } from 'vitest'
import { ipnsNameOfKey } from '../../../src/core/ipns/key-format.js'
import { parseIpnsRecord, verifyIpnsRecord } from '../../../src/core/ipns/record.js'
import { fieldContent } from '../../helpers/protobuf.js'

const VALUE = '/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'

// No byte of a carried record may go unchecked: the legacy V1 signature is verified when present
// (stricter than an IPNS resolver), and unknown protobuf fields are refused.
describe('IPNS records are checked byte for byte', () => {
  it.each(['Ed25519', 'RSA'] as const)('%s: a V1+V2 record verifies; any flipped V1-signature byte fails; a V2-only record verifies', async (type) => {
    const key = type === 'RSA' ? await generateKeyPair('RSA', 2048) : await generateKeyPair('Ed25519')
    const name = ipnsNameOfKey(key.publicKey)
    const both = marshalIPNSRecord(await createIPNSRecord(key, VALUE, 3n, 3_600_000))
    expect(parseIpnsRecord(both).hasV1Signature).toBe(true)
    await expect(verifyIpnsRecord(both, name)).resolves.toMatchObject({ value: VALUE })

    const [start, end] = fieldContent(both, 2)!
    for (const at of [start, Math.floor((start + end) / 2), end - 1]) {
      const x = both.slice()
      x[at] = x[at]! ^ 0x01
      await expect(verifyIpnsRecord(x, name), `byte ${at}`).rejects.toMatchObject({ code: 'IPNS_SIGNATURE_INVALID' })
    }

    const v2only = marshalIPNSRecord(await createIPNSRecord(key, VALUE, 4n, 3_600_000, { v1Compatible: false }))
    expect(parseIpnsRecord(v2only).hasV1Signature).toBe(false)
    await expect(verifyIpnsRecord(v2only, name)).resolves.toMatchObject({ value: VALUE })
  })

  it('an unknown protobuf field appended to a valid record is refused', async () => {
    const key = await generateKeyPair('Ed25519')
    const rec = marshalIPNSRecord(await createIPNSRecord(key, VALUE, 1n, 3_600_000))
    const extra = new Uint8Array([...rec, (10 << 3) | 2, 1, 0x41]) // field 10, length 1, "A"
    expect(() => parseIpnsRecord(extra)).toThrow(expect.objectContaining({ code: 'IPNS_RECORD_MALFORMED', message: expect.stringMatching(/unknown field 10/) }))
  })
})
