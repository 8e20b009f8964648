/**
 * Deletes the `.d.ts` files of `dist/` that no entry of `package.json` `exports` reaches: tsc writes one
 * per module, but a user's compiler only ever opens an entry's declarations and what they import
 * (`from './x.js'`, `import('./x.js')`), so the rest (internal modules whose types appear in no public
 * signature, the CLI's) would only weigh on the tarball. Run after the declarations are emitted (it is
 * part of `npm run build`); `test/package/core-types.test.ts` compiles a consumer against what is left
 * with `skipLibCheck: false`, so a declaration deleted while still reachable fails there.
 *
 *   npx tsx scripts/prune-declarations.ts [--quiet]
 *
 * @module
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** Relative module specifiers in a declaration file: imports, re-exports and `import('...')` types. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g

/** The declaration files reachable from the `types` of every `exports` entry (absolute paths). */
export function reachableDeclarations(root: string = ROOT): Set<string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, { types: string }>; types?: string }
  const stack = [...Object.values(pkg.exports).map((e) => e.types), ...(pkg.types === undefined ? [] : [pkg.types])].map((p) => resolve(root, p))
  const seen = new Set<string>()
  while (stack.length > 0) {
    const file = stack.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    for (const m of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const target = resolve(dirname(file), m[1]!.replace(/\.js$/, '.d.ts'))
      // A declaration that names a module without one would fail every consumer: stop the build.
      if (!statSync(target, { throwIfNoEntry: false })?.isFile()) throw new Error(`${relative(root, file)} imports ${m[1]}, which has no declaration file`)
      stack.push(target)
    }
  }
  return seen
}

function declarationsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name))
}

/** Deletes the unreachable declarations under `dist/`; returns how many files and bytes went. */
export function pruneDeclarations(root: string = ROOT): { readonly kept: number; readonly removed: number; readonly bytes: number } {
  const keep = reachableDeclarations(root)
  let removed = 0
  let bytes = 0
  for (const file of declarationsUnder(join(root, 'dist'))) {
    if (keep.has(file)) continue
    bytes += statSync(file).size
    rmSync(file)
    removed++
  }
  return { kept: keep.size, removed, bytes }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = pruneDeclarations()
  if (!process.argv.includes('--quiet')) process.stdout.write(`declarations: ${r.kept} reachable from package.json exports kept, ${r.removed} others removed (${(r.bytes / 1024).toFixed(1)} KiB)\n`)
}
