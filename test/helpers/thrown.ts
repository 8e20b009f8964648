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
