/** timestampCommitment against the emulator's authority: success, every route fault, nonce mismatch, timeouts, abort. */
import { AsnConvert } from '@peculiar/asn1-schema'
import { PKIFreeText, PKIStatus, PKIStatusInfo, TimeStampReq, TimeStampResp } from '@peculiar/asn1-tsp'
import { ContentInfo } from '@peculiar/asn1-cms'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { checkCommitmentTime } from '../../src/core/timestamp/check.js'
import { parseTrustAnchor } from '../../src/core/timestamp/anchor.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { createTestTsa } from '../../src/emulator/tsa.js'
import { commitmentDigest, timestampCommitment } from '../../src/timestamp/client.js'
import { TimestampUnavailableError } from '../../src/timestamp/errors.js'
import { rejectedBy } from '../helpers/thrown.js'

let emu: RunningEmulator
let cid: string
const anchors = () => [parseTrustAnchor(emu.tsaRootPem)]

beforeAll(async () => {
  emu = await startEmulator({ beacon: { intervalMs: 60_000, keyType: 'Ed25519', initialBlocks: 2 } })
  const head = emu.beacon.head()
  cid = commit({ beacon: emu.beaconName, target: head.sequence + 10, after: { sequence: head.sequence, block: head.cid }, participants: ['a', 'b', 'c'], draw: { kind: 'pick', count: 1 } }).cid
})

afterAll(async () => {
  await emu?.stop()
})

const failureOf = (options: Parameters<typeof timestampCommitment>[1]): Promise<TimestampUnavailableError> => rejectedBy(timestampCommitment(cid, options), TimestampUnavailableError)

describe('timestampCommitment', () => {
  it('gets a valid token from the emulator: it stamps the digest inside the CID and checks offline', async () => {
    const { tokens, failures } = await timestampCommitment(cid, { authorities: [emu.tsaUrl], anchors: anchors() })
    expect(failures).toEqual([])
    expect(tokens).toHaveLength(1)
    expect(tokens[0]).toMatchObject({ authority: emu.tsaUrl, authorityName: 'orbitdraw emulator TSA' })
    expect(Buffer.from(tokens[0]!.token).toString('base64')).toBe(tokens[0]!.base64)
    const r = await checkCommitmentTime({ tokens: [tokens[0]!.token], digest: commitmentDigest(cid), deadline: Math.floor(Date.now() / 1000) + 60, anchors: anchors() })
    expect(r.status).toBe('ok')
  })

  const faults = [
    ['HTTP 500', { kind: 'status', status: 500 }, 'TIMESTAMP_HTTP_ERROR'],
    ['wrong imprint', { kind: 'wrong-imprint' }, 'TIMESTAMP_IMPRINT_MISMATCH'],
    ['bad signature', { kind: 'bad-signature' }, 'TIMESTAMP_BAD_SIGNATURE'],
    ['clock an hour late', { kind: 'clock-skew', seconds: 3600 }, 'TIMESTAMP_CLOCK_SKEW'],
    ['clock an hour early', { kind: 'clock-skew', seconds: -3600 }, 'TIMESTAMP_CLOCK_SKEW'],
    ['truncated reply', { kind: 'truncate' }, 'TIMESTAMP_BAD_REPLY'],
    ['altered reply', { kind: 'wrong-bytes', offset: 60 }, null],
  ] as const
  for (const [name, spec, code] of faults) {
    it(`fault ${name}: TIMESTAMP_UNAVAILABLE naming ${code ?? 'the problem'}, with the choice in the hint`, async () => {
      emu.faults.add('tsa', spec, { times: 1 })
      const err = await failureOf({ authorities: [emu.tsaUrl], anchors: anchors() })
      expect(err.code).toBe('TIMESTAMP_UNAVAILABLE')
      expect(err.failures).toHaveLength(1)
      if (code !== null) expect(err.failures[0]!.code).toBe(code)
      else expect(err.failures[0]!.code).toMatch(/^TIMESTAMP_/)
      expect(err.hint).toMatch(/retry.*another authority.*--no-timestamp/)
    })
  }

  it('a clock skew within the tolerance is accepted', async () => {
    emu.faults.add('tsa', { kind: 'clock-skew', seconds: 30 }, { times: 1 })
    expect((await timestampCommitment(cid, { authorities: [emu.tsaUrl], anchors: anchors() })).tokens).toHaveLength(1)
  })

  it('untrusted authority (default roots only): TIMESTAMP_UNTRUSTED', async () => {
    expect((await failureOf({ authorities: [emu.tsaUrl] })).failures[0]!.code).toBe('TIMESTAMP_UNTRUSTED')
  })

  it('keeps the valid tokens when one authority of two fails, and reports the other', async () => {
    const r = await timestampCommitment(cid, { authorities: [emu.tsaUrl, `${emu.url}/no-such-tsa`], anchors: anchors() })
    expect(r.tokens.map((t) => t.authority)).toEqual([emu.tsaUrl])
    expect(r.failures).toEqual([{ authority: `${emu.url}/no-such-tsa`, code: 'TIMESTAMP_HTTP_ERROR', detail: 'HTTP 404' }])
  })

  it('nonce mismatch (a replayed answer): TIMESTAMP_BAD_REPLY', async () => {
    // A fetch that answers with a valid token for the right imprint but another nonce.
    const tsa = createTestTsa()
    const replay: typeof fetch = async (_url, init) => {
      const req = AsnConvert.parse(new Uint8Array(init!.body as Uint8Array), TimeStampReq)
      const token = tsa.issue(new Uint8Array(req.messageImprint.hashedMessage.buffer), { nonce: 42n })
      const body = AsnConvert.serialize(new TimeStampResp({ status: new PKIStatusInfo({ status: PKIStatus.granted }), timeStampToken: AsnConvert.parse(token, ContentInfo) }))
      return new Response(body, { headers: { 'content-type': 'application/timestamp-reply' } })
    }
    const err = await failureOf({ authorities: ['http://tsa.invalid/'], fetch: replay, anchors: [parseTrustAnchor(tsa.rootPem)] })
    expect(err.failures[0]).toMatchObject({ code: 'TIMESTAMP_BAD_REPLY' })
    expect(err.failures[0]!.detail).toMatch(/nonce/)
  })

  it('the request is a DER TimeStampReq v1: SHA-256 of the CID digest, a nonce of 64+ bits, certReq true', async () => {
    let seen: TimeStampReq | undefined
    let headers: Headers | undefined
    const spy: typeof fetch = async (_url, init) => {
      seen = AsnConvert.parse(new Uint8Array(init!.body as Uint8Array), TimeStampReq)
      headers = new Headers(init!.headers)
      return new Response('no', { status: 503 })
    }
    await failureOf({ authorities: ['http://tsa.invalid/'], fetch: spy })
    expect(seen!.version).toBe(1)
    expect(seen!.messageImprint.hashAlgorithm.algorithm).toBe('2.16.840.1.101.3.4.2.1')
    expect(new Uint8Array(seen!.messageImprint.hashedMessage.buffer)).toEqual(commitmentDigest(cid))
    expect(seen!.nonce!.byteLength).toBeGreaterThanOrEqual(8)
    expect(seen!.certReq).toBe(true)
    expect(headers!.get('content-type')).toBe('application/timestamp-query')
  })

  it('a rejection status and a wrong content type are named', async () => {
    const rejecting: typeof fetch = async () => new Response(AsnConvert.serialize(new TimeStampResp({ status: new PKIStatusInfo({ status: PKIStatus.rejection }) })), { headers: { 'content-type': 'application/timestamp-reply' } })
    expect((await failureOf({ authorities: ['http://tsa.invalid/'], fetch: rejecting })).failures[0]).toMatchObject({ code: 'TIMESTAMP_REJECTED', detail: 'PKIStatus rejection' })
    const html: typeof fetch = async () => new Response('<html>', { headers: { 'content-type': 'text/html' } })
    expect((await failureOf({ authorities: ['http://tsa.invalid/'], fetch: html })).failures[0]!.code).toBe('TIMESTAMP_BAD_REPLY')
  })

  it('keeps the token as the authority sent it (its bytes, not a re-encoding), and reads the reply as strict DER', async () => {
    const tsa = createTestTsa()
    let sent: Uint8Array | undefined
    const answer = (wrap: (token: Uint8Array) => Uint8Array): typeof fetch => async (_url, init) => {
      const req = AsnConvert.parse(new Uint8Array(init!.body as Uint8Array), TimeStampReq)
      sent = tsa.issue(new Uint8Array(req.messageImprint.hashedMessage.buffer), { nonce: BigInt(`0x${Buffer.from(new Uint8Array(req.nonce!)).toString('hex')}`) })
      return new Response(wrap(sent) as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'application/timestamp-reply' } })
    }
    const granted = (token: Uint8Array): Uint8Array => new Uint8Array(AsnConvert.serialize(new TimeStampResp({ status: new PKIStatusInfo({ status: PKIStatus.granted }), timeStampToken: AsnConvert.parse(token, ContentInfo) })))
    const { tokens } = await timestampCommitment(cid, { authorities: ['http://tsa.invalid/'], fetch: answer(granted), anchors: [parseTrustAnchor(tsa.rootPem)] })
    expect(tokens[0]!.token).toEqual(sent)
    // A reply with a byte after it, or its token in a non-DER length form, is not a DER TimeStampResp.
    const trailing = await failureOf({ authorities: ['http://tsa.invalid/'], fetch: answer((t) => Uint8Array.from([...granted(t), 0])), anchors: [parseTrustAnchor(tsa.rootPem)] })
    expect(trailing.failures[0]).toMatchObject({ code: 'TIMESTAMP_BAD_REPLY', detail: 'the reply is not a DER TimeStampResp' })
    const longLength = (t: Uint8Array): Uint8Array => {
      const status = new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00])
      const body = [...status, ...t]
      // Length in four octets where two would do: BER, not DER.
      return Uint8Array.from([0x30, 0x84, (body.length >>> 24) & 0xff, (body.length >>> 16) & 0xff, (body.length >>> 8) & 0xff, body.length & 0xff, ...body])
    }
    expect((await failureOf({ authorities: ['http://tsa.invalid/'], fetch: answer(longLength), anchors: [parseTrustAnchor(tsa.rootPem)] })).failures[0]!.code).toBe('TIMESTAMP_BAD_REPLY')
  })

  it('a rejection\'s status text is in the failure', async () => {
    const rejecting: typeof fetch = async () => new Response(AsnConvert.serialize(new TimeStampResp({ status: new PKIStatusInfo({ status: PKIStatus.waiting, statusString: new PKIFreeText(['busy', 'try later']) }) })), { headers: { 'content-type': 'application/timestamp-reply' } })
    expect((await failureOf({ authorities: ['http://tsa.invalid/'], fetch: rejecting })).failures[0]).toMatchObject({ code: 'TIMESTAMP_REJECTED', detail: 'PKIStatus waiting: busy try later' })
    const granted: typeof fetch = async () => new Response(AsnConvert.serialize(new TimeStampResp({ status: new PKIStatusInfo({ status: PKIStatus.granted }) })), { headers: { 'content-type': 'application/timestamp-reply' } })
    expect((await failureOf({ authorities: ['http://tsa.invalid/'], fetch: granted })).failures[0]).toMatchObject({ code: 'TIMESTAMP_BAD_REPLY', detail: 'granted, but no token in the reply' })
  })

  it("a rejection's status text is escaped and capped: no terminal controls, bidi overrides or line breaks (fuzzing pass 3)", async () => {
    const hostile = '\u001b[2J\u001b[HVERIFIED \u202eevil\r\nFAKE LINE'
    const rejecting = (text: string): typeof fetch => async () => new Response(AsnConvert.serialize(new TimeStampResp({ status: new PKIStatusInfo({ status: PKIStatus.rejection, statusString: new PKIFreeText([text]) }) })), { headers: { 'content-type': 'application/timestamp-reply' } })
    const err = await failureOf({ authorities: ['http://tsa.invalid/'], fetch: rejecting(hostile) })
    expect(err.failures[0]).toMatchObject({ code: 'TIMESTAMP_REJECTED', detail: 'PKIStatus rejection: \\u001b[2J\\u001b[HVERIFIED \\u202eevil\\u000d\\u000aFAKE LINE' })
    // eslint-disable-next-line no-control-regex
    expect(err.message).not.toMatch(/[\u0000-\u001f\u202e]/)
    const long = await failureOf({ authorities: ['http://tsa.invalid/'], fetch: rejecting('A'.repeat(50_000)) })
    expect(long.failures[0]!.detail.length).toBeLessThan(400)
  })

  it("a wrong content type is named escaped and capped (fuzzing pass 3: C1 controls pass HTTP parsers)", async () => {
    const odd: typeof fetch = async () => new Response('<html>', { headers: { 'content-type': `text/html\u009b31m${'a'.repeat(5000)}` } })
    const detail = (await failureOf({ authorities: ['http://tsa.invalid/'], fetch: odd })).failures[0]!.detail
    expect(detail).toMatch(/^content type "text\/html\\u009b31maaa/)
    expect(detail).not.toMatch(/\u009b/)
    expect(detail.length).toBeLessThan(300)
  })

  it('times out per request (TIMESTAMP_TIMEOUT) and stops at once on abort (ABORTED)', async () => {
    emu.faults.add('tsa', { kind: 'hang' }, { times: 1 })
    expect((await failureOf({ authorities: [emu.tsaUrl], anchors: anchors(), timeoutMs: 100 })).failures[0]!.code).toBe('TIMESTAMP_TIMEOUT')
    emu.faults.add('tsa', { kind: 'hang' }, { times: 1 })
    const controller = new AbortController()
    const p = timestampCommitment(cid, { authorities: [emu.tsaUrl], anchors: anchors(), signal: controller.signal })
    controller.abort()
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' })
  })

  describe('redirects: followed within the authority\'s origin only, as on every edge', () => {
    // An emulator of their own: a request of an earlier test (the aborted one of the abort test) may
    // still reach the shared authority late and take a fault or count as a request.
    let tsa: RunningEmulator
    let other: RunningEmulator
    const own = () => [parseTrustAnchor(tsa.tsaRootPem)]
    beforeAll(async () => {
      tsa = await startEmulator({ beacon: { intervalMs: 60_000, keyType: 'Ed25519', initialBlocks: 1 } })
      other = await startEmulator({ beacon: { intervalMs: 60_000, keyType: 'Ed25519', initialBlocks: 1 } })
    })
    afterAll(async () => {
      await tsa?.stop()
      await other?.stop()
    })
    beforeEach(() => tsa.faults.clear())

    it('a same-origin 307 is followed (the POST repeated with its body) and the token kept', async () => {
      const before = tsa.tsa.requests
      tsa.faults.add('tsa', { kind: 'redirect', to: tsa.url, status: 307 }, { times: 1 })
      const { tokens, failures } = await timestampCommitment(cid, { authorities: [tsa.tsaUrl], anchors: own() })
      expect(failures).toEqual([])
      expect(tokens).toHaveLength(1)
      expect(tsa.tsa.requests - before).toBe(2)
    })

    it('a redirect to another origin is refused (TIMESTAMP_REDIRECT_REFUSED, cross-origin) and never requested', async () => {
      tsa.faults.add('tsa', { kind: 'redirect', to: other.url, status: 307 }, { times: 1 })
      const err = await failureOf({ authorities: [tsa.tsaUrl], anchors: [...own(), parseTrustAnchor(other.tsaRootPem)] })
      expect(err.failures).toHaveLength(1)
      expect(err.failures[0]).toMatchObject({ authority: tsa.tsaUrl, code: 'TIMESTAMP_REDIRECT_REFUSED', redirect: 'cross-origin' })
      expect(err.failures[0]!.detail).toContain(new URL(other.url).origin)
      expect(err.message).toContain('TIMESTAMP_REDIRECT_REFUSED')
      expect(other.tsa.requests).toBe(0)
    })

    it('a same-origin 302 is refused (method-change: it would turn the POST into a GET without its body)', async () => {
      const before = tsa.tsa.requests
      tsa.faults.add('tsa', { kind: 'redirect', to: tsa.url, status: 302 }, { times: 1 })
      const err = await failureOf({ authorities: [tsa.tsaUrl], anchors: own() })
      expect(err.failures[0]).toMatchObject({ code: 'TIMESTAMP_REDIRECT_REFUSED', redirect: 'method-change' })
      expect(tsa.tsa.requests - before).toBe(1)
    })

    it('a same-origin redirect loop stops after 3 hops (too-many)', async () => {
      const before = tsa.tsa.requests
      tsa.faults.add('tsa', { kind: 'redirect', to: tsa.url, status: 308 }, { times: 10 })
      try {
        const err = await failureOf({ authorities: [tsa.tsaUrl], anchors: own() })
        expect(err.failures[0]).toMatchObject({ code: 'TIMESTAMP_REDIRECT_REFUSED', redirect: 'too-many' })
        expect(tsa.tsa.requests - before).toBe(4)
      } finally {
        tsa.faults.clear()
      }
    })

    it('a fetch that follows redirects by itself to another origin is refused too', async () => {
      const following: typeof fetch = async () => {
        const res = new Response('x', { headers: { 'content-type': 'application/timestamp-reply' } })
        Object.defineProperty(res, 'redirected', { value: true })
        Object.defineProperty(res, 'url', { value: 'http://elsewhere.invalid/tsa' })
        return res
      }
      const err = await failureOf({ authorities: ['http://tsa.invalid/'], fetch: following })
      expect(err.failures[0]).toMatchObject({ code: 'TIMESTAMP_REDIRECT_REFUSED', redirect: 'cross-origin' })
    })
  })

  it('bad arguments are InvalidInputError', async () => {
    await expect(timestampCommitment('not-a-cid')).rejects.toMatchObject({ code: 'INVALID_CID' })
    await expect(timestampCommitment(cid, { authorities: [] })).rejects.toMatchObject({ code: 'INVALID_OPTION' })
    await expect(timestampCommitment(cid, { authorities: ['ftp://x'] })).rejects.toMatchObject({ code: 'INVALID_OPTION' })
  })
})
