/**
 * The input files a draw kind names (`KindCli.files`): the CLI reads each given file in its format
 * and hands the parsed values to the kind's `build`. One reader per format, none per kind.
 *
 * @module
 */
import type { AnyDrawKind, KindFileFormat, KindFiles, KindFlags } from '../core/index.js'
import { readLotteryCsv, readPoolCsv, readQuotasCsv } from '../sortition/csv.js'
import { readStagesFile } from './stages-file.js'
import { UsageError } from './exit-codes.js'

const READERS: { readonly [F in KindFileFormat]: (path: string) => Promise<unknown> } = {
  'sortition-pool': (path) => readPoolCsv(path),
  'sortition-quotas': (path) => readQuotasCsv(path),
  'sortition-lottery': (path) => readLotteryCsv(path),
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
    out[flag] = await READERS[format](path)
  }
  return out
}

/** Where commit writes a kind's built participants: next to the commitment, `NAME.participants.txt`. */
export function participantsPathFor(commitmentPath: string): string {
  return `${commitmentPath.endsWith('.json') ? commitmentPath.slice(0, -'.json'.length) : commitmentPath}.participants.txt`
}
