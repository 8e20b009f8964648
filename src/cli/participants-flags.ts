/**
 * The participants flags shared by `commit`, `draw` and `receipts` (`--participants`, `--format`,
 * `--column`, `--weight-column`): their options, help and reader. A module of its own so that `draw`
 * does not load `commit` (the sortition CSV readers, the time-stamping client, the planner's
 * explanations) to read a list.
 *
 * @module
 */
import type { WeightedEntry } from '../core/participants.js'
import type { Flags } from './command.js'
import { UsageError } from './exit-codes.js'
import { stringFlag } from './flags.js'
import { readParticipants, type ParticipantsFormat } from './participants-file.js'

/** Flags that read a participants file (shared with `draw`). */
export const PARTICIPANTS_OPTIONS = {
  participants: { type: 'string', short: 'p' },
  format: { type: 'string' },
  column: { type: 'string' },
  'weight-column': { type: 'string' },
} as const

export const PARTICIPANTS_HELP = `Participants:
  -p, --participants FILE  one entry per line, a CSV column, or a JSON array; - for standard input
  --format lines|csv|json  layout (default from the extension: .csv, .json, anything else lines)
  --column C               CSV: the column with the entries (header name or 1-based number; default 1)
  --weight-column W        CSV: a column of whole-number weights (for --weighted)
  Entries are used exactly as written: no trimming, no blank lines, no duplicates.`

/** Reads the participants named by the shared flags. */
export async function participantsFrom(flags: Flags, command: string): Promise<string[] | WeightedEntry[]> {
  const path = stringFlag(flags, 'participants')
  if (path === undefined) throw new UsageError('--participants FILE is required (one entry per line, a CSV or a JSON array; - for stdin)', command)
  const format = stringFlag(flags, 'format')
  if (format !== undefined && format !== 'lines' && format !== 'csv' && format !== 'json') throw new UsageError(`--format must be lines, csv or json, got ${JSON.stringify(format)}`, command)
  const column = stringFlag(flags, 'column')
  const weightColumn = stringFlag(flags, 'weight-column')
  const isCsv = format === 'csv' || (format === undefined && path.endsWith('.csv'))
  if (!isCsv && (column !== undefined || weightColumn !== undefined)) throw new UsageError('--column and --weight-column are for CSV participants (--format csv or a .csv file)', command)
  return readParticipants(path, {
    ...(format !== undefined ? { format: format as ParticipantsFormat } : {}),
    ...(column !== undefined ? { column } : {}),
    ...(weightColumn !== undefined ? { weightColumn } : {}),
  })
}

/** True when the participants flags name a weighted CSV file (`--weight-column`, not standard input): read as a stream (`commit`, and `draw` of a weighted kind). */
export function streamsWeightedCsv(flags: Flags): boolean {
  const path = stringFlag(flags, 'participants')
  const format = stringFlag(flags, 'format')
  if (path === undefined || path === '-' || flags['weight-column'] === undefined) return false
  return format === 'csv' || (format === undefined && path.endsWith('.csv'))
}

/** True when the participants flags name a file of lines (not standard input, CSV or JSON): read as a stream (`commit`, and `draw` of kinds that allow it). */
export function streamsLines(flags: Flags): boolean {
  const path = stringFlag(flags, 'participants')
  const format = stringFlag(flags, 'format')
  if (path === undefined || path === '-' || flags.column !== undefined || flags['weight-column'] !== undefined) return false
  return format === 'lines' || (format === undefined && !path.endsWith('.csv') && !path.endsWith('.json'))
}
