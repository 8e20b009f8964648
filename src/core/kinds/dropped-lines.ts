/**
 * The `--dropped` file of a follow-up draw (`orbitdraw commit --replacing PROOF --dropped IDS`), read by
 * the CLI facets of `panel-replacement` and of the re-roll kinds: one line per member or winner who
 * dropped out, each resolved to its committed index once.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'

/**
 * The committed indices the lines name, in line order. A line that names no one is refused by
 * `unknown(line)`; a line naming someone an earlier line named (a typo for someone else) is
 * `ENTRY_DUPLICATE` with both line numbers, never merged silently.
 * @param noun - what a line names, for the message (`member`, `winner`).
 */
export function droppedIndices(lines: readonly string[], indexOf: (line: string) => number | undefined, unknown: (line: string) => Error, noun: string): number[] {
  const lineOf = new Map<number, number>()
  return lines.map((line, k) => {
    const i = indexOf(line)
    if (i === undefined) throw unknown(line)
    const earlier = lineOf.get(i)
    if (earlier !== undefined) throw new InvalidInputError('ENTRY_DUPLICATE', `--dropped line ${k + 1} (${JSON.stringify(line)}) names the same ${noun} as line ${earlier + 1}`, `list each ${noun} who dropped out once, one per line`, { path: `line ${k + 1}` })
    lineOf.set(i, k)
    return i
  })
}
