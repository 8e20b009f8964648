/**
 * Human-readable outcome lines shared by `draw` and `verify`, from the kind's `display` (values, a
 * ranked table, a plain table, or titled sections of those), so any registered kind prints without
 * an edit here.
 *
 * @module
 */
import { createRequire } from 'node:module'
import { DEFAULT_DRAW_KINDS } from '../../core/kinds/registry.js'
import { type DisplaySection, type DrawKinds, type OutcomeBase, type TableCell, type TableDisplay } from '../../core/kinds/kind.js'
import { formatCount } from '../plural.js'
import { safeText } from '../safe-text.js'

// string-width: the terminal width of a cell (East Asian wide characters count 2, combining marks
// and emoji sequences as the terminal draws them), so table columns line up for any script; a
// width table is not this project's logic to maintain. Loading it builds an `Intl.Segmenter` and
// Unicode property tables, which costs `orbitdraw verify` more start-up than the rest of its report
// (docs/performance.md, Start-up), so it is loaded (synchronously: `describeOutcome` is synchronous) on
// the first cell that is not printable ASCII (or the ✓ and ✗ marks, one column each); such a string is
// as wide as it is long.
let stringWidth: ((s: string) => number) | undefined

/** The terminal width of `s` (already escaped with `safeText`). */
export function cellWidth(s: string): number {
  if (/^[\x20-\x7e\u2713\u2717]*$/.test(s)) return s.length
  stringWidth ??= (createRequire(import.meta.url)('string-width') as { default: (s: string) => number }).default
  return stringWidth(s)
}

/** The most rows of one ranked list or table printed; the rest is counted (the JSON has them all). */
export const MAX_PRINTED_ROWS = 50

const more = (total: number, indent: string): string[] => (total > MAX_PRINTED_ROWS ? [`${indent}… ${formatCount(total - MAX_PRINTED_ROWS)} more (use --json)`] : [])

/** A cell as printed: escaped, and its emphasis as a mark (never colour alone). */
function cellText(c: TableCell): string {
  if (typeof c === 'string') return safeText(c)
  return `${safeText(c.text)} ${c.tone === 'ok' ? '✓' : '✗'}`
}

/** Pads `s` to `width` terminal columns, on the right (left-aligned) or on the left. */
function pad(s: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - cellWidth(s)))
  return align === 'right' ? fill + s : s + fill
}

/** A table as aligned columns, a header row and a rule under it; every cell escaped first. */
function tableLines(t: TableDisplay, indent: string): string[] {
  const head = t.columns.map((c) => safeText(c.label))
  const body = t.rows.slice(0, MAX_PRINTED_ROWS).map((r) => t.columns.map((_, i) => cellText(r[i] ?? '')))
  const widths = head.map((h, i) => Math.max(cellWidth(h), ...body.map((r) => cellWidth(r[i]!))))
  const align = t.columns.map((c) => c.align ?? 'left')
  // No trailing spaces (the last columns may be left-aligned or empty).
  const line = (cells: readonly string[]): string => `${indent}${cells.map((c, i) => pad(c, widths[i]!, align[i]!)).join('  ')}`.trimEnd()
  return [line(head), `${indent}${widths.map((w) => '─'.repeat(w)).join('  ')}`, ...body.map(line), ...more(t.rows.length, indent)]
}

/** One section (or a whole single-section display): a title line, an optional note, its rows. */
function sectionLines(d: DisplaySection, heading: string, indent: string): string[] {
  const note = d.note === undefined ? [] : [`${indent}${safeText(d.note)}`]
  if (d.layout === 'values') return [`${heading}: ${d.values.map(safeText).join(', ')}`, ...note]
  const lines = [`${heading}:`, ...note]
  if (d.layout === 'table') return [...lines, ...tableLines(d, indent)]
  for (const w of d.rows.slice(0, MAX_PRINTED_ROWS)) lines.push(`${indent}${String(w.rank).padStart(4)}. ${safeText(w.entry)}  (position ${formatCount(w.index + 1)})`)
  return [...lines, ...more(d.rows.length, indent)]
}

/**
 * Lines describing an outcome through its kind's display, at most {@link MAX_PRINTED_ROWS} rows of
 * each ranked list or table shown. Positions are shown to people 1-based (`position 1` is the list's
 * first entry); JSON output keeps the 0-based `index`. Every line is already escaped with `safeText`
 * (table columns are aligned on the escaped text): callers print them as they are.
 */
export function describeOutcome(o: OutcomeBase, suffix = '', kinds: DrawKinds = DEFAULT_DRAW_KINDS): string[] {
  const kind = kinds.get(o.kind)
  if (kind === undefined) return [safeText(`outcome${suffix}: a ${o.kind} draw (unknown kind)`)]
  const d = kind.display(o)
  const title = `${safeText(d.title.toLowerCase())}${safeText(suffix)}`
  if (d.layout !== 'sections') return sectionLines(d, title, '  ')
  return [`${title}:`, ...d.sections.flatMap((s) => sectionLines(s, `  ${safeText(s.title)}`, '    '))]
}
