/**
 * Finds import cycles among the TypeScript sources under a folder: a tiny graph walk over relative
 * `import … from` / `export … from` / `import('…')` specifiers (type-only imports included: a type
 * cycle is still two modules that cannot be understood apart). Used by
 * `test/hardening/import-cycles.test.ts`; run it directly with `npx tsx scripts/import-cycles.ts [dir]`.
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

function sourcesUnder(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) out.push(...sourcesUnder(p))
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p)
  }
  return out
}

/** The relative imports of one file, resolved to `.ts` paths (`./x.js` → `./x.ts`). */
export function importsOf(file: string, text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2]!
    out.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
  }
  return out
}

/**
 * Every import cycle among the `.ts` files under `root`, each as the list of files (relative to
 * `root`) from its first file back to it. Each cycle is reported once (from one of its members).
 */
export function findImportCycles(root: string): string[][] {
  const files = sourcesUnder(root)
  const known = new Set(files)
  const graph = new Map(files.map((f) => [f, importsOf(f, readFileSync(f, 'utf8')).filter((t) => known.has(t))]))
  const state = new Map<string, 'active' | 'done'>()
  const stack: string[] = []
  const cycles: string[][] = []
  const seen = new Set<string>()
  const visit = (f: string): void => {
    state.set(f, 'active')
    stack.push(f)
    for (const t of graph.get(f) ?? []) {
      const s = state.get(t)
      if (s === 'active') {
        const cycle = stack.slice(stack.indexOf(t)).map((x) => relative(root, x))
        const key = [...cycle].sort().join('|')
        if (!seen.has(key)) {
          seen.add(key)
          cycles.push([...cycle, relative(root, t)])
        }
      } else if (s === undefined) visit(t)
    }
    stack.pop()
    state.set(f, 'done')
  }
  for (const f of files) if (!state.has(f)) visit(f)
  return cycles
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? 'src')
  const cycles = findImportCycles(root)
  for (const c of cycles) console.log(c.join(' -> '))
  console.log(cycles.length === 0 ? 'no import cycles' : `${cycles.length} import cycle(s)`)
  process.exitCode = cycles.length === 0 ? 0 : 1
}
