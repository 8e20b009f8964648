/**
 * Human-readable outcome lines shared by `draw` and `verify`.
 *
 * @module
 */
import type { OutcomeJson } from '../../core/index.js'

/**
 * Lines describing an outcome, at most 50 ranked entries shown. Positions are shown to people
 * 1-based (`position 1` is the list's first entry); JSON output keeps the 0-based `index`. Entries are
 * raw: callers escape each line with `safeText` before printing.
 */
export function describeOutcome(o: OutcomeJson, suffix = ''): string[] {
  const lines: string[] = []
  if (o.kind === 'range') {
    lines.push(`values${suffix}: ${o.values.join(', ')}`)
    return lines
  }
  const ranked = o.kind === 'shuffle' ? o.ranking : o.winners
  lines.push(o.kind === 'shuffle' ? `ranking${suffix}:` : `winners${suffix}:`)
  for (const w of ranked.slice(0, 50)) lines.push(`  ${String(w.rank).padStart(4)}. ${w.entry}  (position ${(w.index + 1).toLocaleString('en-US')})`)
  if (ranked.length > 50) lines.push(`  … ${(ranked.length - 50).toLocaleString('en-US')} more (use --json)`)
  return lines
}
