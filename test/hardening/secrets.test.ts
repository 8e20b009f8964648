/**
 * Secrets: drives the REST client (and the beacon fallback) through success, refresh and every error
 * path against the emulator, with `console` as its logger, while everything written to the console,
 * stdout and stderr in this process is captured. Then scans all of it, every error in every textual
 * form (message, stack, JSON, util.inspect, String, cause chain), every result and the client's own
 * serializations, and the figures the other hardening suites wrote, for the client secret and every
 * access token the emulator issued.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { beaconFallbackFrom } from '../../src/rest/fallback.js'
import { MemoryTokenStore } from '../../src/rest/token.js'
import { OrbitportClient } from '../../src/rest/client.js'
import { type OrbitportClientOptions } from '../../src/rest/options.js'
import { FIGURES_DIR, recordFigures, SecretScan, settle } from './helpers.js'

const SECRET = 'hardening-secret-7f3a1c9e2b'
const scan = new SecretScan()
let emu: RunningEmulator
const restore: (() => void)[] = []

beforeAll(async () => {
  emu = await startEmulator({ beacon: { keyType: 'Ed25519', intervalMs: 0, initialBlocks: 2 }, rest: { clientSecret: SECRET } })
  scan.secret(SECRET)
  // Capture everything this process prints.
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream)
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      scan.produced.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'))
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest)
    }) as typeof stream.write
    restore.push(() => (stream.write = write))
  }
  for (const level of ['log', 'debug', 'info', 'warn', 'error'] as const) {
    const orig = console[level]
    console[level] = (...args: unknown[]) => void scan.produced.push(args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 10 }))).join(' '))
    restore.push(() => (console[level] = orig))
  }
})
afterAll(async () => {
  restore.forEach((r) => r())
  await emu.stop()
})

/** A fetch that registers every access token the token endpoint hands out. */
const recording: typeof fetch = async (input, init) => {
  const res = await fetch(input, init)
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  if (url.endsWith('/oauth/token') && res.ok) {
    try {
      const j = (await res.clone().json()) as { access_token?: unknown }
      if (typeof j.access_token === 'string') scan.secret(j.access_token)
    } catch {
      // not JSON
    }
  }
  return res
}

function client(o: Partial<OrbitportClientOptions> = {}): OrbitportClient {
  return new OrbitportClient({ clientId: 'emulator-client', clientSecret: SECRET, baseUrl: emu.url, authUrl: emu.url, fetch: recording, logger: console, timeoutMs: 2000, retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 5 }, ...o })
}

describe('the client secret and access tokens never leak', () => {
  it('drives every path; nothing printed, thrown, returned or serialized contains them', async () => {
    const store = new MemoryTokenStore()
    const c = client({ tokenStore: store, verify: { publicKey: emu.rest.publicKey } })
    const keep = async (p: Promise<unknown>): Promise<void> => {
      const r = await settle(() => p)
      scan.add(r.ok ? r.value : r.error)
    }
    await keep(c.random())
    await keep(c.random({ src: ['derived', 'satellite'] }))
    const token = [...scan.secrets].at(-1)!
    emu.rest.revokeTokens()
    await keep(c.random())
    // servers echoing the secret and the token back in every kind of body
    emu.rest.injectFault('trng', { status: 500, body: { message: `bad token ${token} and ${SECRET}` } }, 2)
    await keep(c.random())
    emu.rest.injectFault('trng', { status: 403, body: { message: `forbidden ${token}` } }, 2)
    await keep(c.random())
    emu.rest.injectFault('trng', { status: 200, body: `not json ${token} ${SECRET}` })
    await keep(c.random())
    emu.rest.injectFault('trng', { status: 429, headers: { 'retry-after': '999' }, body: { message: SECRET } })
    await keep(c.random())
    emu.rest.injectFault('token', { status: 401, body: { error: SECRET, error_description: `${SECRET} ${token}`, message: SECRET } })
    await c.clearToken()
    await keep(c.random())
    emu.rest.injectFault('token', { status: 200, body: `{"access_token": "${SECRET}"` })
    await c.clearToken()
    await keep(c.random())
    emu.rest.injectFault('trng', { drop: true }, 2)
    await keep(c.random())
    // never answered: the 2 s timeout fires on both attempts (healthy calls, which must issue the tokens
    // counted below, are far within it)
    emu.rest.injectFault('trng', { hang: true }, 2)
    await keep(c.random())
    await keep(client({ clientSecret: `${SECRET}-wrong` }).random())
    const ctl = new AbortController()
    ctl.abort(new Error("aborted by the caller"))
    await keep(c.random({ signal: ctl.signal }))
    // the beacon fallback: its values carry the endpoint error's message
    const fb = client({ beaconFallback: beaconFallbackFrom(new BeaconClient({ gateways: [emu.url], name: emu.beaconName })) })
    await keep(fb.random())
    emu.rest.inject500(`down; token ${[...scan.secrets].at(-1)!} secret ${SECRET}`)
    await keep(fb.random())
    await keep(fb.random())
    await keep(fb.random())
    await keep(fb.random()) // block exhausted: FallbackError with both causes
    emu.rest.inject500(null)
    // construction errors and the objects themselves
    scan.add((await settle(async () => new OrbitportClient({ clientId: 'x', clientSecret: SECRET, baseUrl: `https://u:${SECRET}@x.example` }))).ok)
    scan.add(c)
    scan.add(store)
    scan.add(fb)
    console.log('client', c, 'store', store)
    console.log(String(c), JSON.stringify(c), JSON.stringify(store))
    expect(scan.secrets.size).toBeGreaterThanOrEqual(4) // the secret and at least three issued tokens
    expect(scan.produced.length).toBeGreaterThan(100)
    expect(scan.leaks()).toEqual([])
  })
  it('the figures the other hardening suites wrote contain no secret either', () => {
    let files: string[] = []
    try {
      files = readdirSync(FIGURES_DIR).filter((f) => f.endsWith('.json'))
    } catch {
      // no other suite has written figures yet
    }
    for (const f of files) scan.produced.push(readFileSync(join(FIGURES_DIR, f), 'utf8'))
    expect(scan.leaks()).toEqual([])
    recordFigures('secrets', { secretsWatched: scan.secrets.size, stringsScanned: scan.produced.length, leaks: scan.leaks().length, figureFilesScanned: files.length })
  })
})
