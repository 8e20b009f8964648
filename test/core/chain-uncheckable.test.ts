import { generateKeyPair } from '@libp2p/crypto/keys'
import { createIPNSRecord, marshalIPNSRecord } from 'ipns'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { checkChain } from '../../src/core/chain.js'
import { ipnsNameOfKey, parseIpnsRecord, checkRecordSignature } from '../../src/core/ipns/index.js'
import { buildChain } from '../helpers/chain.js'

// A browser page served over plain http has no crypto.subtle: an RSA record cannot be checked there.
// That must read "not checked", never "forged".
describe('RSA record signature on a host without Web Crypto', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('fails ipns-record-signature as "not checked", and passes again when Web Crypto is back', async () => {
    const key = await generateKeyPair('RSA', 2048)
    const name = ipnsNameOfKey(key.publicKey)
    const chain = buildChain(4, 'uncheckable')
    const head = chain[3]!
    const record = marshalIPNSRecord(await createIPNSRecord(key, `/ipfs/${head.cid}`, 1n, 3_600_000))
    const input = { beacon: name, target: 3, after: { sequence: 2, block: chain[2]!.cid }, blocks: [head, chain[2]!], ipnsRecord: record }

    vi.stubGlobal('crypto', {})
    await expect(checkRecordSignature(parseIpnsRecord(record), key.publicKey)).rejects.toMatchObject({ code: 'SIGNATURE_UNCHECKABLE' })
    const without = await checkChain(input)
    const sig = without.checks.find((c) => c.name === 'ipns-record-signature')!
    expect(sig.ok).toBe(false)
    expect(sig.detail).toMatch(/^could not be checked on this host: .*Web Crypto/)
    expect(sig.uncheckable).toBe(true)
    expect(sig.detail).not.toMatch(/forged/)
    expect(without.authenticated).toBe(false)

    vi.unstubAllGlobals()
    const withCrypto = await checkChain(input)
    expect(withCrypto.checks.find((c) => c.name === 'ipns-record-signature')!.ok).toBe(true)
    expect(withCrypto.authenticated).toBe(true)
  })
})
