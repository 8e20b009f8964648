/**
 * Shared helpers of the REST tests: an emulator on a free loopback port, a recording `fetch`, a
 * capturing logger, and the secret scan (every error, log line and serialization a test produced is
 * checked for the client secret and every access token issued).
 */
import { inspect } from 'node:util'
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest'
import { startHttpServer, type RunningHttpServer } from '../../src/emulator/http.js'
import { createRestService, type RestService, type RestServiceOptions } from '../../src/emulator/rest.js'
import { OrbitportClient } from '../../src/rest/client.js'
import { type Logger } from '../../src/rest/scrub.js'
import { type OrbitportClientOptions } from '../../src/rest/options.js'

/** A distinctive secret, so any leak is easy to find. */
export const SECRET = 'S3CR3T-orbitdraw-test-client-secret-9f2c41'
export const CLIENT_ID = 'orbitdraw-test-client'

/** Everything the tests produced that must never contain a secret. */
export const produced: string[] = []
/** Access tokens seen on the wire (collected by the recording fetch). */
export const seenTokens = new Set<string>()

export interface Recorded {
  method: string
  url: string
  headers: Record<string, string>
  body: string | undefined
}

export interface Harness {
  service: RestService
  server: RunningHttpServer
  /** Requests made through `fetch`, in order. */
  requests: Recorded[]
  fetch: typeof fetch
  logs: string[]
  logger: Logger
  clock: { t: number; now: () => number }
  client(options?: Partial<OrbitportClientOptions>): OrbitportClient
  tokenRequests(): Recorded[]
  trngRequests(): Recorded[]
  close(): Promise<void>
}

/**
 * A harness for each test (`'each'`, the default) or for the whole file (`'all'`), given to `set` once
 * started, closed after, and then the secret scan ({@link assertNoSecrets}).
 */
export function useHarness(set: (h: Harness) => void, scope: 'each' | 'all' = 'each'): void {
  let h: Harness | undefined
  ;(scope === 'each' ? beforeEach : beforeAll)(async () => {
    h = await startHarness()
    set(h)
  })
  ;(scope === 'each' ? afterEach : afterAll)(async () => {
    await h?.close()
    assertNoSecrets()
  })
}

export async function startHarness(serviceOptions: RestServiceOptions = {}): Promise<Harness> {
  const clock = { t: 1_700_000_000_000, now: () => clock.t }
  const service = createRestService({ clientId: CLIENT_ID, clientSecret: SECRET, now: clock.now, ...serviceOptions })
  const server = await startHttpServer([service.handler])
  const requests: Recorded[] = []
  const logs: string[] = []
  const rec: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const headers: Record<string, string> = {}
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v))
    requests.push({ method: init?.method ?? 'GET', url, headers, body: typeof init?.body === 'string' ? init.body : undefined })
    const res = await fetch(input, init)
    if (url.endsWith('/oauth/token') && res.status === 200) {
      const text = await res.clone().text()
      try {
        const j = JSON.parse(text) as { access_token?: unknown }
        if (typeof j.access_token === 'string') seenTokens.add(j.access_token)
      } catch {
        // not JSON: nothing to record
      }
    }
    return res
  }
  const push = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    const line = `${level} ${message} ${fields === undefined ? '' : JSON.stringify(fields)}`
    logs.push(line)
    produced.push(line)
  }
  const logger: Logger = { debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') }
  return {
    service,
    server,
    requests,
    fetch: rec,
    logs,
    logger,
    clock,
    client: (options = {}) =>
      new OrbitportClient({
        clientId: CLIENT_ID,
        clientSecret: SECRET,
        baseUrl: server.url,
        authUrl: server.url,
        fetch: rec,
        now: clock.now,
        logger,
        retry: { baseDelayMs: 1, maxDelayMs: 5 },
        ...options,
      }),
    tokenRequests: () => requests.filter((r) => r.url.endsWith('/oauth/token')),
    trngRequests: () => requests.filter((r) => r.url.includes('/api/v1/services/trng')),
    close: () => server.close(),
  }
}

/** Records every textual form of a thrown value (message, JSON, inspect, String, cause chain). */
export function record(err: unknown): unknown {
  produced.push(String(err))
  produced.push(inspect(err, { depth: 10, showHidden: true }))
  try {
    produced.push(JSON.stringify(err))
  } catch {
    // circular: inspect above covers it
  }
  if (err instanceof Error) {
    produced.push(err.message, err.stack ?? '')
    if (err.cause !== undefined) record(err.cause)
  }
  return err
}

/** Awaits a promise that must reject, records the error and returns it. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p
  } catch (err) {
    return record(err)
  }
  throw new Error('expected a rejection')
}

/** Runs a function that must throw, records the error and returns it. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn()
  } catch (err) {
    return record(err)
  }
  throw new Error('expected a throw')
}

/** Records the serializations of an arbitrary object (client, store, result). */
export function recordObject(o: unknown): void {
  produced.push(String(o), inspect(o, { depth: 10, showHidden: true }), JSON.stringify(o) ?? '')
}

/** Asserts that nothing recorded contains the secret or an access token. */
export function assertNoSecrets(): void {
  for (const text of produced) {
    expect(text.includes(SECRET), `secret leaked in: ${text.slice(0, 300)}`).toBe(false)
    for (const t of seenTokens) expect(text.includes(t), `token leaked in: ${text.slice(0, 300)}`).toBe(false)
  }
}
