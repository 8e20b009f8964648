/**
 * The real service's formats (beacon-facts, "Authenticated REST endpoint"): unsigned values
 * (`signature` null or absent) are normal unless the caller requires a signature; `algo` and `bulk`
 * are accepted; the gateway's JSON error bodies map to typed errors carrying the server's code.
 *
 * Fixtures in test/rest/fixtures/ are in the real shapes. The error codes and statuses are the
 * gateway's; the `message` texts are illustrative (the service's own wording is not published).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { hexToBytes } from '../../src/core/bytes.js'
import { InvalidInputError } from '../../src/core/errors.js'
import { GATEWAY_ERROR_STATUS, gatewayError, type GatewayErrorCode } from '../../src/emulator/rest.js'
import { AuthError, InsufficientCreditsError, ServerError, ServiceNotFoundError, SignatureError, UnsignedValueError } from '../../src/rest/errors.js'
import { defaultFallbackOn } from '../../src/rest/fallback.js'
import { RateLimitedError } from '../../src/net/errors.js'
import { rejection, SECRET, startHarness, useHarness, thrown, type Harness } from './helpers.js'

const fixture = (name: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>
const guideKey = fixture('ctrng-signed-guide.key.json') as { publicKey: string }
const errors = JSON.parse(readFileSync(new URL('./fixtures/errors.json', import.meta.url), 'utf8')) as { status: number; body: { error: string; message?: string } }[]

let h: Harness
useHarness((started) => (h = started))

describe('unsigned values', () => {
  for (const name of ['ctrng-unsigned-null.json', 'ctrng-unsigned-absent.json']) {
    it(`${name}: an unsigned value, not an invalid response`, async () => {
      const body = fixture(name)
      h.service.injectFault('trng', { status: 200, body })
      const v = await h.client().random()
      expect(v.hex).toBe(body.data)
      expect(v.signature).toBeUndefined()
      expect(v.signatureVerified).toBe(false)
      expect(v.response).toEqual({ service: 'trng', src: body.src, data: body.data })
    })

    it(`${name}: UnsignedValueError when a signature is required (verify set), not retried, no fallback`, async () => {
      h.service.injectFault('trng', { status: 200, body: fixture(name) })
      const fallback = { latestValues: () => Promise.reject(new Error('must not be used')) }
      const err = (await rejection(h.client({ verify: { publicKey: guideKey.publicKey }, beaconFallback: fallback }).random())) as UnsignedValueError
      expect(err).toBeInstanceOf(UnsignedValueError)
      expect(err).toBeInstanceOf(SignatureError) // the CLI maps it to "verification failed"
      expect(err.code).toBe('ORBITPORT_UNSIGNED_VALUE')
      expect(err.hint).toContain('requireSignature')
      expect(h.trngRequests()).toHaveLength(1)
      expect(defaultFallbackOn(err)).toBe(false)
    })
  }

  it('requireSignature: false with verify accepts unsigned values and still checks signed ones', async () => {
    h.service.injectFault('trng', { status: 200, body: fixture('ctrng-unsigned-null.json') })
    h.service.injectFault('trng', { status: 200, body: fixture('ctrng-signed-guide.json') })
    h.service.injectFault('trng', { status: 200, body: { ...fixture('ctrng-signed-guide.json'), data: 'cd'.repeat(32) } })
    const c = h.client({ verify: { publicKey: guideKey.publicKey }, requireSignature: false })
    expect((await c.random()).signatureVerified).toBe(false)
    const signed = await c.random()
    expect(signed.signatureVerified).toBe(true)
    expect(signed.verifiedBy).toBe(guideKey.publicKey)
    expect(await rejection(c.random())).toBeInstanceOf(SignatureError)
  })

  it('requireSignature without verify is a typed input error (an unchecked signature proves nothing)', () => {
    const err = thrown(() => h.client({ requireSignature: true })) as InvalidInputError
    expect(err).toBeInstanceOf(InvalidInputError)
    expect(err.path).toBe('$.requireSignature')
  })

  it('the emulator serves unsigned values in both shapes', async () => {
    for (const mode of ['null', 'absent'] as const) {
      h.service.setSignatureMode(mode)
      const v = await h.client().random()
      expect(v.signature).toBeUndefined()
      expect(v.data).toHaveLength(32)
    }
    h.service.setSignatureMode('signed')
    expect((await h.client({ verify: { publicKey: h.service.publicKey } }).random()).signatureVerified).toBe(true)
  })
})

describe('extra fields', () => {
  it('the user guide shape (DER, high S, pk "", algo "") verifies under the signer key; algo is kept', async () => {
    h.service.injectFault('trng', { status: 200, body: fixture('ctrng-signed-guide.json') })
    const v = await h.client({ verify: { publicKey: guideKey.publicKey } }).random()
    expect(v.signatureVerified).toBe(true)
    expect(v.response?.algo).toBe('')
    expect(v.signature?.pk).toBe('')
  })

  it('bulk is accepted and not handed out (its element format is unpublished)', async () => {
    const body = fixture('ctrng-bulk.json')
    h.service.injectFault('trng', { status: 200, body })
    const v = await h.client().random()
    expect(v.hex).toBe(body.data)
    expect(v.data).toEqual(hexToBytes(body.data as string))
    expect('bulk' in v).toBe(false)
    expect(v.response && 'bulk' in v.response).toBe(false)
  })

  it('a key repeated in one object is refused, not resolved (fuzzing pass 3: the last "data" won)', async () => {
    const data = 'ab'.repeat(32)
    h.service.injectFault('trng', { status: 200, body: `{"service":"trng","src":"derived","data":"${'00'.repeat(32)}","data":"${data}"}` })
    const err = (await rejection(h.client({ retry: { retries: 0 } }).random())) as InvalidInputError
    expect(err.code).toBe('ORBITPORT_INVALID_RESPONSE')
    expect(err.path).toBe('$.data')
    expect(err.message).toContain('the key "data" twice')
    h.service.injectFault('token', { status: 200, body: '{"access_token":"tok-one","access_token":"tok-two","expires_in":3600}' })
    expect(((await rejection(h.client().random())) as InvalidInputError).path).toBe('$.access_token')
  })

  it("bodies are read by the core's JSON reader: its words kept for syntax and duplicates, its limits on nesting and members", async () => {
    const trng = `${h.server.url}/api/v1/services/trng`
    const value = `"service":"trng","src":"derived","data":"${'ab'.repeat(32)}"`
    const refusal = async (body: string): Promise<InvalidInputError> => {
      h.service.injectFault('trng', { status: 200, body })
      return (await rejection(h.client({ retry: { retries: 0 } }).random())) as InvalidInputError
    }
    // The messages users saw before: no engine text quoting the body, the key escaped.
    const syntax = await refusal(`{${value},}`)
    expect([syntax.code, syntax.path, syntax.detail]).toEqual(['ORBITPORT_INVALID_RESPONSE', '$', `invalid response from ${trng}: the body is not valid JSON`])
    const twice = await refusal(`{${value},"\\u001b[2J":1,"\\u001b[2J":2}`)
    expect([twice.code, twice.path, twice.detail]).toEqual(['ORBITPORT_INVALID_RESPONSE', '$["\\u001b[2J"]', `invalid response from ${trng}: the body has the key "\\u001b[2J" twice in one object`])
    // New: an extra field nested 65 deep, or an object of 1,025 members, is refused before parsing, as in a proof.
    const deep = await refusal(`{${value},"x":${'['.repeat(64)}${']'.repeat(64)}}`)
    expect([deep.code, deep.path]).toEqual(['ORBITPORT_INVALID_RESPONSE', '$'])
    expect(deep.detail).toMatch(/: the body nests arrays and objects more than 64 deep \(character \d+\), over the limit maxJsonDepth = 64$/)
    const wide = await refusal(`{${value},${Array.from({ length: 1022 }, (_, i) => `"k${i}":0`).join(',')}}`)
    expect([wide.code, wide.path]).toEqual(['ORBITPORT_INVALID_RESPONSE', '$'])
    expect(wide.detail).toMatch(/: the body has an object of more than 1024 members \(character \d+\), over the limit maxObjectKeys = 1024$/)
    // The largest allowed are read: 64 deep and 1,024 members (3 of them the value's).
    const fields = `${value},"x":${'['.repeat(63)}${']'.repeat(63)},${Array.from({ length: 1020 }, (_, i) => `"k${i}":0`).join(',')}`
    h.service.injectFault('trng', { status: 200, body: `{${fields}}` })
    expect((await h.client().random()).hex).toBe('ab'.repeat(32))
    // The token endpoint's answer too.
    h.service.injectFault('token', { status: 200, body: `{"access_token":"emu-deep-0123456789abcdef","expires_in":3600,"x":${'['.repeat(64)}${']'.repeat(64)}}` })
    const token = (await rejection(h.client().random())) as InvalidInputError
    expect([token.code, token.path]).toEqual(['ORBITPORT_INVALID_RESPONSE', '$'])
    expect(token.detail).toMatch(/^invalid response from http:\/\/127\.0\.0\.1:\d+\/oauth\/token: the body nests arrays and objects more than 64 deep/)
  })

  it('the emulator adds extra fields to every value', async () => {
    await h.close()
    h = await startHarness({ extraFields: { algo: 'ecdsa-p256', bulk: [] } })
    const v = await h.client().random()
    expect(v.response?.algo).toBe('ecdsa-p256')
  })
})

describe("the gateway's error bodies", () => {
  const expected: Record<number, { cls: new (...a: never[]) => Error; code: string; retried: boolean }> = {
    401: { cls: AuthError, code: 'ORBITPORT_UNAUTHORIZED', retried: true }, // one token refresh
    402: { cls: InsufficientCreditsError, code: 'ORBITPORT_INSUFFICIENT_CREDITS', retried: false },
    403: { cls: AuthError, code: 'ORBITPORT_UNAUTHORIZED', retried: true },
    404: { cls: ServiceNotFoundError, code: 'ORBITPORT_SERVICE_NOT_FOUND', retried: false },
    429: { cls: RateLimitedError, code: 'ORBITPORT_RATE_LIMITED', retried: true },
    500: { cls: ServerError, code: 'ORBITPORT_SERVER_ERROR', retried: true },
    503: { cls: ServerError, code: 'ORBITPORT_SERVER_ERROR', retried: true },
    504: { cls: ServerError, code: 'ORBITPORT_SERVER_ERROR', retried: true },
  }
  for (const { status, body } of errors) {
    it(`${status} ${body.error}: ${expected[status]!.cls.name} carrying the server's code`, async () => {
      h.service.injectFault('trng', { status, body }, 5)
      const err = (await rejection(h.client({ retry: { retries: 1, baseDelayMs: 1 } }).random())) as Error & { code: string; serverCode?: string; serverMessage?: string; status?: number; hint: string }
      const e = expected[status]!
      expect(err).toBeInstanceOf(e.cls)
      expect(err.code).toBe(e.code)
      expect(err.serverCode).toBe(body.error)
      expect(err.serverMessage).toBe(body.message)
      expect(err.message).toContain(body.error)
      expect(h.trngRequests()).toHaveLength(e.retried ? 2 : 1)
    })
  }

  it('gatewayError() answers each code with its status', async () => {
    for (const code of Object.keys(GATEWAY_ERROR_STATUS) as GatewayErrorCode[]) {
      h.service.injectFault('trng', gatewayError(code, 'x'), 3)
      const err = (await rejection(h.client({ retry: { retries: 0 } }).random())) as { serverCode?: string }
      expect(err.serverCode).toBe(code)
      h.service.reset()
    }
  })

  it('hints differ by server code where the remedy differs', async () => {
    h.service.injectFault('trng', gatewayError('trng_plugin_unavailable'), 3)
    const a = (await rejection(h.client({ retry: { retries: 0 } }).random())) as ServerError
    expect(a.hint).toContain('down')
    h.service.injectFault('trng', gatewayError('service_authorization_denied'), 3)
    const b = (await rejection(h.client().random())) as AuthError
    expect(b.hint).toContain('not authorized')
  })

  it('the emulator itself answers a revoked token with authentication_failed (and the client refreshes)', async () => {
    const c = h.client()
    await c.random()
    h.service.revokeTokens()
    const v = await c.random()
    expect(v.data).toHaveLength(32)
    expect(h.logs.some((l) => l.includes('authentication_failed'))).toBe(true)
  })

  it('server text is escaped and capped; a server code that is not a code is shown as text only', async () => {
    // eslint-disable-next-line no-control-regex
    const unsafe = /[\u0000-\u001f\u202e\u2028]/
    const evil = `\u001b[2J\u202egnp.exe \u2028${'x'.repeat(5000)}`
    h.service.injectFault('trng', { status: 500, body: { error: 'internal_error', message: evil } }, 3)
    const err = (await rejection(h.client({ retry: { retries: 0 } }).random())) as ServerError
    expect(err.serverMessage).not.toMatch(unsafe)
    expect(err.serverMessage).toContain('\\u001b')
    expect(err.serverMessage).toContain('\\u202e')
    expect(err.serverMessage!.length).toBeLessThan(360)
    expect(err.message).not.toMatch(unsafe)
    h.service.reset()
    h.service.injectFault('trng', { status: 500, body: { error: 'bad code <script>' } }, 3)
    const e2 = (await rejection(h.client({ retry: { retries: 0 } }).random())) as ServerError
    expect(e2.serverCode).toBeUndefined()
    expect(e2.serverMessage).toBe('bad code <script>')
  })

  it('a server message echoing the secret never shows it', async () => {
    h.service.injectFault('trng', { status: 500, body: { error: 'internal_error', message: `bad client ${SECRET}` } }, 3)
    const err = (await rejection(h.client({ retry: { retries: 0 } }).random())) as ServerError
    expect(err.serverMessage).toBe('bad client [REDACTED]')
  })
})
