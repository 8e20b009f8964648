/** The emulator's RFC 3161 authority (`POST /tsa`): answers, refusals, and faults scoped to the `tsa` route. */
import { AsnConvert, OctetString } from '@peculiar/asn1-schema'
import { MessageImprint, PKIFailureInfoFlags, PKIStatus, TimeStampReq, TimeStampResp } from '@peculiar/asn1-tsp'
import { AlgorithmIdentifier } from '@peculiar/asn1-x509'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/core/bytes.js'
import { bitString, decodeDer, sequence } from '../../src/core/timestamp/der.js'
import { parseTimestampToken } from '../../src/core/timestamp/token.js'
import { parseTrustAnchor } from '../../src/core/timestamp/anchor.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { referenceRejection } from './tsa-reference.js'

let emu: RunningEmulator
beforeAll(async () => {
  emu = await startEmulator({ beacon: { intervalMs: 60_000, keyType: 'Ed25519', initialBlocks: 2 } })
})
afterAll(async () => {
  await emu?.stop()
})

const query = (hashOid: string, length: number, nonce?: number): Uint8Array =>
  new Uint8Array(AsnConvert.serialize(new TimeStampReq({ version: 1, messageImprint: new MessageImprint({ hashAlgorithm: new AlgorithmIdentifier({ algorithm: hashOid }), hashedMessage: new OctetString(new Uint8Array(length).fill(7)) }), certReq: true, ...(nonce === undefined ? {} : { nonce: new Uint8Array([nonce]).buffer }) })))

/** The bit numbers set in a TimeStampResp's PKIFailureInfo. */
function failBits(resp: Uint8Array): number[] {
  const info = sequence(sequence(decodeDer(resp, 'resp'), 'resp', 'TimeStampResp')[0], 'resp.status', 'PKIStatusInfo')
  const { bytes } = bitString(info[2], 'resp.status.failInfo', 'failInfo')
  return [...Array(bytes.length * 8).keys()].filter((i) => (bytes[i >> 3]! & (0x80 >> (i & 7))) !== 0)
}

async function post(body: Uint8Array): Promise<{ status: number; type: string | null; bytes: Uint8Array; resp?: TimeStampResp }> {
  const res = await fetch(emu.tsaUrl, { method: 'POST', body: body as Uint8Array<ArrayBuffer>, headers: { 'content-type': 'application/timestamp-query' } })
  const bytes = new Uint8Array(await res.arrayBuffer())
  const type = res.headers.get('content-type')
  return { status: res.status, type, bytes, ...(type === 'application/timestamp-reply' ? { resp: AsnConvert.parse(bytes, TimeStampResp) } : {}) }
}

describe('emulator TSA', () => {
  it('exposes its URL and root; grants a token over the imprint, echoing the nonce, with its certificate', async () => {
    expect(emu.tsaUrl).toBe(`${emu.url}/tsa`)
    expect(parseTrustAnchor(emu.tsaRootPem).name).toBe('orbitdraw emulator TSA root')
    const r = await post(query('2.16.840.1.101.3.4.2.1', 32, 9))
    expect(r).toMatchObject({ status: 200, type: 'application/timestamp-reply' })
    expect(r.resp!.status.status).toBe(PKIStatus.granted)
    const token = parseTimestampToken(new Uint8Array(AsnConvert.serialize(r.resp!.timeStampToken!)))
    expect(token.tstInfo.imprint).toEqual(new Uint8Array(32).fill(7))
    expect(token.tstInfo.nonce).toBe(9n)
    expect(token.tstInfo.accuracyMicros).toBe(1_000_000)
    expect(token.certificates.map((c) => c.name)).toEqual(['orbitdraw emulator TSA'])
  })
  it('refuses a SHA-1 imprint (badAlg) and a body that is not a TimeStampReq (badDataFormat), as RFC 3161 rejections', async () => {
    const sha1 = await post(query('1.3.14.3.2.26', 20))
    expect(sha1.resp!.status.status).toBe(PKIStatus.rejection)
    expect(sha1.resp!.status.statusString?.join(' ')).toBe('only SHA-256 imprints are accepted')
    // The failInfo bits as RFC 3161 numbers them (badAlg 0, badDataFormat 5), read with the core's reader:
    // @peculiar/asn1-tsp's PKIFailureInfoFlags number every bit but badAlg one too low.
    expect(failBits(sha1.bytes)).toEqual([0])
    const junk = await post(new TextEncoder().encode('hello'))
    expect(junk.resp!.status.status).toBe(PKIStatus.rejection)
    expect(failBits(junk.bytes)).toEqual([5])
    // The same bytes as the @peculiar encoding the emulator used before (tsa-reference.ts), with the
    // failInfo bit RFC 3161 gives (@peculiar's flag for bit 5 is 32).
    expect(bytesToHex(sha1.bytes)).toBe(bytesToHex(referenceRejection(PKIFailureInfoFlags.badAlg, 'only SHA-256 imprints are accepted')))
    expect(bytesToHex(junk.bytes)).toBe(bytesToHex(referenceRejection(32 as PKIFailureInfoFlags, 'the body is not a DER TimeStampReq')))
    // Trailing bytes after a request, or a request with its fields out of order, are not a TimeStampReq either.
    const req = query('2.16.840.1.101.3.4.2.1', 32, 9)
    expect(failBits((await post(Uint8Array.from([...req, 0x05, 0x00]))).bytes)).toEqual([5])
    const swapped = new Uint8Array(AsnConvert.serialize(new TimeStampReq({ version: 1, messageImprint: new MessageImprint({ hashAlgorithm: new AlgorithmIdentifier({ algorithm: '2.16.840.1.101.3.4.2.1' }), hashedMessage: new OctetString(new Uint8Array(32)) }), certReq: true, nonce: new Uint8Array([9]).buffer })))
    const at = swapped.length - 6 // ... INTEGER 9, BOOLEAN TRUE: swap the two
    expect(bytesToHex(swapped.subarray(at))).toBe('020109' + '0101ff')
    swapped.set([0x01, 0x01, 0xff, 0x02, 0x01, 0x09], at)
    expect(failBits((await post(swapped)).bytes)).toEqual([5])
  })
  it('GET is 405', async () => {
    expect((await fetch(emu.tsaUrl)).status).toBe(405)
  })
  it('tsa faults apply to the tsa route only, and beacon-only faults never reach it', async () => {
    emu.faults.add('tsa', { kind: 'status', status: 500 }, { times: 1 })
    expect((await fetch(`${emu.url}/ipns/${emu.beaconName}`)).status).toBe(200)
    expect((await post(query('2.16.840.1.101.3.4.2.1', 32))).status).toBe(500)
    expect((await post(query('2.16.840.1.101.3.4.2.1', 32))).status).toBe(200)
    emu.faults.add('*', { kind: 'bad-signature' }, { times: 1 })
    expect((await fetch(`${emu.url}/ipns/${emu.beaconName}`)).status).toBe(200)
    expect(emu.faults.list()).toHaveLength(1) // not consumed by the beacon route
    emu.faults.clear()
  })
  it('clock-skew moves genTime by the given seconds, for one request', async () => {
    emu.faults.add('tsa', { kind: 'clock-skew', seconds: 7200 }, { times: 1 })
    const late = await post(query('2.16.840.1.101.3.4.2.1', 32))
    const t = parseTimestampToken(new Uint8Array(AsnConvert.serialize(late.resp!.timeStampToken!))).tstInfo.genTime
    expect(t - Date.now()).toBeGreaterThan(7000_000)
    const normal = await post(query('2.16.840.1.101.3.4.2.1', 32))
    const t2 = parseTimestampToken(new Uint8Array(AsnConvert.serialize(normal.resp!.timeStampToken!))).tstInfo.genTime
    expect(Math.abs(t2 - Date.now())).toBeLessThan(60_000)
  })
})
