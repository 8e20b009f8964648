/**
 * Human-readable outcome lines shared by `draw` and `verify`, from the kind's `display` (values, or
 * a ranked table), so any registered kind prints without an edit here.
 *
 * @module
 */
import { DEFAULT_DRAW_KINDS, type DrawKinds, type OutcomeBase } from '../../core/kinds/index.js'

/**
 * Lines describing an outcome through its kind's display, at most 50 ranked entries shown. Positions
 * are shown to people 1-based (`position 1` is the list's first entry); JSON output keeps the 0-based
 * `index`. Entries are raw: callers escape each line with `safeText` before printing.
 */
export function describeOutcome(o: OutcomeBase, suffix = '', kinds: DrawKinds = DEFAULT_DRAW_KINDS): string[] {
  const kind = kinds.get(o.kind)
  if (kind === undefined) return [`outcome${suffix}: a ${o.kind} draw (unknown kind)`]
  const d = kind.display(o)
  const title = d.title.toLowerCase()
  if (d.layout === 'values') return [`${title}${suffix}: ${d.values.join(', ')}`]
  const lines = [`${title}${suffix}:`]
  for (const w of d.rows.slice(0, 50)) lines.push(`  ${String(w.rank).padStart(4)}. ${w.entry}  (position ${(w.index + 1).toLocaleString('en-US')})`)
  if (d.rows.length > 50) lines.push(`  … ${(d.rows.length - 50).toLocaleString('en-US')} more (use --json)`)
  return lines
}
