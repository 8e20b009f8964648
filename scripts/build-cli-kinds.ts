/**
 * The verify bundle's draw kinds, for `scripts/build-cli.ts`: the kinds a raffle's proof uses
 * ({@link FILE_KINDS}) stay in the verify file, every other built-in kind goes to a second CommonJS file,
 * {@link KINDS_FILE}, that the verify file `require`s the first time a proof of such a kind is read.
 *
 * Why a second file: V8 reads and pre-parses the whole of a script before it runs any of it, lazily
 * evaluated modules included. The sortition engine, the allocation code and the other kinds were about
 * 110 kB of the 420 kB verify file, read and pre-parsed by every `orbitdraw verify`, a `pick` proof's
 * too: out of the file, a strict verify of the demo proof takes about 6 ms less wall time (17 M fewer
 * instructions; docs/performance.md, Start-up).
 *
 * How the two files share one copy of each module: the kinds file holds only the modules the verify
 * file lacks (the kinds' own modules, the sortition engine, ...). Every module it imports that the verify
 * file has (the errors, the kinds' toolkit, the random stream, ...) is a stub that returns the verify
 * file's module, which the verify file hands over when it loads the kinds file (`kinds(modules)`): one
 * class per error, so `instanceof` in the error reporter holds for the kinds' errors too. esbuild does not
 * split CommonJS bundles, so this is done here, in four kinds of build:
 *
 * 1. the verify file, not written: which modules have code in it (its metafile);
 * 2. the kinds file as an ES module, those modules left as imports from `shared:<path>`: the names it
 *    takes from each (esbuild writes `import { a, b } from "shared:dist/core/errors.js"`);
 * 3. the verify file, written, with a module (`orbitdraw-verify-shared`, required only when the kinds
 *    file loads) that maps each such path, through a getter, to an object of those names: so the kinds
 *    file loading runs only the verify file's modules the loaded kind imports. Exporting a name can bring
 *    in code the verify file left out before (a function an index re-exports): then 2 and 3 run again
 *    until its modules stop growing (once, today);
 * 4. the kinds file, written as CommonJS, each shared module a stub that reads that map.
 *
 * One exception: valibot, which the kinds import whole (`import * as v`), stays out of the map (all of
 * it in the verify file would be 75 kB); the kinds file bundles the functions it uses (see below).
 * `test/cli/bundle.test.ts` checks on a tracing build that a `pick` proof never loads the kinds file,
 * that a proof of each other kind of the vectors loads it and runs that kind's module only, and that no
 * module of the library is in both files.
 *
 * @module
 */
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild'
import { readdir } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const KINDS_DIR = join(ROOT, 'dist', 'core', 'kinds')
const REGISTRY = join(KINDS_DIR, 'registry.js')

/**
 * The built-in kinds the verify file holds itself: `pick`, the kind of the demo and of most raffles (its
 * module is small and imports nothing the verify file lacks). Every other built-in kind, and any kind
 * added to the registry later, is in {@link KINDS_FILE}.
 */
export const FILE_KINDS: readonly string[] = ['pick']

/** The second file: every built-in kind but {@link FILE_KINDS}, beside the verify file. */
export const KINDS_FILE = 'orbitdraw-verify-kinds.cjs'

/** The virtual module of the verify file that maps each shared module's path to the names the kinds file takes from it. */
const SHARED_MAP = 'orbitdraw-verify-shared'
/** The kinds file's holder of that map (set by its `kinds(modules)` before the kinds' modules run). */
const SHARED_HOLDER = 'orbitdraw-verify-shared-holder'
/** The kinds file's entry (`kinds(modules)`). */
const KINDS_ENTRY = 'orbitdraw-verify-kinds-entry'
/** How build 2 names a shared module: `shared:<path relative to the repository>`. */
const SHARED_PREFIX = 'shared:'
/** The end of a shared module's stub's name in build 4. */
const STUB_SUFFIX = ' (shared).cjs'

/** A built-in kind: its name, and the module of `dist/core/kinds/` and export that hold it. */
interface KindModule {
  readonly name: string
  readonly file: string
  readonly exportName: string
}

/** The built-in kinds in the registry's order (`BUILT_IN_KINDS`), each with the module that exports it. */
async function builtInKinds(): Promise<readonly KindModule[]> {
  const { BUILT_IN_KINDS } = (await import(pathToFileURL(REGISTRY).href)) as { BUILT_IN_KINDS: readonly { readonly name: string }[] }
  const found = new Map<unknown, { file: string; exportName: string }>()
  for (const file of (await readdir(KINDS_DIR)).filter((f) => f.endsWith('.js') && f !== 'index.js' && f !== 'registry.js').sort()) {
    for (const [exportName, value] of Object.entries((await import(pathToFileURL(join(KINDS_DIR, file)).href)) as Record<string, unknown>)) {
      if (BUILT_IN_KINDS.includes(value as never) && !found.has(value)) found.set(value, { file, exportName })
    }
  }
  for (const name of FILE_KINDS) if (!BUILT_IN_KINDS.some((k) => k.name === name)) throw new Error(`FILE_KINDS names ${name}, which is not a built-in kind`)
  return BUILT_IN_KINDS.map((k) => {
    const at = found.get(k)
    if (at === undefined) throw new Error(`no module of dist/core/kinds exports the built-in kind ${k.name}`)
    return { name: k.name, ...at }
  })
}

/** The names the kinds file takes from each shared module (`*`: the whole module). */
export type SharedNames = ReadonlyMap<string, ReadonlySet<string>>

/**
 * The verify file's registry of draw kinds (in place of `dist/core/kinds/registry.js`): the same
 * `DEFAULT_DRAW_KINDS`, its `BUILT_IN_KINDS` in their order, as a `lazyDrawKinds` registry
 * (src/core/kinds/lazy.ts) that loads a kind the first time a proof of that kind is read: a kind of
 * {@link FILE_KINDS} by `require` of its module (the bundle turns that into a call of the module's
 * init), any other from {@link KINDS_FILE}, given the map of shared modules. So a strict verify of a
 * `pick` proof runs neither the other kinds, nor the sortition engine, nor the allocation kinds, and does
 * not read their code. The library and `dist/cli/` keep the registry itself (the sync API needs every
 * kind at any time).
 */
function registryPlugin(kinds: readonly KindModule[], shared: SharedNames): Plugin {
  const entries = kinds.map((k) => {
    const load = FILE_KINDS.includes(k.name) ? `require(${JSON.stringify(`./${k.file}`)}).${k.exportName}` : `otherKinds()[${JSON.stringify(k.name)}]()`
    return `  { name: ${JSON.stringify(k.name)}, load: () => ${load} },\n`
  })
  const registry =
    `import { lazyDrawKinds } from './lazy.js'\n` +
    `let loaded\n` +
    `const otherKinds = () => (loaded ??= require(${JSON.stringify(`./${KINDS_FILE}`)}).kinds(require(${JSON.stringify(SHARED_MAP)}).modules))\n` +
    `export const DEFAULT_DRAW_KINDS = lazyDrawKinds([\n${entries.join('')}])\n`
  // Each shared module through a module of its own, required by a getter: the kinds file loading runs
  // only the verify file's modules that the kind it loads imports (a `shuffle` proof runs no `pick` code).
  const paths = [...shared.keys()].sort()
  const wrappers = new Map(
    paths.map((path) => {
      const names = shared.get(path)!
      const from = JSON.stringify(join(ROOT, path))
      if (names.has('*')) return [path, `import * as m from ${from}\nexport { m }\n`] as const
      const list = [...names].sort()
      return [path, `import { ${list.map((n, j) => `${n} as s${j}`).join(', ')} } from ${from}\nexport const m = { ${list.map((n, j) => `${n}: s${j}`).join(', ')} }\n`] as const
    }),
  )
  const map = `export const modules = {\n${paths.map((path) => `  get ${JSON.stringify(path)}() { return require(${JSON.stringify(`${SHARED_MAP}/${path}`)}).m },\n`).join('')}}\n`
  return {
    name: 'orbitdraw-verify-registry',
    setup(b) {
      b.onResolve({ filter: /\/registry\.js$/ }, (args) => (resolve(args.resolveDir, args.path) === REGISTRY ? { path: relative(ROOT, REGISTRY), namespace: 'orbitdraw-verify-registry' } : undefined))
      b.onResolve({ filter: new RegExp(`^\\./${KINDS_FILE.replaceAll('.', '\\.')}$`) }, (args) => ({ path: args.path, external: true }))
      b.onResolve({ filter: new RegExp(`^${SHARED_MAP}(/|$)`) }, (args) => ({ path: args.path, namespace: 'orbitdraw-verify-registry' }))
      b.onLoad({ filter: /.*/, namespace: 'orbitdraw-verify-registry' }, (args) => ({
        contents: args.path === SHARED_MAP ? map : args.path.startsWith(`${SHARED_MAP}/`) ? wrappers.get(args.path.slice(SHARED_MAP.length + 1)) : registry,
        loader: 'js',
        resolveDir: KINDS_DIR,
      }))
    },
  }
}

/**
 * For the kinds file: every import that resolves (through the other plugins too) to a module the verify
 * file holds becomes `shared:<path>`, external in build 2, and in build 4 a stub that returns the
 * verify file's module from the map.
 */
function sharedPlugin(inVerifyFile: ReadonlySet<string>, as: 'external' | 'stub'): Plugin {
  return {
    name: 'orbitdraw-verify-shared',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'resolving' || args.kind === 'entry-point') return undefined
        const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolving' })
        if (r.errors.length > 0 || r.external || r.namespace !== 'file') return r.errors.length > 0 ? { errors: r.errors } : r
        const path = relative(ROOT, r.path)
        if (!inVerifyFile.has(path)) return r
        // The stub's own name ends in .cjs: esbuild reads a name ending in .mjs as an ES module.
        return as === 'external' ? { path: `${SHARED_PREFIX}${path}`, external: true } : { path: `${path}${STUB_SUFFIX}`, namespace: 'orbitdraw-verify-shared' }
      })
      b.onLoad({ filter: /.*/, namespace: 'orbitdraw-verify-shared' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(SHARED_HOLDER)}).sharedModule(${JSON.stringify(args.path.slice(0, -STUB_SUFFIX.length))})\n`,
        loader: 'js',
        resolveDir: ROOT,
      }))
    },
  }
}

/**
 * The kinds file's own modules: its entry, whose `kinds(modules)` keeps the verify file's modules and
 * returns for each kind a function that loads it (the kind's module runs then, not when the file loads:
 * a `shuffle` proof runs no sortition code), and the holder of those modules.
 */
function kindsEntryPlugin(kinds: readonly KindModule[]): Plugin {
  const loaders = kinds.filter((k) => !FILE_KINDS.includes(k.name)).map((k) => `  ${JSON.stringify(k.name)}: () => require(${JSON.stringify(join(KINDS_DIR, k.file))}).${k.exportName},\n`)
  const contents: Record<string, string> = {
    [KINDS_ENTRY]:
      `import { setModules } from ${JSON.stringify(SHARED_HOLDER)}\n` +
      `const loaders = {\n${loaders.join('')}}\n` +
      `/** Each kind's loader, once the verify file's modules are set: called once, by the verify file's registry. */\n` +
      `export function kinds(modules) { setModules(modules); return loaders }\n`,
    [SHARED_HOLDER]:
      `let shared\n` +
      `export function setModules(modules) { shared = modules }\n` +
      `export function sharedModule(path) {\n` +
      `  const m = shared?.[path]\n` +
      `  if (m === undefined) throw new Error('orbitdraw: ${KINDS_FILE} needs ' + path + ' from the verify file, which did not hand it over: rebuild both with scripts/build-cli.ts')\n` +
      `  return m\n` +
      `}\n`,
  }
  return {
    name: 'orbitdraw-verify-kinds',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(${SHARED_HOLDER}|${KINDS_ENTRY})$`) }, (args) => ({ path: args.path, namespace: 'orbitdraw-verify-kinds' }))
      b.onLoad({ filter: /.*/, namespace: 'orbitdraw-verify-kinds' }, (args) => ({ contents: contents[args.path], loader: 'js', resolveDir: ROOT }))
    },
  }
}

/** The names build 2's ES module output imports from each `shared:` module (`*` for a namespace or a dynamic import). */
export function sharedImports(esm: string): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>()
  const add = (path: string, name: string): void => {
    const set = names.get(path) ?? new Set<string>()
    set.add(name)
    names.set(path, set)
  }
  const q = SHARED_PREFIX.replace(':', '\\:')
  let read = 0
  // An import clause: identifiers, `as`, braces, commas and `*` only (so a match never spans two statements).
  for (const m of esm.matchAll(new RegExp(`\\bimport\\s*([\\w$\\s{},*]*?)\\s*from\\s*"${q}([^"]+)"`, 'g'))) {
    read++
    const clause = m[1]!
    const path = m[2]!
    const braces = /\{([^}]*)\}/.exec(clause)
    const outside = clause.replace(/\{[^}]*\}/, '').split(',').map((s) => s.trim()).filter((s) => s !== '')
    for (const part of outside) add(path, part.startsWith('*') ? '*' : 'default')
    for (const spec of braces?.[1]?.split(',').map((s) => s.trim()).filter((s) => s !== '') ?? []) add(path, spec.split(/\s+as\s+/)[0]!)
  }
  for (const m of esm.matchAll(new RegExp(`\\bimport\\s*"${q}([^"]+)"|\\bimport\\(\\s*"${q}([^"]+)"\\s*\\)|\\brequire\\(\\s*"${q}([^"]+)"\\s*\\)`, 'g'))) {
    read++
    const path = m[1] ?? m[2] ?? m[3]!
    if (m[1] !== undefined) names.set(path, names.get(path) ?? new Set())
    else add(path, '*')
  }
  const left = esm.match(new RegExp(`"${q}[^"]+"`, 'g'))?.length ?? 0
  if (left !== read) throw new Error(`the kinds file refers to a shared module in a way scripts/build-cli-kinds.ts does not read (${left} references, ${read} read)`)
  return names
}

/** What {@link buildVerifyFiles} built: the two files' metafiles. */
export interface VerifyFiles {
  readonly verify: Metafile
  readonly kinds: Metafile
}

/**
 * Builds the verify file (`options` with its entry, output and plugins; the registry's replacement is
 * added here) and {@link KINDS_FILE} beside it, in the four builds of the module comment. `kindsOptions`
 * are the options both share without the entry (format, plugins such as the native SHA-2).
 */
export async function buildVerifyFiles(options: BuildOptions & { outdir: string }, kindsPlugins: readonly Plugin[], kindsOptions: BuildOptions): Promise<VerifyFiles> {
  const kinds = await builtInKinds()
  const withRegistry = (shared: SharedNames): BuildOptions => ({ ...options, plugins: [registryPlugin(kinds, shared), ...(options.plugins ?? [])] })
  /** The modules with code in a build of the verify file (one whose every export went unused there has no state in it). */
  const withCode = (m: Metafile): string[] => Object.values(m.outputs).flatMap((o) => Object.entries(o.inputs).filter(([p, i]) => i.bytesInOutput > 0 && !p.includes(':')).map(([p]) => p))
  // 1. The verify file's modules.
  const inVerifyFile = new Set(withCode((await build({ ...withRegistry(new Map()), write: false, metafile: true })).metafile))
  /** Modules of the verify file that the kinds file holds a copy of (see below). */
  const copied = new Set<string>()
  const kindsBuild = (as: 'external' | 'stub'): BuildOptions => ({
    ...kindsOptions,
    entryPoints: { [KINDS_FILE.replace(/\.cjs$/, '')]: KINDS_ENTRY },
    plugins: [kindsEntryPlugin(kinds), sharedPlugin(new Set([...inVerifyFile].filter((p) => !copied.has(p))), as), ...kindsPlugins],
    metafile: true,
  })
  // 2. and 3., until the verify file's modules settle; the verify file is written each round (the last one stands).
  let verify: Metafile
  for (let round = 1; ; round++) {
    // 2. The names the kinds file takes from them.
    const probe = await build({ ...kindsBuild('external'), format: 'esm', minify: false, write: false, outdir: options.outdir, banner: {}, outExtension: {} })
    const shared = sharedImports(probe.outputFiles[0]!.text)
    // A package the kinds import whole (`import * as v from 'valibot'`: esbuild keeps a namespace import
    // of an external as it is) would be all of it in the verify file (valibot: 75 kB). The kinds file
    // bundles the parts it uses instead. That is safe for valibot, the only one today: its schemas are
    // plain objects that carry their own functions, and orbitdraw sets none of its global configuration.
    // Any other package imported whole stops the build, to be looked at.
    for (const [path, names] of shared) {
      if (!names.has('*') || !/(^|\/)node_modules\//.test(path)) continue
      if (!/(^|\/)node_modules\/valibot\//.test(path)) throw new Error(`the kinds import all of ${path}: share it by name or check that two copies are safe (scripts/build-cli-kinds.ts)`)
      shared.delete(path)
      copied.add(path)
    }
    // The names the verify file now exports may bring in code of modules it left out before (a function
    // re-exported by an index): those are shared too, and the kinds are read again.
    verify = (await build({ ...withRegistry(shared), metafile: true })).metafile
    const grown = withCode(verify).filter((p) => !inVerifyFile.has(p))
    if (grown.length === 0) break
    if (round === 5) throw new Error(`the verify file's modules did not settle (still adding ${grown.join(', ')})`)
    for (const p of grown) inVerifyFile.add(p)
  }
  // 4.
  const kindsFile = await build({ ...kindsBuild('stub'), outdir: options.outdir, metafile: true })
  return { verify, kinds: kindsFile.metafile }
}
