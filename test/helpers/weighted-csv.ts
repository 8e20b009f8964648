/**
 * A weighted participants CSV as the streamed readers' tests write it: a header `id,name,tickets`, then
 * one row per `{ entry, weight }` (its index, the entry quoted when it must be, the weight).
 */
import type { WeightedEntry } from '../../src/core/index.js'

/** One CSV field, quoted (its quotes doubled) when it holds a quote, a comma or a line break. */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

/** The CSV text of `list`, every row ended by a newline (`\r\n` with `crlf`). */
export function weightedCsv(list: readonly WeightedEntry[], crlf = false): string {
  const nl = crlf ? '\r\n' : '\n'
  return ['id,name,tickets', ...list.map((w, i) => `${i},${csvField(w.entry)},${w.weight}`)].join(nl) + nl
}
