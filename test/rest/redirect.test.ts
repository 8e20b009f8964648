/**
 * The REST endpoints cannot steer the client: a redirect to another origin is refused before any
 * request goes there (it would carry the bearer token, or the client secret for the token call),
 * is typed, is not retried and does not trigger the beacon fallback.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../src/core/errors.js'
import { startHttpServer, type RunningHttpServer } from '../../src/emulator/http.js'
import { defaultFallbackOn } from '../../src/rest/fallback.js'
import { RedirectError } from '../../src/rest/errors.js'
import { assertNoSecrets, rejection, startHarness, thrown, type Harness } from './helpers.js'

let trap: RunningHttpServer
let trapHits: { url: string; auth: string | undefined; body: string }[] = []
let h: Harness

beforeAll(async () => {
  trap = await startHttpServer([
    async (req, res) => {
      let body = ''
      for await (const chunk of req) body += String(chunk)
      trapHits.push({ url: req.url ?? '', auth: req.headers.authorization, body })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"stolen-by-the-trap-origin-0001","expires_in":3600}')
      return true
    },
  ])
})
afterAll(async () => {
  await trap.close()
})
beforeEach(async () => {
  h = await startHarness()
  trapHits = []
})
afterEach(async () => {
  await h.close()
  assertNoSecrets()
})

describe('OrbitportClient redirects', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`token call: a ${status} to another origin is refused; the secret is never sent there`, async () => {
      h.service.injectFault('token', { status, headers: { location: `${trap.url}/oauth/token` }, body: '' })
      const err = (await rejection(h.client({ beaconFallback: { latestValues: () => Promise.reject(new Error('must not be used')) } }).random())) as RedirectError
      expect(err).toBeInstanceOf(RedirectError)
      expect(err.code).toBe('ORBITPORT_REDIRECT_REFUSED')
      expect(err.reason).toBe('cross-origin')
      expect(err.toOrigin).toBe(new URL(trap.url).origin)
      expect(err.hint).toContain('allowedRedirectOrigins')
      expect(trapHits).toEqual([])
      expect(h.tokenRequests()).toHaveLength(1) // not retried
      expect(h.requests.every((r) => !r.url.startsWith(trap.url))).toBe(true)
    })
  }

  it('cTRNG call: a 307 to another origin is refused; the bearer token is never sent there', async () => {
    h.service.injectFault('trng', { status: 307, headers: { location: `${trap.url}/api/v1/services/trng` }, body: '' })
    const err = (await rejection(h.client().random())) as RedirectError
    expect(err).toBeInstanceOf(RedirectError)
    expect(defaultFallbackOn(err)).toBe(false)
    expect(trapHits).toEqual([])
    expect(h.trngRequests()).toHaveLength(1)
  })

  it('a same-origin redirect is followed (cTRNG GET, token POST via 307 with its body)', async () => {
    h.service.injectFault('token', { status: 307, headers: { location: `${h.server.url}/oauth/token` }, body: '' })
    h.service.injectFault('trng', { status: 302, headers: { location: `${h.server.url}/api/v1/services/trng?src=derived` }, body: '' })
    const v = await h.client().random()
    expect(v.source).toBe('derived')
    expect(h.service.stats().tokensIssued).toBe(1)
  })

  it('a 302 on the token POST is refused even on the same origin (it would drop the body)', async () => {
    h.service.injectFault('token', { status: 302, headers: { location: `${h.server.url}/oauth/token` }, body: '' })
    const err = (await rejection(h.client().random())) as RedirectError
    expect(err.reason).toBe('method-change')
  })

  it('too many same-origin hops is refused', async () => {
    h.service.injectFault('trng', { status: 302, headers: { location: `${h.server.url}/api/v1/services/trng` }, body: '' }, 3)
    const err = (await rejection(h.client({ maxRedirects: 2 }).random())) as RedirectError
    expect(err.reason).toBe('too-many')
  })

  it('an allow-listed origin is followed', async () => {
    h.service.injectFault('token', { status: 308, headers: { location: `${trap.url}/oauth/token` }, body: '' })
    // The trap issues a token the API rejects; the one refresh then gets a real token (fault used up).
    const v = await h.client({ allowedRedirectOrigins: [trap.url] }).random()
    expect(v.data).toHaveLength(32)
    expect(trapHits).toHaveLength(1)
    expect(trapHits[0]!.url).toBe('/oauth/token')
    expect(JSON.parse(trapHits[0]!.body)).toMatchObject({ grant_type: 'client_credentials' }) // 308 kept the POST body
  })

  it('bad options are typed input errors', () => {
    expect(thrown(() => h.client({ allowedRedirectOrigins: ['javascript:alert(1)'] }))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => h.client({ maxRedirects: 1.5 }))).toBeInstanceOf(InvalidInputError)
  })
})
