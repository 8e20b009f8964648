import { describe, expect, it } from 'vitest'
import { AuthError, InvalidResponseError, TokenError } from '../../src/rest/errors.js'
import { MAX_TOKEN_CACHE_MS, MIN_ACCESS_TOKEN_CHARS } from '../../src/rest/token-manager.js'
import { MemoryTokenStore, type StoredToken, type TokenStore } from '../../src/rest/token.js'
import { CLIENT_ID, record, recordObject, rejection, SECRET, seenTokens, startHarness, useHarness, type Harness } from './helpers.js'

let h: Harness
useHarness((started) => (h = started))

describe('token request', () => {
  it('uses the client-credentials grant exactly as section 4.2 says', async () => {
    const c = h.client()
    await c.random()
    const [t] = h.tokenRequests()
    expect(t!.method).toBe('POST')
    expect(t!.url).toBe(`${h.server.url}/oauth/token`)
    expect(t!.headers['content-type']).toBe('application/json')
    expect(JSON.parse(t!.body!)).toEqual({ client_id: CLIENT_ID, client_secret: SECRET, audience: `${h.server.url}/api`, grant_type: 'client_credentials' })
    const [r] = h.trngRequests()
    expect(r!.headers.authorization).toMatch(/^Bearer emu_[0-9a-f]+$/)
  })

  it('defaults to the production URLs and audience', () => {
    const c = h.client({ baseUrl: undefined, authUrl: undefined })
    expect(c.baseUrl).toBe('https://op.spacecomputer.io')
    expect(c.authUrl).toBe('https://auth.spacecomputer.io')
    expect(c.audience).toBe('https://op.spacecomputer.io/api')
    expect(c.tokenUrl).toBe('https://auth.spacecomputer.io/oauth/token')
    expect(c.trngUrl).toBe('https://op.spacecomputer.io/api/v1/services/trng')
  })
})

describe('token caching and refresh timing (controllable clock)', () => {
  it('reuses the token until 300 s before expiry, then fetches a new one', async () => {
    const c = h.client()
    await c.random()
    expect(h.tokenRequests()).toHaveLength(1)
    // expires_in is 3600 s: fresh until 3300 s after it was obtained.
    h.clock.t += 3299_000
    await c.random()
    expect(h.tokenRequests()).toHaveLength(1)
    h.clock.t += 999
    await c.random()
    expect(h.tokenRequests()).toHaveLength(1)
    h.clock.t += 1 // exactly expiresAt - 300 s
    await c.random()
    expect(h.tokenRequests()).toHaveLength(2)
    // the new token is again good for 3300 s
    h.clock.t += 3000_000
    await c.random()
    expect(h.tokenRequests()).toHaveLength(2)
    expect(h.trngRequests()).toHaveLength(5)
  })

  // The token is refreshed exactly `refreshAt` ms after it was issued: one request before, two at it.
  const refreshes: [title: string, expiresIn: number, options: { refreshBufferSeconds?: number }, refreshAt: number][] = [
    ['honours a configurable buffer and the server expires_in', 600, { refreshBufferSeconds: 60 }, 540_000],
    ['caps the buffer at half the lifetime for short-lived tokens (no request storm)', 100, {}, 50_000], // shorter than the 300 s buffer
  ]
  for (const [title, expiresIn, options, refreshAt] of refreshes) {
    it(title, async () => {
      h.service.setExpiresIn(expiresIn)
      const c = h.client(options)
      await c.random()
      h.clock.t += refreshAt - 1
      await c.random()
      expect(h.tokenRequests()).toHaveLength(1)
      h.clock.t += 1
      await c.random()
      expect(h.tokenRequests()).toHaveLength(2)
    })
  }

  it('assumes the default lifetime when expires_in is absent', async () => {
    h.service.injectFault('token', { status: 200, body: { access_token: 'tok-without-expiry-0001', token_type: 'Bearer' } })
    const c = h.client({ defaultExpiresInSeconds: 1000 })
    // the injected token is unknown to the emulator: 401, one refresh, real token
    await c.random()
    expect(h.tokenRequests()).toHaveLength(2)
    expect(h.logs.some((l) => l.includes('no expires_in'))).toBe(true)
  })

  it('100 concurrent random() calls make exactly one token request', async () => {
    const c = h.client()
    const values = await Promise.all(Array.from({ length: 100 }, () => c.random()))
    expect(h.tokenRequests()).toHaveLength(1)
    expect(h.trngRequests()).toHaveLength(100)
    expect(new Set(values.map((v) => v.hex)).size).toBe(100)
    const auth = new Set(h.trngRequests().map((r) => r.headers.authorization))
    expect(auth.size).toBe(1)
  })

  it('100 concurrent calls after expiry also share one refresh', async () => {
    const c = h.client()
    await c.random()
    h.clock.t += 3600_000
    await Promise.all(Array.from({ length: 100 }, () => c.random()))
    expect(h.tokenRequests()).toHaveLength(2)
  })

  it('a pluggable token store lets several clients (processes) share one token', async () => {
    const backing = new Map<string, StoredToken>()
    let sets = 0
    const store: TokenStore = {
      get: async (k) => backing.get(k),
      set: async (k, t) => {
        sets++
        backing.set(k, t)
      },
      delete: async (k) => {
        backing.delete(k)
      },
    }
    const a = h.client({ tokenStore: store })
    const b = h.client({ tokenStore: store })
    await a.random()
    await b.random()
    await Promise.all([a.random(), b.random(), a.random()])
    expect(h.tokenRequests()).toHaveLength(1)
    expect(sets).toBe(1)
    const key = [...backing.keys()][0]!
    expect(key).not.toContain(SECRET)
    await a.clearToken()
    await b.random()
    expect(h.tokenRequests()).toHaveLength(2)
  })

  it('the memory store never shows its tokens', async () => {
    const store = new MemoryTokenStore()
    const c = h.client({ tokenStore: store })
    await c.random()
    expect(store.size).toBe(1)
    recordObject(store)
    recordObject(c)
    expect(JSON.stringify(store)).toBe('{"tokens":1}')
  })
})

describe('the 401 path: one refresh and one retry, never a loop', () => {
  it('a revoked token is refreshed once and the request retried', async () => {
    const c = h.client()
    await c.random()
    h.service.revokeTokens()
    const v = await c.random()
    expect(v.data).toHaveLength(32)
    expect(h.tokenRequests()).toHaveLength(2)
    expect(h.trngRequests()).toHaveLength(3)
    const [, second, third] = h.trngRequests()
    expect(second!.headers.authorization).not.toBe(third!.headers.authorization)
  })

  it('an expired token on the server (client clock behind) is refreshed once', async () => {
    const serverClock = { t: h.clock.t }
    await h.close()
    h = await startHarness({ now: () => serverClock.t })
    const c = h.client()
    await c.random()
    serverClock.t += 3600_000 // the server thinks the token expired; the client does not
    await c.random()
    expect(h.tokenRequests()).toHaveLength(2)
    expect(h.trngRequests()).toHaveLength(3)
  })

  for (const status of [401, 403]) {
    it(`${status} again after the refresh is an AuthError (exactly 2 token and 2 cTRNG requests)`, async () => {
      h.service.injectFault('trng', { status, body: { message: 'client not allowed' } }, 5)
      const c = h.client()
      const err = (await rejection(c.random())) as AuthError
      expect(err).toBeInstanceOf(AuthError)
      expect(err.code).toBe('ORBITPORT_UNAUTHORIZED')
      expect(err.status).toBe(status)
      expect(err.serverMessage).toBe('client not allowed')
      expect(h.tokenRequests()).toHaveLength(2)
      expect(h.trngRequests()).toHaveLength(2)
    })
  }

  it('concurrent 401s share one refresh', async () => {
    const c = h.client()
    await c.random()
    h.service.revokeTokens()
    await Promise.all(Array.from({ length: 20 }, () => c.random()))
    expect(h.tokenRequests()).toHaveLength(2)
  })
})

describe('token endpoint failures', () => {
  it('a wrong secret is a TokenError naming the OAuth error, not retried', async () => {
    const c = h.client({ clientSecret: 'wrong-secret-value' })
    const err = (await rejection(c.random())) as TokenError
    expect(err).toBeInstanceOf(TokenError)
    expect(err.code).toBe('ORBITPORT_TOKEN_REJECTED')
    expect(err.status).toBe(401)
    expect(err.oauthError).toBe('access_denied')
    expect(h.tokenRequests()).toHaveLength(1)
    expect(h.trngRequests()).toHaveLength(0)
    expect(err.message).not.toContain('wrong-secret-value')
  })

  it('a wrong audience is a TokenError (403)', async () => {
    const c = h.client({ audience: 'https://elsewhere.example/api' })
    const err = (await rejection(c.random())) as TokenError
    expect(err).toBeInstanceOf(TokenError)
    expect(err.status).toBe(403)
    expect(err.message).toContain('Service not found')
  })

  it('a token response without access_token is an InvalidResponseError with its path', async () => {
    h.service.injectFault('token', { status: 200, body: { token_type: 'Bearer', expires_in: 10 } })
    const err = (await rejection(h.client().random())) as InvalidResponseError
    expect(err).toBeInstanceOf(InvalidResponseError)
    expect(err.path).toBe('$.access_token')
  })

  it('bad expires_in and token_type are rejected', async () => {
    h.service.injectFault('token', { status: 200, body: { access_token: 'abc-token-1234567890123456', expires_in: -5 } })
    expect(((await rejection(h.client().random())) as InvalidResponseError).path).toBe('$.expires_in')
    h.service.injectFault('token', { status: 200, body: { access_token: 'abc-token-1234567890123457', expires_in: 60, token_type: 'MAC' } })
    expect(((await rejection(h.client().random())) as InvalidResponseError).path).toBe('$.token_type')
  })

  it('a token endpoint that echoes the secret has it scrubbed from the error', async () => {
    h.service.injectFault('token', { status: 401, body: { error: 'invalid_client', error_description: `bad secret ${SECRET}` } })
    const err = record(await rejection(h.client().random())) as TokenError
    expect(err.message).toContain('[REDACTED]')
    expect(err.message).not.toContain(SECRET)
  })

  it('a token with a line break or a control character is refused where it arrives, never sent in a header (fuzzing pass 3)', async () => {
    // Each long enough (MIN_ACCESS_TOKEN_CHARS): refused for its characters alone.
    for (const bad of ['abc\r\nX-Injected: 1', 'abc\u001b[2Jdef', 'two words', 'caf\u00e9'].map((t) => `${t}-0123456789abcdef0123`)) {
      h.service.injectFault('token', { status: 200, body: { access_token: bad, token_type: 'Bearer', expires_in: 3600 } })
      const before = h.trngRequests().length
      const err = record(await rejection(h.client().random())) as InvalidResponseError
      expect(err).toBeInstanceOf(InvalidResponseError)
      expect(err.code).toBe('ORBITPORT_INVALID_RESPONSE')
      expect(err.path).toBe('$.access_token')
      expect(err.message).toMatch(/not a bearer token/)
      expect(err.message).not.toContain(bad)
      expect(h.trngRequests().length).toBe(before)
    }
    expect(h.tokenRequests()).toHaveLength(4)
  })

  it('a secret with " or \\ echoed JSON-escaped in an HTML error page is scrubbed too (fuzzing pass 3)', async () => {
    const secret = 'se"cr\\et-orbitdraw-9f2c41'
    const escaped = JSON.stringify(secret).slice(1, -1)
    h.service.injectFault('token', { status: 500, body: `<html>error handling {"client_secret":"${escaped}"}</html>` })
    const err = (await rejection(h.client({ clientSecret: secret, retry: { retries: 0 } }).random())) as Error
    for (const text of [err.message, JSON.stringify(err), String((err as { detail?: string }).detail)]) {
      expect(text).not.toContain(secret)
      expect(text).not.toContain(escaped)
      expect(text).not.toContain(JSON.stringify(escaped).slice(1, -1))
    }
    expect(err.message).toContain('[REDACTED]')
  })

  it('a 503 from the token endpoint is retried', async () => {
    h.service.injectFault('token', { status: 503, body: { message: 'busy' } })
    const v = await h.client().random()
    expect(v.data).toHaveLength(32)
    expect(h.tokenRequests()).toHaveLength(2)
  })
})

/** A token store that counts its writes (a shared store, as several processes would use). */
function countingStore(): { store: TokenStore; backing: Map<string, StoredToken>; sets: () => number } {
  const backing = new Map<string, StoredToken>()
  let sets = 0
  return {
    backing,
    sets: () => sets,
    store: {
      get: (k) => backing.get(k),
      set: (k, t) => {
        sets++
        backing.set(k, t)
      },
      delete: (k) => {
        backing.delete(k)
      },
    },
  }
}

describe('hostile token answers (fuzzing pass 3)', () => {
  it('an access token shorter than MIN_ACCESS_TOKEN_CHARS is refused where it arrives, before the scrubber learns it', async () => {
    expect(MIN_ACCESS_TOKEN_CHARS).toBe(22)
    // A one-character token: once scrubbed, every "e" of every message would read [REDACTED].
    try {
      for (const short of ['e', 'e'.repeat(MIN_ACCESS_TOKEN_CHARS - 1)]) {
        h.service.injectFault('token', { status: 200, body: { access_token: short, token_type: 'Bearer', expires_in: 3600 } })
        const err = record(await rejection(h.client().random())) as InvalidResponseError
        expect(err).toBeInstanceOf(InvalidResponseError)
        expect(err.code).toBe('ORBITPORT_INVALID_RESPONSE')
        expect(err.path).toBe('$.access_token')
        expect(err.message).toMatch(new RegExp(`^invalid response from ${h.server.url}/oauth/token: access_token \\(${short.length === 1 ? '1 character' : `${short.length} characters`}\\) is too short to be a credential: at least 22 characters \\(RFC 6749 section 10\\.10: a token must not be guessable\\) at \\$\\.access_token — `))
        expect(err.message).not.toContain('[REDACTED]')
      }
    } finally {
      // The 21-character one stays in the secret scan (never printed); the one letter is in any text by nature.
      seenTokens.delete('e')
    }
    expect(h.trngRequests()).toHaveLength(0)
    // Exactly the minimum is a token (the API does not know it: one refresh, then a real one).
    h.service.injectFault('token', { status: 200, body: { access_token: 'f'.repeat(MIN_ACCESS_TOKEN_CHARS), token_type: 'Bearer', expires_in: 3600 } })
    expect((await h.client().random()).data).toHaveLength(32)
    expect(h.tokenRequests()).toHaveLength(4)
  })

  it('a stored token the client would not accept (too short, not a b64token) is not used: a new one is fetched', async () => {
    const { store, backing } = countingStore()
    const c = h.client({ tokenStore: store })
    await c.random()
    const key = [...backing.keys()][0]!
    for (const bad of ['x', `${'y'.repeat(30)}\r\n`]) {
      backing.set(key, { accessToken: bad, obtainedAt: h.clock.t, expiresAt: h.clock.t + 3600_000 })
      await c.random()
    }
    // Each call fetched a token at once: no cTRNG request carried the stored one (no 401, no retry).
    expect(h.tokenRequests()).toHaveLength(3)
    expect(h.trngRequests()).toHaveLength(3)
    expect(h.trngRequests().map((r) => r.headers.authorization)).not.toContain('Bearer x')
  })

  it('expires_in 1e308 is cached at most MAX_TOKEN_CACHE_MS (24 h), then refreshed like any token', async () => {
    expect(MAX_TOKEN_CACHE_MS).toBe(86_400_000)
    h.service.setExpiresIn(1e308)
    const { store, backing } = countingStore()
    const c = h.client({ tokenStore: store })
    const start = h.clock.t
    await c.random()
    const [stored] = [...backing.values()]
    expect(stored).toMatchObject({ obtainedAt: start, expiresAt: start + MAX_TOKEN_CACHE_MS })
    expect(h.logs.some((l) => l.startsWith('info orbitport: access token obtained {"expiresInSeconds":1e+308,"cachedForSeconds":86400}'))).toBe(true)
    // Refreshed 300 s before the 24 h are over, not never.
    h.clock.t = start + MAX_TOKEN_CACHE_MS - 300_000 - 1
    await c.random()
    expect(h.tokenRequests()).toHaveLength(1)
    h.clock.t += 1
    await c.random()
    expect(h.tokenRequests()).toHaveLength(2)
  })

  it('a stored token is used at most 24 h after it was obtained, whatever its expiresAt says', async () => {
    h.service.setExpiresIn(2 * 86_400) // the emulator honours its tokens for two days
    const { store, backing } = countingStore()
    const c = h.client({ tokenStore: store })
    await c.random()
    const [key, token] = [...backing.entries()][0]!
    backing.set(key, { ...token, expiresAt: Number.MAX_VALUE })
    h.clock.t = token.obtainedAt + MAX_TOKEN_CACHE_MS - 300_000 - 1
    await c.random()
    expect(h.tokenRequests()).toHaveLength(1)
    h.clock.t += 1
    await c.random()
    expect(h.tokenRequests()).toHaveLength(2)
  })

  it('expires_in under 1 s (1e-9 was cached for a millionth of a ms): the token serves the calls waiting for it and is never stored', async () => {
    // 0.5 s, not 1e-9: the emulator (rightly) refuses at once a token that expires within the clock's precision.
    h.service.setExpiresIn(0.5)
    const { store, sets } = countingStore()
    const c = h.client({ tokenStore: store })
    // Concurrent calls share one token request; the next call fetches its own (as the server asked).
    await Promise.all([c.random(), c.random(), c.random()])
    expect(h.tokenRequests()).toHaveLength(1)
    await c.random()
    expect(h.tokenRequests()).toHaveLength(2)
    expect(sets()).toBe(0)
    expect(h.logs.filter((l) => l.startsWith('warn orbitport: the access token lives less than 1 s: used for the calls waiting for it, not cached {"expiresInSeconds":0.5}'))).toHaveLength(2)
    expect(h.trngRequests()).toHaveLength(4)
  })

  it('expires_in that is not a finite positive number of seconds is refused at $.expires_in, never cached', async () => {
    const token = (i: number): string => `emu-refused-expiry-${String(i).padStart(8, '0')}`
    const cases: [string, string][] = [
      ['0', 'expires_in is a number, expected a positive number of seconds'],
      ['-1', 'expires_in is a number, expected a positive number of seconds'],
      ['1e999', 'expires_in is a number, expected a positive number of seconds'],
      ['null', 'expires_in is null, expected a positive number of seconds'],
      ['"soon"', 'expires_in is "soon", expected a positive number of seconds'],
      ['"-5"', 'expires_in is "-5", expected a positive number of seconds'],
      ['true', 'expires_in is a boolean, expected a positive number of seconds'],
      ['[3600]', 'expires_in is an array, expected a positive number of seconds'],
    ]
    const { store, sets } = countingStore()
    for (const [i, [raw, detail]] of cases.entries()) {
      h.service.injectFault('token', { status: 200, body: `{"access_token":"${token(i)}","token_type":"Bearer","expires_in":${raw}}` })
      const err = record(await rejection(h.client({ tokenStore: store }).random())) as InvalidResponseError
      expect(err.code, raw).toBe('ORBITPORT_INVALID_RESPONSE')
      expect(err.path, raw).toBe('$.expires_in')
      expect(err.message, raw).toContain(`/oauth/token: ${detail} at $.expires_in — `)
    }
    expect(sets()).toBe(0)
    expect(h.trngRequests()).toHaveLength(0)
  })
})
