import { describe, expect, it } from 'vitest'
import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '../../src/core/bytes.js'
import { InvalidInputError } from '../../src/core/errors.js'
import { derivedValue } from '../../src/rest/derived.js'
import { AbortedError, AuthError, FallbackError, InvalidResponseError, ServerError, SignatureError, UnknownSourceError } from '../../src/rest/errors.js'
import { beaconFallbackFrom, type BeaconFallback, type BeaconValues } from '../../src/rest/fallback.js'
import { type SourceName } from '../../src/rest/client.js'
import { recordObject, rejection, useHarness, type Harness } from './helpers.js'

let h: Harness
useHarness((started) => (h = started))

function sentSrc(i = -1): string[] {
  const reqs = h.trngRequests()
  const r = reqs[i < 0 ? reqs.length + i : i]!
  return new URL(r.url).searchParams.getAll('src')
}

describe('src order', () => {
  it('sends no src when none is given, so the server default (satellite, derived) applies', async () => {
    const v = await h.client().random()
    expect(new URL(h.trngRequests()[0]!.url).search).toBe('')
    expect(h.service.stats().lastSrc).toEqual([])
    expect(v.source).toBe('satellite')
    expect(v.src).toBe('vendororbital')
    expect(v.data).toBeInstanceOf(Uint8Array)
    expect(v.data).toHaveLength(32)
    expect(v.hex).toBe(bytesToHex(v.data))
    expect(v.response).toEqual({ service: 'trng', src: 'vendororbital', data: v.hex, signature: v.signature })
    expect(v.signatureVerified).toBe(false)
  })

  it('an empty list sends no src', async () => {
    await h.client().random({ src: [] })
    expect(sentSrc()).toEqual([])
  })

  const cases: { src: SourceName | SourceName[]; sent: string[]; source: 'satellite' | 'derived' }[] = [
    { src: 'satellite', sent: ['vendororbital'], source: 'satellite' },
    { src: 'vendororbital', sent: ['vendororbital'], source: 'satellite' },
    { src: 'derived', sent: ['derived'], source: 'derived' },
    { src: ['satellite'], sent: ['vendororbital'], source: 'satellite' },
    { src: ['derived'], sent: ['derived'], source: 'derived' },
    { src: ['satellite', 'derived'], sent: ['vendororbital', 'derived'], source: 'satellite' },
    { src: ['derived', 'satellite'], sent: ['derived', 'vendororbital'], source: 'derived' },
    { src: ['vendororbital', 'derived'], sent: ['vendororbital', 'derived'], source: 'satellite' },
    { src: ['derived', 'aptosorbital'], sent: ['derived', 'vendororbital'], source: 'derived' },
  ]
  for (const c of cases) {
    it(`src ${JSON.stringify(c.src)} is sent as ${c.sent.map((s) => `src=${s}`).join('&')} in that order`, async () => {
      const v = await h.client().random({ src: c.src })
      expect(sentSrc()).toEqual(c.sent)
      expect(h.trngRequests()[0]!.url).toContain(`?${c.sent.map((s) => `src=${s}`).join('&')}`)
      expect(v.source).toBe(c.source)
    })
  }

  it('the satellite wire name is configurable (aptosorbital) and accepted in responses', async () => {
    const c = h.client({ satelliteSourceName: 'aptosorbital' })
    const v = await c.random({ src: ['satellite', 'derived'] })
    expect(sentSrc()).toEqual(['aptosorbital', 'derived'])
    expect(v.src).toBe('aptosorbital')
    expect(v.source).toBe('satellite')
    const w = await c.random({ src: ['derived', 'vendororbital'] })
    expect(sentSrc()).toEqual(['derived', 'aptosorbital'])
    expect(w.source).toBe('derived')
  })

  it('rejects unknown source names before sending anything', async () => {
    const c = h.client()
    for (const bad of ['trng', 'rng', 'mixed', 'DERIVED', '', 'satellite ']) {
      const err = (await rejection(c.random({ src: ['derived', bad as SourceName] }))) as UnknownSourceError
      expect(err).toBeInstanceOf(UnknownSourceError)
      expect(err.code).toBe('ORBITPORT_UNKNOWN_SOURCE')
      expect(err.path).toBe('$.src[1]')
      expect(err.source).toBe(bad)
    }
    expect(await rejection(c.random({ src: 42 as unknown as SourceName }))).toBeInstanceOf(UnknownSourceError)
    const dup = (await rejection(c.random({ src: ['satellite', 'vendororbital'] }))) as InvalidInputError
    expect(dup).toBeInstanceOf(InvalidInputError)
    expect(dup.code).toBe('ORBITPORT_DUPLICATE_SOURCE')
    expect(h.requests).toHaveLength(0)
  })

  it('rejects an unknown configured satellite name at construction', () => {
    expect(() => h.client({ satelliteSourceName: 'trng' as 'vendororbital' })).toThrow(UnknownSourceError)
  })
})

describe('satellite outage', () => {
  it('the default order falls back to derived', async () => {
    h.service.setSatelliteOutage(true)
    const v = await h.client().random()
    expect(v.source).toBe('derived')
    expect(v.src).toBe('derived')
    expect(v.hex).toBe(bytesToHex(derivedValue(h.service.derivedSeed, 0)))
  })

  it('[satellite, derived] falls back to derived; [derived, satellite] uses derived anyway', async () => {
    h.service.setSatelliteOutage(true)
    const c = h.client()
    expect((await c.random({ src: ['satellite', 'derived'] })).source).toBe('derived')
    expect((await c.random({ src: ['derived', 'satellite'] })).source).toBe('derived')
    h.service.setSatelliteOutage(false)
    expect((await c.random({ src: ['satellite', 'derived'] })).source).toBe('satellite')
  })

  it('satellite only during an outage is a ServerError carrying the server message', async () => {
    h.service.setSatelliteOutage(true)
    const err = (await rejection(h.client({ retry: { retries: 0 } }).random({ src: 'satellite' }))) as ServerError
    expect(err).toBeInstanceOf(ServerError)
    expect(err.status).toBe(500)
    expect(err.serverMessage).toBe('no source available: the satellites did not respond')
    expect(err.message).toContain('the satellites did not respond')
  })
})

describe('response validation', () => {
  const good = { service: 'trng', src: 'vendororbital', data: 'ab'.repeat(32), signature: { value: '3044', pk: '' } }
  const bad: { name: string; body: unknown; path: string }[] = [
    { name: 'not JSON', body: '{"service": "trng",', path: '$' },
    { name: 'an array', body: [good], path: '$' },
    { name: 'wrong service', body: { ...good, service: 'rng' }, path: '$.service' },
    { name: 'missing service', body: { ...good, service: undefined }, path: '$.service' },
    { name: 'unknown src', body: { ...good, src: 'trng' }, path: '$.src' },
    { name: 'src not a string', body: { ...good, src: 1 }, path: '$.src' },
    { name: 'data 63 hex chars', body: { ...good, data: 'a'.repeat(63) }, path: '$.data' },
    { name: 'data 66 hex chars', body: { ...good, data: 'a'.repeat(66) }, path: '$.data' },
    { name: 'data not hex', body: { ...good, data: 'g'.repeat(64) }, path: '$.data' },
    { name: 'data 0x-prefixed', body: { ...good, data: `0x${'a'.repeat(62)}` }, path: '$.data' },
    { name: 'signature a string', body: { ...good, signature: '3044' }, path: '$.signature' },
    { name: 'signature an array', body: { ...good, signature: ['3044'] }, path: '$.signature' },
    { name: 'algo a number', body: { ...good, algo: 1 }, path: '$.algo' },
    { name: 'signature.algo an object', body: { ...good, signature: { value: '30', pk: '', algo: {} } }, path: '$.signature.algo' },
    { name: 'signature.value missing', body: { ...good, signature: { pk: '' } }, path: '$.signature.value' },
    { name: 'signature.value not hex', body: { ...good, signature: { value: 'xyz', pk: '' } }, path: '$.signature.value' },
    { name: 'signature.pk a number', body: { ...good, signature: { value: '30', pk: 5 } }, path: '$.signature.pk' },
  ]
  for (const b of bad) {
    it(`rejects ${b.name} with InvalidResponseError at ${b.path}`, async () => {
      h.service.injectFault('trng', { status: 200, body: b.body })
      const err = (await rejection(h.client().random())) as InvalidResponseError
      expect(err).toBeInstanceOf(InvalidResponseError)
      expect(err.code).toBe('ORBITPORT_INVALID_RESPONSE')
      expect(err.path).toBe(b.path)
      expect(h.trngRequests()).toHaveLength(1) // not retried
    })
  }

  it('rejects a src the caller did not ask for', async () => {
    h.service.injectFault('trng', { status: 200, body: { ...good, src: 'vendororbital' } })
    const err = (await rejection(h.client().random({ src: 'derived' }))) as InvalidResponseError
    expect(err.path).toBe('$.src')
  })

  it('accepts aptosorbital, uppercase hex, an absent or filled pk, and extra fields', async () => {
    h.service.injectFault('trng', { status: 200, body: { ...good, src: 'aptosorbital', data: 'AB'.repeat(32), extra: 1, signature: { value: '3044' } } })
    const v = await h.client().random({ src: 'satellite' })
    expect(v.source).toBe('satellite')
    expect(v.hex).toBe('ab'.repeat(32))
    expect(v.signature).toEqual({ value: '3044', pk: '' })
    h.service.injectFault('trng', { status: 200, body: { ...good, signature: { value: '3044', pk: '02'.repeat(33) } } })
    expect((await h.client().random()).signature!.pk).toBe('02'.repeat(33))
  })

  it('rejects an oversized body', async () => {
    h.service.injectFault('trng', { status: 200, body: { ...good, padding: 'x'.repeat(100_000) } })
    const err = (await rejection(h.client().random())) as InvalidResponseError
    expect(err).toBeInstanceOf(InvalidResponseError)
    expect(err.message).toContain('limit')
  })
})

class FakeBeacon implements BeaconFallback {
  calls = 0
  fail: unknown = undefined
  block: BeaconValues = {
    values: [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2), new Uint8Array(32).fill(3)],
    sequence: 4242,
    cid: 'bafkreifakecidforthetestblock',
    authenticated: true,
  }
  async latestValues(signal?: AbortSignal): Promise<BeaconValues> {
    this.calls++
    signal?.throwIfAborted()
    if (this.fail !== undefined) throw this.fail
    return this.block
  }
}

describe('beacon fallback', () => {
  it('is used when the endpoint fails, clearly labelled, each value once', async () => {
    const beacon = new FakeBeacon()
    h.service.inject500('satellite link down')
    const c = h.client({ beaconFallback: beacon, retry: { retries: 1, baseDelayMs: 1 } })
    const a = await c.random()
    recordObject(a)
    expect(a.source).toBe('beacon')
    expect(a.src).toBe('beacon')
    expect(a.signature).toBeUndefined()
    expect(a.signatureVerified).toBe(false)
    expect(a.beacon).toEqual({ sequence: 4242, cid: 'bafkreifakecidforthetestblock', index: 0, authenticated: true })
    expect(a.fallbackReason!.code).toBe('ORBITPORT_SERVER_ERROR')
    expect(a.fallbackReason!.message).toContain('satellite link down')
    expect(a.hex).toBe('01'.repeat(32))
    expect(h.trngRequests()).toHaveLength(2) // retried once first
    const b = await c.random()
    const d = await c.random()
    expect([b.beacon!.index, d.beacon!.index]).toEqual([1, 2])
    expect(d.hex).toBe('03'.repeat(32))
    // all three values of the block used: a FallbackError, never a repeated value
    const err = (await rejection(c.random())) as FallbackError
    expect(err).toBeInstanceOf(FallbackError)
    expect(err.endpointError).toBeInstanceOf(ServerError)
    expect(err.message).toContain('ORBITPORT_BEACON_EXHAUSTED')
    // a new block makes values available again
    beacon.block = { ...beacon.block, sequence: 4243, cid: 'bafkreinextblock' }
    expect((await c.random()).beacon).toMatchObject({ sequence: 4243, index: 0 })
  })

  it('is not used when the endpoint works, when disabled per call, or for auth and signature errors', async () => {
    const beacon = new FakeBeacon()
    const c = h.client({ beaconFallback: beacon })
    expect((await c.random()).source).toBe('satellite')
    h.service.inject500('down')
    expect(await rejection(c.random({ fallback: false }))).toBeInstanceOf(ServerError)
    h.service.inject500(null)
    h.service.injectFault('trng', { status: 401 }, 2)
    expect(await rejection(c.random())).toBeInstanceOf(AuthError)
    const wrongKey = h.client({ beaconFallback: beacon, verify: { publicKey: p256.getPublicKey(p256.utils.randomSecretKey()) } })
    expect(await rejection(wrongKey.random())).toBeInstanceOf(SignatureError)
    expect(beacon.calls).toBe(0)
  })

  it('reports both errors when the beacon fails too', async () => {
    const beacon = new FakeBeacon()
    beacon.fail = new Error('gateway unreachable')
    h.service.inject500('down')
    const err = (await rejection(h.client({ beaconFallback: beacon, retry: { retries: 0 } }).random())) as FallbackError
    expect(err).toBeInstanceOf(FallbackError)
    expect(err.code).toBe('ORBITPORT_FALLBACK_FAILED')
    expect(err.message).toContain('gateway unreachable')
    expect(err.message).toContain('down')
  })

  it('rejects malformed fallback values', async () => {
    const beacon = new FakeBeacon()
    beacon.block = { ...beacon.block, values: [new Uint8Array(31)] }
    h.service.inject500('down')
    const err = (await rejection(h.client({ beaconFallback: beacon, retry: { retries: 0 } }).random())) as FallbackError
    expect(err).toBeInstanceOf(FallbackError)
    expect(err.message).toContain('32 bytes')
  })

  it('a custom fallbackOn decides', async () => {
    const beacon = new FakeBeacon()
    h.service.injectFault('trng', { status: 401 }, 2)
    const v = await h.client({ beaconFallback: beacon, fallbackOn: (e) => e instanceof AuthError }).random()
    expect(v.source).toBe('beacon')
  })

  it('beaconFallbackFrom adapts a beacon client head', async () => {
    const head = { block: { cid: 'bafkreiadapted', sequence: 77, values: [new Uint8Array(32).fill(7)] }, authenticated: true }
    let gotSignal: AbortSignal | undefined
    const fallback = beaconFallbackFrom({
      latest: async (o) => {
        gotSignal = o?.signal
        return head
      },
    })
    h.service.inject500('down')
    const ctl = new AbortController()
    const v = await h.client({ beaconFallback: fallback, retry: { retries: 0 } }).random({ signal: ctl.signal })
    expect(v.source).toBe('beacon')
    expect(v.beacon).toEqual({ sequence: 77, cid: 'bafkreiadapted', index: 0, authenticated: true })
    expect(v.hex).toBe('07'.repeat(32))
    expect(gotSignal).toBe(ctl.signal)
  })

  it('an abort is never turned into a fallback', async () => {
    const beacon = new FakeBeacon()
    h.service.injectFault('trng', { passThrough: true, delayMs: 2000 })
    const ctl = new AbortController()
    const p = h.client({ beaconFallback: beacon }).random({ signal: ctl.signal })
    setTimeout(() => ctl.abort(), 50)
    expect(await rejection(p)).toBeInstanceOf(AbortedError)
    expect(beacon.calls).toBe(0)
  })
})
