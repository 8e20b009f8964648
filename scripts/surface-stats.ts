/**
 * The public surface in numbers: for each entry of package.json `exports`, how many names it exports
 * (runtime values, and type-only names), read from its TypeScript source with the compiler's checker,
 * and how many of its runtime names another entry exports too (the root re-exports `orbitdraw/core` on
 * purpose; any other overlap is a name listed twice). `npx tsx scripts/surface-stats.ts` prints a
 * Markdown table (docs/performance.md, "The public surface").
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The source file of each entry: `./dist/x/index.js` → `src/x/index.ts`. */
function entries(): [string, string][] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> }
  return Object.entries(pkg.exports).map(([key, v]) => [key === '.' ? 'orbitdraw' : `orbitdraw${key.slice(1)}`, join(ROOT, v.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'))])
}

export interface EntryStats {
  readonly entry: string
  readonly runtime: readonly string[]
  readonly types: readonly string[]
}

/** Runtime and type-only export names of each entry. */
export function surfaceStats(): EntryStats[] {
  const list = entries()
  const program = ts.createProgram(list.map(([, file]) => file), { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, noEmit: true, skipLibCheck: true })
  const checker = program.getTypeChecker()
  return list.map(([entry, file]) => {
    const source = program.getSourceFile(file)
    if (source === undefined) throw new Error(`no source for ${entry}: ${file}`)
    const symbol = checker.getSymbolAtLocation(source)
    const runtime: string[] = []
    const types: string[] = []
    for (const exp of symbol === undefined ? [] : checker.getExportsOfModule(symbol)) {
      const target = exp.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exp) : exp
      // A name exported with `export type { X }` is type-only even when X is a class.
      const typeOnly = exp.declarations?.some((d) => ts.isTypeOnlyImportOrExportDeclaration(d)) === true
      if (!typeOnly && target.flags & ts.SymbolFlags.Value) runtime.push(exp.name)
      else types.push(exp.name)
    }
    return { entry, runtime: runtime.sort(), types: types.sort() }
  })
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const stats = surfaceStats()
  const root = stats.find((s) => s.entry === 'orbitdraw')
  const core = stats.find((s) => s.entry === 'orbitdraw/core')
  console.log('| entry | runtime names | type-only names | total |')
  console.log('|---|---:|---:|---:|')
  for (const s of stats) console.log(`| \`${s.entry}\` | ${s.runtime.length} | ${s.types.length} | ${s.runtime.length + s.types.length} |`)
  const seen = new Map<string, string[]>()
  for (const s of stats) for (const n of s.runtime) seen.set(n, [...(seen.get(n) ?? []), s.entry])
  const shared = [...seen].filter(([n, where]) => where.length > 1 && !(where.length === 2 && root !== undefined && core !== undefined && where.includes('orbitdraw') && where.includes('orbitdraw/core') && core.runtime.includes(n)))
  console.log(`\nruntime names in more than one entry (besides orbitdraw ⊇ orbitdraw/core): ${shared.length}`)
  for (const [n, where] of shared) console.log(`  ${n}: ${where.join(', ')}`)
}
