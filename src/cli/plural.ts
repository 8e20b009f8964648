/**
 * Wording helpers for counts shown to people: the right plural, thousands separators.
 *
 * @module
 */

/** `n` with thousands separators (`12,345`), the same in every locale so output is stable. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US')
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
