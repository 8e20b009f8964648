/**
 * The secret scan: drives the client through every success and error path with a debug logger, then
 * checks every log line, every error (message, stack, JSON, util.inspect, cause chain) and every
 * serialization of the client, its token store and its results for the client secret and for every
 * access token the identity provider issued during the run.
 */
import { inspect } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { p256 } from '@noble/curves/nist.js'
import { MemoryTokenStore } from '../../src/rest/token.js'
import { OrbitportClient } from '../../src/rest/client.js'
import { type BeaconFallback } from '../../src/rest/fallback.js'
import { assertNoSecrets, CLIENT_ID, produced, record, recordObject, rejection, SECRET, seenTokens, startHarness, thrown, type Harness } from './helpers.js'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  await h.close()
})

describe('the client secret and access tokens never leak', () => {
  it('drives every path and records everything produced', async () => {
    const store = new MemoryTokenStore()
    const beacon: BeaconFallback = {
      latestValues: async () => ({ values: [new Uint8Array(32).fill(9)], sequence: 1, cid: 'bafkreisecretscan', authenticated: false }),
    }
    const c = h.client({ tokenStore: store, verify: { publicKey: h.service.publicKey } })
    // successes, including a refresh and a 401 retry
    recordObject(await c.random())
    recordObject(await c.random({ src: ['derived', 'satellite'] }))
    h.clock.t += 3500_000
    recordObject(await c.random())
    h.service.revokeTokens()
    recordObject(await c.random())
    // server errors whose bodies echo the bearer token and the secret back
    const token = [...seenTokens].at(-1)!
    h.service.injectFault('trng', { status: 500, body: { message: `bad token ${token} and ${SECRET}` } }, 3)
    const e500 = (await rejection(c.random())) as Error
    expect(e500.message).toContain('[REDACTED]')
    h.service.injectFault('trng', { status: 403, body: { message: `forbidden for ${token}` } }, 2)
    await rejection(c.random())
    h.service.injectFault('trng', { status: 200, body: `not json ${token}` })
    await rejection(c.random())
    h.service.injectFault('trng', { status: 429, headers: { 'retry-after': '999' }, body: { message: SECRET } })
    await rejection(c.random())
    h.service.injectFault('trng', { status: 502, body: `<html>${SECRET}</html>` }, 3)
    await rejection(c.random())
    h.service.injectFault('token', { status: 401, body: { error: SECRET, error_description: SECRET, message: SECRET } })
    await c.clearToken()
    await rejection(c.random())
    h.service.injectFault('trng', { drop: true }, 3)
    await rejection(c.random())
    h.service.injectFault('trng', { passThrough: true, delayMs: 300 }, 3)
    await rejection(h.client({ timeoutMs: 50, retry: { retries: 0 } }).random())
    await rejection(h.client({ verify: { publicKey: p256.getPublicKey(p256.utils.randomSecretKey()) } }).random())
    await rejection(h.client({ clientSecret: `${SECRET}-wrong` }).random())
    const ctl = new AbortController()
    ctl.abort()
    await rejection(c.random({ signal: ctl.signal }))
    // beacon fallback result carries the endpoint error's message
    const fbClient = h.client({ beaconFallback: beacon, retry: { retries: 0 } })
    recordObject(await fbClient.random()) // obtains its own token
    const fbToken = [...seenTokens].at(-1)!
    h.service.inject500(`down; token ${fbToken}`)
    const fb = await fbClient.random()
    expect(fb.source).toBe('beacon')
    expect(fb.fallbackReason!.message).toContain('[REDACTED]')
    recordObject(fb)
    h.service.inject500(null)
    // construction errors
    thrown(() => new OrbitportClient({ clientId: CLIENT_ID, clientSecret: SECRET, baseUrl: `https://u:${SECRET}@x.example` }))
    const g = globalThis as { window?: unknown }
    g.window = { document: {} }
    try {
      thrown(() => new OrbitportClient({ clientId: CLIENT_ID, clientSecret: SECRET }))
    } finally {
      delete g.window
    }
    // the objects themselves
    recordObject(c)
    recordObject(store)
    produced.push(`${c}`, inspect(c, { showHidden: true, depth: Infinity }), JSON.stringify({ client: c }))
    produced.push(...h.logs)
    expect(h.logs.length).toBeGreaterThan(10)
    expect(h.logs.some((l) => l.startsWith('debug'))).toBe(true)
    expect(inspect(c)).toContain('[REDACTED]')
    expect(JSON.stringify(c)).toContain('"clientSecret":"[REDACTED]"')
  })

  it('finds neither the secret nor any issued token in anything produced', () => {
    expect(seenTokens.size).toBeGreaterThanOrEqual(3)
    expect(produced.length).toBeGreaterThan(50)
    assertNoSecrets()
  })

  it('the scan itself would catch a leak', () => {
    const leaked = [`x ${SECRET} y`, `Bearer ${[...seenTokens][0]!}`]
    for (const text of leaked) {
      const hit = text.includes(SECRET) || [...seenTokens].some((t) => text.includes(t))
      expect(hit).toBe(true)
    }
    record(new Error('harmless'))
  })
})
