import { afterEach, describe, expect, it, vi } from 'vitest'
import { MAX_TIMER_MS, raceAbort, sleep, throwIfAborted, timedSignal } from '../../src/net/abort.js'
import { AbortedError } from '../../src/net/errors.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('sleep', () => {
  it('resolves after its time, not before (fake timers)', async () => {
    vi.useFakeTimers()
    let done = false
    const p = sleep(1000, undefined, { edge: 'beacon' }).then(() => (done = true))
    await vi.advanceTimersByTimeAsync(999)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await p
    expect(done).toBe(true)
  })

  it('a wait past the 2^31 − 1 ms a timer keeps is chained, never fired at once (fuzzing pass 3: a Retry-After of years slept 1 ms)', async () => {
    const ac = new AbortController()
    let done = false
    const p = sleep(3e9, ac.signal, { edge: 'beacon' }).then(() => (done = true))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(done).toBe(false)
    ac.abort()
    await expect(p).rejects.toBeInstanceOf(AbortedError)
    vi.useFakeTimers()
    let later = false
    const q = sleep(MAX_TIMER_MS + 1000, undefined, { edge: 'beacon' }).then(() => (later = true))
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS)
    expect(later).toBe(false)
    await vi.advanceTimersByTimeAsync(1000)
    await q
    expect(later).toBe(true)
  })

  it('an abort mid-way rejects at once with the edge\'s AbortedError (reason as cause) and clears the timer', async () => {
    vi.useFakeTimers()
    const ac = new AbortController()
    const p = sleep(60_000, ac.signal, { edge: 'beacon', what: 'waitFor(7)' })
    expect(vi.getTimerCount()).toBe(1)
    const reason = new Error('user')
    ac.abort(reason)
    const err = await p.catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AbortedError)
    expect(err).toMatchObject({ code: 'ABORTED', edge: 'beacon', cause: reason })
    expect((err as Error).message).toContain('waitFor(7) was aborted')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('an already-aborted signal rejects without a timer; REST aborts keep their code', async () => {
    vi.useFakeTimers()
    const ac = new AbortController()
    ac.abort()
    await expect(sleep(10, ac.signal, { edge: 'rest' })).rejects.toMatchObject({ code: 'ORBITPORT_ABORTED', edge: 'rest' })
    expect(vi.getTimerCount()).toBe(0)
    expect(() => throwIfAborted(ac.signal, { edge: 'timestamp' })).toThrow(AbortedError)
    expect(() => throwIfAborted(undefined, { edge: 'timestamp' })).not.toThrow()
  })

  it('zero, negative and NaN durations resolve at once', async () => {
    vi.useFakeTimers()
    await sleep(0, undefined, { edge: 'beacon' })
    await sleep(-5, undefined, { edge: 'beacon' })
    await sleep(Number.NaN, undefined, { edge: 'beacon' })
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('raceAbort', () => {
  it('passes the value or error through, and stops only this caller on abort', async () => {
    expect(await raceAbort(Promise.resolve(4), new AbortController().signal, { edge: 'rest' })).toBe(4)
    await expect(raceAbort(Promise.reject(new Error('x')), new AbortController().signal, { edge: 'rest' })).rejects.toThrow('x')
    let resolveShared!: (v: number) => void
    const shared = new Promise<number>((r) => (resolveShared = r))
    const ac = new AbortController()
    const mine = raceAbort(shared, ac.signal, { edge: 'rest' })
    ac.abort()
    await expect(mine).rejects.toMatchObject({ code: 'ORBITPORT_ABORTED' })
    resolveShared(5)
    expect(await shared).toBe(5)
  })
})

describe('timedSignal', () => {
  it('a timeout past 2^31 − 1 ms is kept, not fired after 1 ms (fuzzing pass 3: --timeout-ms 3000000000 timed every request out at once)', async () => {
    const t = timedSignal(3e9, undefined)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(t.signal.aborted).toBe(false)
    expect(t.timedOut()).toBe(false)
    t.dispose()
  })

  it('fires on the timeout and says so', async () => {
    vi.useFakeTimers()
    const t = timedSignal(500, undefined)
    expect(t.signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(500)
    expect(t.signal.aborted).toBe(true)
    expect(t.timedOut()).toBe(true)
    expect(t.callerAborted()).toBe(false)
    t.dispose()
  })

  it('fires with the caller (reason passed on), already-aborted callers included; dispose clears the timer', async () => {
    vi.useFakeTimers()
    const ac = new AbortController()
    const t = timedSignal(500, ac.signal)
    ac.abort('stop')
    expect(t.signal.aborted).toBe(true)
    expect(t.signal.reason).toBe('stop')
    expect(t.timedOut()).toBe(false)
    expect(t.callerAborted()).toBe(true)
    t.dispose()
    expect(vi.getTimerCount()).toBe(0)
    const u = timedSignal(500, ac.signal)
    expect(u.signal.aborted).toBe(true)
    u.dispose()
  })
})
