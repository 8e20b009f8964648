import { generateKeyPair } from '@libp2p/crypto/keys'
import { createIPNSRecord, marshalIPNSRecord } from 'ipns'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { checkChain } from '../../src/core/chain.js'
import { ipnsNameOfKey } from '../../src/core/ipns/key-format.js'
import { parseIpnsRecord, checkRecordSignature } from '../../src/core/ipns/record.js'
import { buildChain } from '../helpers/chain.js'

// A browser page served over plain http has no crypto.subtle. RSA is checked in pure JavaScript, so an
// RSA record gets the same answer there as in Node (issue 23, item 4): genuine passes, altered fails.
describe('RSA record signature on a host without Web Crypto', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('checks ipns-record-signature in pure JavaScript: the same answers with and without Web Crypto', async () => {
    const key = await generateKeyPair('RSA', 2048)
    const name = ipnsNameOfKey(key.publicKey)
    const chain = buildChain(4, 'uncheckable')
    const head = chain[3]!
    const record = marshalIPNSRecord(await createIPNSRecord(key, `/ipfs/${head.cid}`, 1n, 3_600_000))
    const input = { beacon: name, target: 3, after: { sequence: 2, block: chain[2]!.cid }, blocks: [head, chain[2]!], ipnsRecord: record }
    // the same record with one byte of its V2 signature changed
    const parsed = parseIpnsRecord(record)
    const altered = { ...parsed, signatureV2: parsed.signatureV2.map((b, i) => (i === 7 ? b ^ 1 : b)) }

    const answers = async (): Promise<unknown> => {
      const r = await checkChain(input)
      const sig = r.checks.find((c) => c.name === 'ipns-record-signature')!
      return { genuine: await checkRecordSignature(parsed, key.publicKey), altered: await checkRecordSignature(altered, key.publicKey), check: { ok: sig.ok, uncheckable: sig.uncheckable }, authenticated: r.authenticated }
    }
    const withCrypto = await answers()
    vi.stubGlobal('crypto', {})
    const without = await answers()
    expect(without).toEqual({ genuine: true, altered: false, check: { ok: true, uncheckable: undefined }, authenticated: true })
    expect(without).toEqual(withCrypto)
  })
})
