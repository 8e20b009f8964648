import { describe, expect, it } from 'vitest'
import * as errorsEntry from '../../src/errors.js'
import * as beaconErrors from '../../src/beacon/errors.js'
import * as restErrors from '../../src/rest/errors.js'
import { BeaconError } from '../../src/beacon/errors.js'
import { OrbitportError } from '../../src/rest/errors.js'
import { AbortedError, NET_ERROR_CODES, NetError, NetworkError, RateLimitedError, TimeoutError, type NetEdge } from '../../src/net/errors.js'
import { OrbitdrawError } from '../../src/core/errors.js'

const EDGES: NetEdge[] = ['beacon', 'rest', 'timestamp']

describe('one network error family', () => {
  it('one class each: orbitdraw/errors exports the family, the edges\' error modules the same classes; the pre-release aliases are gone', () => {
    for (const mod of [errorsEntry, beaconErrors, restErrors] as Record<string, unknown>[]) {
      expect(mod.RateLimitedError).toBe(RateLimitedError)
      expect(mod.NetworkError).toBe(NetworkError)
      expect(mod.TimeoutError).toBe(TimeoutError)
      expect(mod.AbortedError).toBe(AbortedError)
      expect(mod.NetError).toBe(NetError)
    }
    expect(Object.keys(beaconErrors)).not.toContain('GatewayNetworkError')
    expect(Object.keys(beaconErrors)).not.toContain('GatewayTimeoutError')
    expect(Object.keys(restErrors)).not.toContain('AbortError')
    expect('retryAfter' in new RateLimitedError({ edge: 'rest', url: 'http://x', retryAfterMs: 1000 })).toBe(false)
  })

  it('keeps each edge\'s stable code', () => {
    for (const edge of EDGES) {
      expect(new NetworkError({ edge, url: 'http://x' }).code).toBe(NET_ERROR_CODES.network[edge])
      expect(new TimeoutError({ edge, url: 'http://x', timeoutMs: 5 }).code).toBe(NET_ERROR_CODES.timeout[edge])
      expect(new RateLimitedError({ edge, url: 'http://x' }).code).toBe(NET_ERROR_CODES.rateLimited[edge])
      expect(new AbortedError({ edge }).code).toBe(NET_ERROR_CODES.aborted[edge])
    }
    expect(NET_ERROR_CODES.network).toEqual({ beacon: 'GATEWAY_NETWORK_ERROR', rest: 'ORBITPORT_NETWORK', timestamp: 'TIMESTAMP_NETWORK_ERROR' })
    expect(NET_ERROR_CODES.rateLimited.rest).toBe('ORBITPORT_RATE_LIMITED')
    expect(NET_ERROR_CODES.aborted.beacon).toBe('ABORTED')
  })

  it('instanceof BeaconError / OrbitportError holds for its own edge only; subclasses keep the plain check', () => {
    const b = new RateLimitedError({ edge: 'beacon', url: 'http://gw', retryAfterMs: 2000 })
    const r = new RateLimitedError({ edge: 'rest', url: 'http://api', retryAfterMs: 2000 })
    const t = new NetworkError({ edge: 'timestamp', url: 'http://tsa' })
    expect(b).toBeInstanceOf(BeaconError)
    expect(b).not.toBeInstanceOf(OrbitportError)
    expect(r).toBeInstanceOf(OrbitportError)
    expect(r).not.toBeInstanceOf(BeaconError)
    expect(t).not.toBeInstanceOf(BeaconError)
    expect(t).not.toBeInstanceOf(OrbitportError)
    for (const e of [b, r, t]) {
      expect(e).toBeInstanceOf(NetError)
      expect(e).toBeInstanceOf(OrbitdrawError)
      expect(e.name).toBe(e.constructor.name)
    }
    expect(b).not.toBeInstanceOf(beaconErrors.ForkError)
    expect(new beaconErrors.ForkError(1, ['a', 'b'])).toBeInstanceOf(BeaconError)
    expect({}).not.toBeInstanceOf(BeaconError)
  })

  it('RateLimitedError: retryAfterMs in ms; gateway only for the beacon edge', () => {
    const b = new RateLimitedError({ edge: 'beacon', url: 'http://gw', retryAfterMs: 1500, what: 'block x' })
    expect(b.retryAfterMs).toBe(1500)
    expect(b.gateway).toBe('http://gw')
    expect(b.detail).toBe('http://gw rate-limited the request for block x (retry after 2 s)')
    const r = new RateLimitedError({ edge: 'rest', url: 'http://api', serverCode: 'rate_limit_exceeded', serverMessage: 'slow' })
    expect(r.retryAfterMs).toBeUndefined()
    expect(r.gateway).toBeUndefined()
    expect(r.url).toBe('http://api')
    expect(r.detail).toBe('http://api answered HTTP 429 (too many requests): rate_limit_exceeded "slow"')
    expect(r.hint).toBe('slow down and try again later')
  })

  it('TimeoutError says which limit: one attempt or the whole call', () => {
    expect(new TimeoutError({ edge: 'rest', url: 'u', timeoutMs: 5 }).scope).toBe('attempt')
    const d = new TimeoutError({ edge: 'rest', url: 'u', timeoutMs: 30_000, scope: 'deadline' })
    expect(d.detail).toBe('calling u did not succeed within the 30000 ms deadline')
    expect(new TimeoutError({ edge: 'beacon', url: 'http://gw', timeoutMs: 10, what: 'record' }).detail).toBe('http://gw did not answer record within 10 ms')
  })

  it('NetworkError takes the cause\'s message when no detail is given', () => {
    const e = new NetworkError({ edge: 'beacon', url: 'http://gw', what: 'record', cause: new Error('ECONNREFUSED') })
    expect(e.detail).toBe('could not reach http://gw for record: ECONNREFUSED')
    expect(e.cause).toBeInstanceOf(Error)
  })
})
