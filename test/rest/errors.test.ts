import { describe, expect, it } from 'vitest'
import { InvalidInputError, OrbitdrawError } from '../../src/core/errors.js'
import { AbortedError, AuthError, BrowserSecretError, FallbackError, InvalidResponseError, RedirectError, ServerError, SignatureError, TokenError, UnknownSourceError } from '../../src/rest/errors.js'
import { NetworkError, RateLimitedError, TimeoutError } from '../../src/net/errors.js'
import { OrbitportClient } from '../../src/rest/client.js'
import { defaultFallbackOn } from '../../src/rest/fallback.js'
import { parseRetryAfter } from '../../src/rest/response.js'
import { isBrowserContext } from '../../src/rest/options.js'
import { CLIENT_ID, record, rejection, SECRET, useHarness, thrown, type Harness } from './helpers.js'

let h: Harness
useHarness((started) => (h = started))

describe('error types', () => {
  it('every REST error is an OrbitdrawError with a stable code, detail and hint', () => {
    const all: OrbitdrawError[] = [
      new NetworkError({ edge: 'rest', url: 'u', detail: 'x' }),
      new TimeoutError({ edge: 'rest', url: 'u', timeoutMs: 1, scope: 'attempt' }),
      new ServerError('u', 500, 'm'),
      new InvalidResponseError('u', 'x', { path: '$.data' }),
      new AuthError('u', 401, undefined),
      new TokenError('u', 401, 'access_denied', 'no'),
      new RateLimitedError({ edge: 'rest', url: 'u', retryAfterMs: 3000 }),
      new SignatureError('x'),
      new UnknownSourceError('x', ['derived']),
      new BrowserSecretError(),
      new AbortedError({ edge: 'rest' }),
      new FallbackError(new Error('a'), new Error('b')),
    ]
    all.forEach(record)
    const codes = all.map((e) => e.code)
    expect(new Set(codes).size).toBe(all.length)
    for (const e of all) {
      expect(e).toBeInstanceOf(OrbitdrawError)
      expect(e.code).toMatch(/^ORBITPORT_[A-Z_]+$/)
      expect(e.detail.length).toBeGreaterThan(0)
      expect(e.hint.length).toBeGreaterThan(0)
      expect(e.name).toBe(e.constructor.name)
      expect(JSON.parse(JSON.stringify(e))).toMatchObject({ code: e.code, name: e.name })
    }
  })

  it('a 500 gives a ServerError carrying the server message, retried within the budget', async () => {
    h.service.inject500('satellite uplink failure')
    const err = (await rejection(h.client({ retry: { retries: 2, baseDelayMs: 1 } }).random())) as ServerError
    expect(err).toBeInstanceOf(ServerError)
    expect(err.code).toBe('ORBITPORT_SERVER_ERROR')
    expect(err.status).toBe(500)
    expect(err.serverMessage).toBe('satellite uplink failure')
    expect(err.message).toContain('satellite uplink failure')
    expect(h.trngRequests()).toHaveLength(3)
  })

  it('a transient 500/502/503 is retried and then succeeds', async () => {
    h.service.injectFault('trng', { status: 502, body: 'Bad Gateway' })
    h.service.injectFault('trng', { status: 503, body: { message: 'busy' } })
    const v = await h.client({ retry: { retries: 2 } }).random()
    expect(v.data).toHaveLength(32)
    expect(h.trngRequests()).toHaveLength(3)
    expect(h.logs.filter((l) => l.includes('retrying'))).toHaveLength(2)
  })

  it('a 500 with a non-JSON body still gives a ServerError with a snippet', async () => {
    h.service.injectFault('trng', { status: 500, body: '<html>oops</html>' })
    const err = (await rejection(h.client({ retry: { retries: 0 } }).random())) as ServerError
    expect(err.serverMessage).toBe('<html>oops</html>')
  })

  it('a 400 (or 404) is a ServerError that is not retried', async () => {
    h.service.injectFault('trng', { status: 400, body: { message: 'invalid src value' } })
    const err = (await rejection(h.client().random())) as ServerError
    expect(err).toBeInstanceOf(ServerError)
    expect(err.status).toBe(400)
    expect(h.trngRequests()).toHaveLength(1)
    expect(defaultFallbackOn(err)).toBe(false)
  })

  it('network failures give a NetworkError after bounded retries', async () => {
    const url = h.server.url
    await h.close()
    const c = h.client({ baseUrl: url, authUrl: url, retry: { retries: 2, baseDelayMs: 1 } })
    const err = (await rejection(c.random())) as NetworkError
    expect(err).toBeInstanceOf(NetworkError)
    expect(err.code).toBe('ORBITPORT_NETWORK')
    expect(err.url).toBe(`${url}/oauth/token`)
    expect(h.tokenRequests()).toHaveLength(3)
  })

  it('a dropped connection is a NetworkError, retried', async () => {
    h.service.injectFault('trng', { drop: true })
    const v = await h.client().random()
    expect(v.data).toHaveLength(32)
    h.service.injectFault('trng', { drop: true }, 3)
    const err = (await rejection(h.client({ retry: { retries: 2 } }).random())) as NetworkError
    expect(err).toBeInstanceOf(NetworkError)
    expect(err.url).toBe(`${h.server.url}/api/v1/services/trng`)
  })

  it('a response that never comes is a TimeoutError per attempt, retried', async () => {
    // `hang`: the endpoint never answers, so the timeout fires whatever its length; the length only has to
    // exceed what the healthy token request and retry take on a loaded machine (100 ms flaked).
    h.service.injectFault('trng', { hang: true }, 2)
    const c = h.client({ timeoutMs: 2000, retry: { retries: 1, baseDelayMs: 1 } })
    const err = (await rejection(c.random())) as TimeoutError
    expect(err).toBeInstanceOf(TimeoutError)
    expect(err.code).toBe('ORBITPORT_TIMEOUT')
    expect(err.timeoutMs).toBe(2000)
    expect(h.trngRequests()).toHaveLength(2)
    h.service.injectFault('trng', { hang: true })
    expect((await c.random()).data).toHaveLength(32)
  })

  it('the whole call is bounded by the deadline', async () => {
    h.service.injectFault('trng', { passThrough: true, delayMs: 2000 }, 10)
    const c = h.client({ timeoutMs: 1000, retry: { retries: 10, baseDelayMs: 1, deadlineMs: 300 } })
    // Without the deadline the ten 2 s answers would take 20 s and end in a 1,000 ms per-request timeout.
    const err = (await rejection(c.random())) as TimeoutError
    expect(err).toBeInstanceOf(TimeoutError)
    expect(err.timeoutMs).toBe(300)
  })

  it('a 429 honours Retry-After when it fits the budget', async () => {
    h.service.injectFault('trng', { status: 429, headers: { 'retry-after': '0' }, body: { message: 'slow down' } })
    const v = await h.client().random()
    expect(v.data).toHaveLength(32)
    expect(h.trngRequests()).toHaveLength(2)
  })

  it('a 429 whose Retry-After exceeds the budget is a RateLimitedError with retryAfterMs', async () => {
    h.service.injectFault('trng', { status: 429, headers: { 'retry-after': '120' }, body: { message: 'slow down' } })
    const err = (await rejection(h.client({ retry: { deadlineMs: 5000 } }).random())) as RateLimitedError
    expect(err).toBeInstanceOf(RateLimitedError)
    expect(err.code).toBe('ORBITPORT_RATE_LIMITED')
    expect(err.retryAfterMs).toBe(120_000)
    expect(h.trngRequests()).toHaveLength(1)
  })

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z')
    expect(parseRetryAfter('7', now)).toBe(7)
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter(null, now)).toBeUndefined()
  })

  it('retries use exponential backoff with full jitter, bounded by maxDelayMs', async () => {
    h.service.injectFault('trng', { status: 503 }, 3)
    const draws: number[] = []
    const t0 = performance.now()
    await h.client({ retry: { retries: 3, baseDelayMs: 40, maxDelayMs: 60, random: () => (draws.push(1), 0.999) } }).random()
    const elapsed = performance.now() - t0
    expect(draws).toHaveLength(3)
    // ceilings 40, 60 (capped), 60 → about 160 ms of waiting
    expect(elapsed).toBeGreaterThanOrEqual(150)
  })

  it('an AbortSignal aborts a call waiting on a slow response or on backoff', async () => {
    h.service.injectFault('trng', { passThrough: true, delayMs: 3000 })
    const ctl = new AbortController()
    const p = h.client().random({ signal: ctl.signal })
    setTimeout(() => ctl.abort(new Error('user gave up')), 50)
    const err = (await rejection(p)) as AbortedError
    expect(err).toBeInstanceOf(AbortedError)
    expect(err.code).toBe('ORBITPORT_ABORTED')

    h.service.injectFault('trng', { status: 503 }, 5)
    const ctl2 = new AbortController()
    const p2 = h.client({ retry: { retries: 5, baseDelayMs: 10_000, maxDelayMs: 10_000, random: () => 0.99 } }).random({ signal: ctl2.signal })
    setTimeout(() => ctl2.abort(), 100)
    // Five 10 s back-offs would outlast the runner's timeout: only a prompt abort finishes.
    expect(await rejection(p2)).toBeInstanceOf(AbortedError)

    const already = AbortSignal.abort()
    expect(await rejection(h.client().random({ signal: already }))).toBeInstanceOf(AbortedError)
  })

  it('an abort while waiting for the shared token does not fail the other callers', async () => {
    h.service.injectFault('token', { passThrough: true, delayMs: 200 })
    const c = h.client()
    const ctl = new AbortController()
    const a = c.random({ signal: ctl.signal })
    const b = c.random()
    setTimeout(() => ctl.abort(), 20)
    expect(await rejection(a)).toBeInstanceOf(AbortedError)
    expect((await b).data).toHaveLength(32)
    expect(h.tokenRequests()).toHaveLength(1)
  })

  it('redirects to another origin are not followed (the bearer token stays on the configured origin)', async () => {
    h.service.injectFault('trng', { status: 302, headers: { location: 'http://127.0.0.1:9/steal' }, body: '' })
    const err = (await rejection(h.client().random())) as RedirectError
    expect(err).toBeInstanceOf(RedirectError)
    expect(err.code).toBe('ORBITPORT_REDIRECT_REFUSED')
    expect(err.toOrigin).toBe('http://127.0.0.1:9')
    expect(h.requests.filter((r) => r.url.includes('steal'))).toHaveLength(0)
    expect(h.trngRequests()).toHaveLength(1) // not retried
    expect(defaultFallbackOn(err)).toBe(false)
  })
})

describe('construction', () => {
  const base = { clientId: CLIENT_ID, clientSecret: SECRET }

  it('fails in a browser context with an explanation, unless explicitly overridden', () => {
    const g = globalThis as { window?: unknown }
    expect(isBrowserContext()).toBe(false)
    g.window = { document: {} }
    try {
      expect(isBrowserContext()).toBe(true)
      const err = thrown(() => new OrbitportClient(base)) as BrowserSecretError
      expect(err).toBeInstanceOf(BrowserSecretError)
      expect(err.code).toBe('ORBITPORT_SECRET_IN_BROWSER')
      expect(err.message).toContain('section 5, rule 3')
      expect(err.hint).toContain('dangerouslyAllowBrowser')
      expect(new OrbitportClient({ ...base, dangerouslyAllowBrowser: true })).toBeInstanceOf(OrbitportClient)
    } finally {
      delete g.window
    }
  })

  it('validates options without echoing the secret', () => {
    const bad: Record<string, unknown>[] = [
      { ...base, clientId: '' },
      { ...base, clientSecret: '' },
      { ...base, clientSecret: 42 },
      { ...base, baseUrl: 'not a url' },
      { ...base, baseUrl: 'ftp://x.example' },
      { ...base, authUrl: `https://user:${SECRET}@auth.example` },
      { ...base, baseUrl: 'https://x.example/?q=1' },
      { ...base, timeoutMs: -1 },
      { ...base, retry: { retries: 1.5 } },
      { ...base, verify: { publicKey: 'zz' } },
      { ...base, verify: { publicKey: '04'.padEnd(130, '0') } },
    ]
    for (const o of bad) {
      const err = thrown(() => new OrbitportClient(o as never))
      expect(err).toBeInstanceOf(InvalidInputError)
      expect((err as Error).message).not.toContain(SECRET)
    }
    expect(thrown(() => new OrbitportClient(undefined as never))).toBeInstanceOf(InvalidInputError)
  })

  it('normalises trailing slashes', () => {
    const c = new OrbitportClient({ ...base, baseUrl: 'https://op.example/', authUrl: 'https://auth.example//' })
    expect(c.trngUrl).toBe('https://op.example/api/v1/services/trng')
    expect(c.tokenUrl).toBe('https://auth.example/oauth/token')
    expect(c.audience).toBe('https://op.example/api')
  })
})
