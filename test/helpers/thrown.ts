import { expect } from 'vitest'

/**
 * The error a call throws, for assertions on its code, message, hint and path. Fails the test when the
 * call returns, or throws something that is not a `type` (that error is rethrown as the cause).
 */
export function thrownBy<E extends Error>(fn: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    fn()
  } catch (err) {
    if (err instanceof type) return err
    throw new Error(`expected a ${type.name}, got ${String(err)}`, { cause: err })
  }
  throw new Error(`expected a ${type.name}, nothing was thrown`)
}

/** The code and message of the error `p` rejects with (to compare a streamed path's error with the in-memory one's). */
export async function rejectionOf(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const e = (await p.then(() => null, (err: unknown) => err)) as { code: string; message: string } | null
  if (e === null) throw new Error('expected a rejection, the promise resolved')
  return { code: e.code, message: e.message }
}

/** The code and message of the error `fn` throws. */
export function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn()
  } catch (err) {
    return { code: (err as { code: string }).code, message: (err as Error).message }
  }
  throw new Error('expected an error, nothing was thrown')
}

/** The `code` of the error `fn` throws, or undefined when it returns (or throws an error without one). */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (err) {
    return (err as { code?: string }).code
  }
  return undefined
}

/** The error `p` rejects with. Fails the test when `p` resolves, or rejects with something that is not a `type`. */
export async function rejectedBy<E extends Error>(p: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(type)
  return err as E
}

/**
 * What `fn` throws as a comparable value (its class name and message), or undefined when it returns:
 * to check that a replacement throws what the code it stands in for throws.
 */
export function thrownShape(fn: () => unknown): { name: string; message: string } | undefined {
  try {
    fn()
    return undefined
  } catch (e) {
    return { name: (e as Error).constructor.name, message: (e as Error).message }
  }
}
