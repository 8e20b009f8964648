/**
 * Gateways cannot steer the client: a redirect to another origin is refused before any request goes
 * there (a gateway could otherwise make the client probe internal addresses), same-origin redirects
 * are followed a few hops, and a caller's allow-list opens other origins explicitly.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import { AllGatewaysFailedError, RedirectRefusedError } from '../../src/beacon/errors.js'
import { InvalidInputError } from '../../src/core/errors.js'
import { startBeaconEmulator, type ServedBeaconEmulator } from '../../src/emulator/beacon.js'
import { startHttpServer, type RunningHttpServer } from '../../src/emulator/http.js'
import { rejectedBy } from '../helpers/thrown.js'

let emu: ServedBeaconEmulator
let other: { url: string; close(): Promise<void> }
/** A second origin that must never be asked: it counts every request it gets. */
let trap: RunningHttpServer
let trapHits: string[] = []

beforeAll(async () => {
  emu = await startBeaconEmulator({ intervalMs: 0, initialBlocks: 3 })
  other = await emu.addGateway()
  trap = await startHttpServer([
    (req, res) => {
      trapHits.push(req.url ?? '')
      res.writeHead(500).end()
      return true
    },
  ])
})
afterAll(async () => {
  await trap.close()
  await emu.stop()
})
afterEach(() => {
  emu.faults.clear()
  trapHits = []
})

const single = (opts: Partial<ConstructorParameters<typeof BeaconClient>[0]> = {}) =>
  new BeaconClient({ gateways: [emu.url], name: emu.beaconName, retries: 0, timeoutMs: 2000, ...opts })

const failureOf = (p: Promise<unknown>): Promise<AllGatewaysFailedError> => rejectedBy(p, AllGatewaysFailedError)

describe('BeaconClient redirects', () => {
  for (const status of [301, 302, 303, 307, 308] as const) {
    it(`a ${status} to another origin is refused, typed, and the other origin is never asked`, async () => {
      emu.faults.add('*', { kind: 'redirect', to: trap.url, status })
      const err = await failureOf(single().latest())
      const cause = err.failures[0]!.error as RedirectRefusedError
      expect(cause).toBeInstanceOf(RedirectRefusedError)
      expect(cause.code).toBe('GATEWAY_REDIRECT_REFUSED')
      expect(cause.reason).toBe('cross-origin')
      expect(cause.toOrigin).toBe(new URL(trap.url).origin)
      expect(cause.detail).toContain('was not sent there')
      expect(cause.hint).toContain('allowedRedirectOrigins')
      expect(err.message).toContain('GATEWAY_REDIRECT_REFUSED')
      expect(trapHits).toEqual([])
    })
  }

  it('a block fetch redirected to another origin is refused too; another gateway serves it', async () => {
    const c = new BeaconClient({ gateways: [emu.url, other.url], name: emu.beaconName, retries: 0 })
    emu.faults.add('block', { kind: 'redirect', to: trap.url })
    const head = await c.latest()
    expect(head.block.cid).toBe(emu.beacon.head().cid)
    expect(trapHits).toEqual([])
  })

  it('same-origin redirects are followed (a few hops)', async () => {
    emu.faults.add('*', { kind: 'redirect', to: emu.url, status: 307 }, { times: 3 })
    const head = await single().latest()
    expect(head.authenticated).toBe(true)
  })

  it('more than maxRedirects same-origin hops is refused (too-many)', async () => {
    emu.faults.add('*', { kind: 'redirect', to: emu.url }, { times: 2 })
    const err = await failureOf(single({ maxRedirects: 1 }).latest())
    expect((err.failures[0]!.error as RedirectRefusedError).reason).toBe('too-many')
  })

  it('maxRedirects: 0 follows none', async () => {
    emu.faults.add('*', { kind: 'redirect', to: emu.url }, { times: 1 })
    const err = await failureOf(single({ maxRedirects: 0 }).latest())
    expect(err.failures[0]!.error).toBeInstanceOf(RedirectRefusedError)
  })

  it('an allow-listed origin is followed', async () => {
    emu.faults.add('*', { kind: 'redirect', to: other.url })
    const head = await single({ allowedRedirectOrigins: [other.url] }).latest()
    expect(head.block.cid).toBe(emu.beacon.head().cid)
  })

  it('a redirect to a non-http scheme is refused (bad-location)', async () => {
    const fake = async (): Promise<Response> => new Response(null, { status: 302, headers: { location: 'file:///etc/passwd' } })
    const err = await failureOf(single({ fetch: fake }).latest())
    expect((err.failures[0]!.error as RedirectRefusedError).reason).toBe('bad-location')
  })

  it('a fetch that follows redirects by itself to a foreign origin is still refused', async () => {
    const fake = async (): Promise<Response> => {
      const r = new Response('x', { status: 200 })
      Object.defineProperty(r, 'redirected', { value: true })
      Object.defineProperty(r, 'url', { value: `${trap.url}/ipns/x` })
      return r
    }
    const err = await failureOf(single({ fetch: fake }).latest())
    expect((err.failures[0]!.error as RedirectRefusedError).reason).toBe('cross-origin')
  })

  it('bad allowedRedirectOrigins is a typed input error', () => {
    expect(() => single({ allowedRedirectOrigins: ['ftp://x'] })).toThrow(InvalidInputError)
    expect(() => single({ maxRedirects: -1 })).toThrow(InvalidInputError)
  })
})
