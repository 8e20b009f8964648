import { describe, expect, it } from 'vitest'
import { AllGatewaysFailedError, NetworkError, TimeoutError } from '../../src/beacon/errors.js'

describe('AllGatewaysFailedError message', () => {
  it('names each gateway and error once, with a count for repeats across retry rounds', () => {
    const a = 'http://127.0.0.1:1'
    const b = 'http://127.0.0.1:2'
    const failures = [
      { gateway: a, error: new NetworkError({ edge: 'beacon', url: a, what: 'record' }) },
      { gateway: b, error: new TimeoutError({ edge: 'beacon', url: b, timeoutMs: 100, what: 'record' }) },
      { gateway: a, error: new NetworkError({ edge: 'beacon', url: a, what: 'record' }) },
      { gateway: b, error: new TimeoutError({ edge: 'beacon', url: b, timeoutMs: 100, what: 'record' }) },
      { gateway: a, error: new NetworkError({ edge: 'beacon', url: a, what: 'record' }) },
    ]
    const err = new AllGatewaysFailedError('head', failures)
    expect(err.failures).toHaveLength(5)
    expect(err.detail).toBe(`no gateway gave a verified head (${a}: ${failures[0]!.error.code} ×3; ${b}: ${failures[1]!.error.code} ×2)`)
    expect(new AllGatewaysFailedError('head', failures.slice(0, 2)).detail).not.toMatch(/×/)
  })
})
