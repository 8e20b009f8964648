/**
 * The re-roll kinds on the command line (`orbitdraw commit --reroll next|fresh --replacing PROOF
 * --dropped IDS -p FILE`): the followed proof and the declined winners' entries (one per line) make
 * the spec (./reroll-draw.ts `rerollDraw`); the participants are the followed draw's own list, read as
 * for any draw (`--participants`, `--column`, `--weight-column`). `--replacing` and `--dropped` are the
 * panel replacement's follow-up flags, shared (same file formats).
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import type { DrawSpecBase, KindCli, RankedJson } from './kind.js'
import { rerollDraw } from './reroll-draw.js'
import { droppedIndices } from './dropped-lines.js'

/** The `cli` facet of `reroll` (it builds a `weighted-reroll` spec when the followed draw is weighted). */
export const rerollCli: KindCli<DrawSpecBase> = {
  flag: 'reroll',
  options: { reroll: 'string', replacing: 'string', dropped: 'string' },
  usage: '--reroll next|fresh --replacing PROOF --dropped IDS',
  help:
    '  --reroll next|fresh --replacing PROOF --dropped IDS [--secret FILE]\n' +
    '                           re-roll the winners of the pick or weighted draw of PROOF who declined\n' +
    '                           (IDS: their entries, one per line): next = the next entries of its committed\n' +
    '                           ranking, fresh = a fresh draw among those who never won; with the same\n' +
    '                           --participants; a private list needs the original --secret FILE',
  fromFlags: () => {
    throw new InvalidInputError('INVALID_FLAG', '--reroll needs --replacing PROOF and --dropped IDS', 'add --replacing proof.json --dropped declined.txt')
  },
  files: { replacing: 'proof-json', dropped: 'text-lines' },
  build(flags, files) {
    const rule = flags.reroll
    if (rule !== 'next' && rule !== 'fresh') throw new InvalidInputError('INVALID_FLAG', `--reroll must be next or fresh, got ${JSON.stringify(rule)}`, 'use --reroll next (the committed ranking) or --reroll fresh (a new draw among those who never won)')
    const original = files.replacing as { commitment?: { draw?: { kind?: unknown } }; commitmentCid?: unknown; seed: string; outcome?: { winners?: readonly RankedJson[] } }
    if (typeof original !== 'object' || original === null || typeof original.commitmentCid !== 'string' || !Array.isArray(original.outcome?.winners)) {
      throw new InvalidInputError('INVALID_ARGUMENT', '--replacing needs the proof of a pick or weighted draw (or of a re-roll)', 'pass the proof file orbitdraw draw wrote')
    }
    const byEntry = new Map(original.outcome.winners.map((w) => [w.entry, w.index]))
    const dropped = droppedIndices(
      files.dropped as string[],
      (line) => byEntry.get(line) ?? byEntry.get(line.trim()),
      (line) => new InvalidInputError('INVALID_ARGUMENT', `${JSON.stringify(line)} is not a winner of the original draw`, 'list the declined winners\' entries as the proof shows them, one per line'),
      'winner',
    )
    return { draw: rerollDraw(original as { commitment: object; seed: string; outcome: unknown }, dropped, original.commitmentCid, rule) }
  },
}
