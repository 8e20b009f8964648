/**
 * Wording helpers for counts shown to people: the right plural, thousands separators.
 *
 * @module
 */

/**
 * `n` with thousands separators (`12,345`), the same in every locale so output is stable: exactly
 * `n.toLocaleString('en-US')`. Integers are grouped here, without `Intl`: the first use of ICU's
 * number formatting costs several milliseconds of start-up (see docs/performance.md, Start-up), more than
 * `orbitdraw verify` spends on its whole report.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US')
  if (Object.is(n, -0)) return '-0'
  const digits = String(Math.abs(n))
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1)
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`
  return n < 0 ? `-${out}` : out
}

/**
 * `n` and the noun, singular for exactly 1: `1 entry`, `2 entries`, `12,345 blocks`.
 *
 * @example
 * ```ts
 * plural(1, 'entry', 'entries') // '1 entry'
 * plural(1500, 'block') // '1,500 blocks'
 * ```
 */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : pluralForm}`
}
