/**
 * `npm run bench`: runs every `bench/*.bench.ts` (alphabetical) and prints one Markdown table.
 * Each module's default export is `() => Promise<BenchRow[]>`.
 * Pass a substring to run only matching files: `npm run bench -- merkle`.
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { formatRows, type BenchRow } from './harness.js'

const here = dirname(fileURLToPath(import.meta.url))
const filter = process.argv[2]
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && (filter === undefined || f.includes(filter)))
  .sort()

const rows: BenchRow[] = []
for (const f of files) {
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { default: () => Promise<BenchRow[]> }
  process.stderr.write(`running ${f}...\n`)
  rows.push(...(await mod.default()))
}
console.log(`node ${process.version}, ${process.arch}\n`)
console.log(formatRows(rows))
