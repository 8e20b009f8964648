/**
 * The input files a draw kind names (`KindCli.files`): the CLI reads each given file in its format
 * and hands the parsed values to the kind's `build`. One reader per format, none per kind.
 *
 * @module
 */
import type { KindFlags } from '../core/kinds/kind.js'
import type { KindFiles } from '../core/kinds/kind.js'
import type { KindFileFormat } from '../core/kinds/kind.js'
import type { AnyDrawKind } from '../core/kinds/kind.js'
import { readHouseholdPoolCsv, readLotteryCsv, readPoolCsv, readQuotasCsv } from '../sortition/csv.js'
import { readStagesFile } from './stages-file.js'
import { UsageError } from './exit-codes.js'
import { readProofFile, readTextLines } from './follow-up-files.js'

const READERS: { readonly [F in KindFileFormat]: (path: string, flags: KindFlags) => Promise<unknown> } = {
  // With --household-column C: the pool without column C and the household values (docs/sortition.md, Households).
  'sortition-pool': (path, flags) => (typeof flags['household-column'] === 'string' ? readHouseholdPoolCsv(path, { householdColumn: flags['household-column'] }) : readPoolCsv(path)),
  'sortition-quotas': (path) => readQuotasCsv(path),
  'sortition-lottery': (path) => readLotteryCsv(path),
  // A follow-up (orbitdraw commit --replacing): the original proof, and lists of one item per line.
  'proof-json': (path) => readProofFile(path),
  'text-lines': (path) => readTextLines(path),
  'allocation-stages': (path) => readStagesFile(path),
}

/**
 * Reads every file the kind's flags name; each of its file flags is required.
 * @throws {@link UsageError} for a missing file flag; the readers' errors (`INVALID_CSV`, …) otherwise.
 */
export async function readKindFiles(kind: AnyDrawKind, flags: KindFlags, command: string): Promise<KindFiles> {
  const out: Record<string, unknown> = {}
  for (const [flag, format] of Object.entries(kind.cli?.files ?? {})) {
    const path = flags[flag]
    if (typeof path !== 'string' || path === '') throw new UsageError(`--${kind.cli!.flag} needs --${flag} FILE`, command)
    out[flag] = await READERS[format](path, flags)
  }
  return out
}

/** Where commit writes a kind's built participants: next to the commitment, `NAME.participants.txt`. */
export function participantsPathFor(commitmentPath: string): string {
  return `${commitmentPath.endsWith('.json') ? commitmentPath.slice(0, -'.json'.length) : commitmentPath}.participants.txt`
}
