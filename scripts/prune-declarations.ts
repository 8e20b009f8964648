/**
 * Prunes the `.d.ts` files of `dist/` to what the entries of `package.json` `exports` reach: tsc writes
 * one per module, with every exported declaration of the module, but a user's compiler only ever opens
 * an entry's declarations and what they name. In two passes:
 *
 * 1. Declarations: a declaration (function, class, interface, type, const, enum, namespace) is kept
 *    when an entry exports it or a kept declaration names it (its type, its members' types, a
 *    `typeof`, an `extends`: every identifier in it that resolves to a declaration of `dist/`), found
 *    with the TypeScript checker over the emitted declarations. The rest goes with its TSDoc: the
 *    internals a module exports to its neighbours (the kinds' valibot shapes, the DER reader, the
 *    schema kit's helpers...), which no user can import. Then the `import` and named `export ... from`
 *    bindings that no longer name anything kept. The kept declarations are untouched, TSDoc included.
 * 2. Files: a `.d.ts` that no entry reaches through `from './x.js'` / `import('./x.js')` is deleted (the
 *    internal modules whose types appear in no public signature, the CLI's).
 *
 * Then it compiles every entry's declarations with `skipLibCheck: false` and stops the build on any
 * error in them (a declaration removed while still named). Run after the declarations are emitted (it
 * is part of `npm run build`); `test/package/core-types.test.ts` compiles a consumer against what is
 * left, and `test/package/tarball.test.ts` checks that the tarball holds exactly the reachable files.
 *
 *   npx tsx scripts/prune-declarations.ts [--quiet]
 *
 * @module
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** Relative module specifiers in a declaration file: imports, re-exports and `import('...')` types. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g

/** The `types` of every `exports` entry (and `types`), absolute paths. */
function entryDeclarations(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, { types: string }>; types?: string }
  return [...new Set([...Object.values(pkg.exports).map((e) => e.types), ...(pkg.types === undefined ? [] : [pkg.types])].map((p) => resolve(root, p)))]
}

/** The declaration files reachable from the `types` of every `exports` entry (absolute paths). */
export function reachableDeclarations(root: string = ROOT): Set<string> {
  const stack = entryDeclarations(root)
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

/** Compiler options for the emitted declarations: the project's resolution, Node's types (`orbitdraw/node`). */
function options(skipLibCheck: boolean): ts.CompilerOptions {
  return { noEmit: true, strict: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'], skipLibCheck }
}

/** A top-level statement that declares names (the unit pass 1 keeps or removes). */
function declares(s: ts.Statement): boolean {
  return ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s) || ts.isVariableStatement(s) || (ts.isModuleDeclaration(s) && ts.isIdentifier(s.name))
}

/**
 * Pass 1 (see the module comment): removes from the `.d.ts` files of `dist/` the declarations no entry
 * reaches and the bindings left naming nothing; returns how many declarations and bytes went.
 */
export function pruneStatements(root: string = ROOT): { readonly removed: number; readonly bytes: number } {
  const dist = join(root, 'dist') + sep
  // Only names that resolve to declarations of `dist/` matter here: no default library, no @types.
  const program = ts.createProgram(entryDeclarations(root), { ...options(true), noLib: true, types: [] })
  const checker = program.getTypeChecker()
  const inDist = (n: ts.Node): boolean => n.getSourceFile().fileName.startsWith(dist)
  const top = (n: ts.Node): ts.Statement | undefined => {
    while (n.parent !== undefined && !ts.isSourceFile(n.parent)) n = n.parent
    return n.parent === undefined ? undefined : (n as ts.Statement)
  }
  const resolveAlias = (s: ts.Symbol): ts.Symbol => ((s.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(s) : s)
  const kept = new Set<ts.Statement>()
  const queue: ts.Statement[] = []
  const keep = (symbol: ts.Symbol | undefined): void => {
    if (symbol === undefined) return
    for (const d of resolveAlias(symbol).declarations ?? []) {
      const s = inDist(d) ? top(d) : undefined
      if (s !== undefined && !kept.has(s)) {
        kept.add(s)
        queue.push(s)
      }
    }
  }
  for (const file of entryDeclarations(root)) {
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)
    if (moduleSymbol !== undefined) for (const e of checker.getExportsOfModule(moduleSymbol)) keep(e)
  }
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) keep(checker.getSymbolAtLocation(n))
    ts.forEachChild(n, visit)
  }
  while (queue.length > 0) visit(queue.pop()!)
  const keptSymbol = (symbol: ts.Symbol | undefined): boolean => {
    const decls = symbol === undefined ? [] : (resolveAlias(symbol).declarations ?? [])
    return decls.length === 0 || decls.some((d) => !inDist(d) || kept.has(top(d)!))
  }
  // An export specifier is kept when what it names is kept (an entry's always are).
  const keptSpecifier = (e: ts.ExportSpecifier): boolean => keptSymbol(checker.getExportSpecifierLocalTargetSymbol(e))
  let removed = 0
  let bytes = 0
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(dist)) continue
    const cuts: [number, number, string][] = []
    const dropped = (s: ts.Statement): boolean => declares(s) && !kept.has(s)
    const text0 = sf.getFullText()
    for (const s of sf.statements) {
      if (dropped(s)) {
        // The declaration with its own TSDoc (the last comment before it); a comment before that (the
        // file's @module TSDoc, before its first statement) stays.
        const comments = ts.getLeadingCommentRanges(text0, s.getFullStart()) ?? []
        const own = comments.at(-1)
        cuts.push([comments.length > 1 && own !== undefined && text0.startsWith('/**', own.pos) ? own.pos : s.getFullStart(), s.getEnd(), ''])
        removed++
      } else if (ts.isExportDeclaration(s) && s.exportClause !== undefined && ts.isNamedExports(s.exportClause)) {
        const names = s.exportClause.elements.filter(keptSpecifier)
        if (names.length < s.exportClause.elements.length) cuts.push(names.length === 0 ? [s.getFullStart(), s.getEnd(), ''] : [s.exportClause.getStart(), s.exportClause.getEnd(), `{ ${names.map((n) => n.getText()).join(', ')} }`])
      }
    }
    if (cuts.length === 0) continue
    // The names the remaining text still mentions, its TSDoc included (a `{@link}` keeps its import).
    const rest = sf.statements.filter((s) => !ts.isImportDeclaration(s) && !dropped(s)).map((s) => s.getFullText()).join('\n')
    const used = new Set(rest.match(/[A-Za-z_$][\w$]*/g) ?? [])
    for (const s of sf.statements) {
      const named = ts.isImportDeclaration(s) ? s.importClause : undefined
      if (named === undefined || named.name !== undefined || named.namedBindings === undefined || !ts.isNamedImports(named.namedBindings)) continue
      // Kept when the text still names it and what it imports is kept (or not ours).
      const names = named.namedBindings.elements.filter((e) => used.has(e.name.text) && keptSymbol(checker.getSymbolAtLocation(e.name)))
      if (names.length === named.namedBindings.elements.length) continue
      // From the import itself: a comment before it (a file's @module TSDoc) stays.
      cuts.push(names.length === 0 ? [s.getStart(), s.getEnd(), ''] : [named.namedBindings.getStart(), named.namedBindings.getEnd(), `{ ${names.map((n) => n.getText()).join(', ')} }`])
    }
    let text = text0
    for (const [start, end, by] of cuts.sort((a, b) => b[0] - a[0])) text = text.slice(0, start) + by + text.slice(end)
    // A file left without an import or export would no longer be a module.
    if (!/^(?:import|export) /m.test(text)) text = `${text.trimEnd()}\nexport {};\n`
    bytes += text0.length - text.length
    writeFileSync(sf.fileName, text)
  }
  return { removed, bytes }
}

/** Compiles every entry's declarations (`skipLibCheck: false`); throws on any error in `dist/`. */
export function checkDeclarations(root: string = ROOT): void {
  const program = ts.createProgram(entryDeclarations(root), options(false))
  const dist = join(root, 'dist') + sep
  const errors = program.getSourceFiles().filter((sf) => sf.fileName.startsWith(dist)).flatMap((sf) => [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)])
  if (errors.length > 0) throw new Error(`the pruned declarations do not compile:\n${ts.formatDiagnostics(errors.slice(0, 20), { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' })}`)
}

/** Prunes the declarations under `dist/` (both passes, then the check); returns what went. */
export function pruneDeclarations(root: string = ROOT): { readonly kept: number; readonly removed: number; readonly bytes: number; readonly statements: number; readonly statementBytes: number } {
  const statements = pruneStatements(root)
  const keep = reachableDeclarations(root)
  let removed = 0
  let bytes = 0
  for (const file of declarationsUnder(join(root, 'dist'))) {
    if (keep.has(file)) continue
    bytes += statSync(file).size
    rmSync(file)
    removed++
  }
  checkDeclarations(root)
  return { kept: keep.size, removed, bytes, statements: statements.removed, statementBytes: statements.bytes }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = pruneDeclarations()
  if (!process.argv.includes('--quiet')) process.stdout.write(`declarations: ${r.statements} declarations no export reaches removed from the files (${(r.statementBytes / 1024).toFixed(1)} KiB); ${r.kept} files reachable from package.json exports kept, ${r.removed} others removed (${(r.bytes / 1024).toFixed(1)} KiB)\n`)
}
