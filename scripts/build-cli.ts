/**
 * Bundles the `orbitdraw` command (`package.json` `bin`) from the compiled CLI (`dist/cli/main.js`, tsc
 * output) into `dist/bin/`:
 *
 * - `orbitdraw.cjs`: the command (`package.json` `bin`), three lines written by this script: it turns on
 *   Node's own module compile cache where Node has it (`module.enableCompileCache()`, Node 22.1 and
 *   later; nothing on Node 20) and runs `orbitdraw-cli.cjs`. The cache is Node's: it lives where Node
 *   decides (`NODE_COMPILE_CACHE`, else `node-compile-cache` in the system's temporary directory) and
 *   `NODE_DISABLE_COMPILE_CACHE=1` turns it off (docs/cli.md, "Start-up and Node's compile cache"). The call must come before the
 *   bundle is loaded, which is why `bin` is this small file and not the bundle itself.
 * - `orbitdraw-cli.cjs`: the CLI, one CommonJS file. Every module the sources import lazily
 *   (`await import(...)`: each command, the error reporter, the record and time-stamp checks, ...) stays
 *   lazy inside it: esbuild wraps it in an init function that runs the first time it is imported, so
 *   `orbitdraw --help` evaluates no command and a relaxed `verify` no record or time-stamp code. It also
 *   runs as a script of its own (`node dist/bin/orbitdraw-cli.cjs`).
 * - `hash-worker.js`: the participants-hash worker (an ES module, started by `src/node/hash-pool.ts`
 *   from `new URL('./hash-worker.js', import.meta.url)`, which names this file from `orbitdraw.cjs`).
 *
 * Why one CommonJS file and not ES module chunks: measured side by side (docs/performance.md, Start-up),
 * the same code as one CommonJS file starts a strict `orbitdraw verify` about 25 ms sooner than as
 * esbuild's ES module chunks (30 files in 6 dynamic-import waves) or as one ES module file. Node's
 * ES module loader costs a fresh process more than its CommonJS loader does, and the sources' lazy
 * imports become plain function calls. A whole-CLI file is compiled lazily by V8 (functions never
 * called are only pre-parsed), which measured no slower for `verify` than a file holding verify's code
 * alone.
 *
 * Left outside the file, required from `node_modules` when first used: `csv-parse`, which only the
 * sortition CSV readers use (a dependency, installed with the package, shipped as CommonJS). The
 * time-stamping client and the emulator's authority write and read their DER with the core's own
 * writer and reader (`src/core/timestamp/der-writer.ts`, `der.ts`): no ASN.1 package is installed.
 *
 * The library entries (`dist/index.js`, `dist/core/index.js`, `dist/emulator/index.js`) stay tsc
 * output; this script only adds `dist/bin/`. It also writes `dist/bin/meta.json` (not shipped: see
 * `package.json` `files`): for each output file, the compiled modules in it. With `trace: true` (only
 * for `test/cli/bundle.test.ts`, into another directory) every bundled module, when evaluated, appends
 * its path to the file named by `ORBITDRAW_TRACE`, and the command appends the packages it required
 * from `node_modules` at exit: the test checks what each command line runs. Run after `tsc` (it is
 * part of `npm run build`):
 *
 *   npx tsx scripts/build-cli.ts [--out DIR] [--quiet]
 *
 * @module
 */
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild'
import { readFile, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** The command's entry (tsc output) and the hash worker's. */
const CLI_ENTRY = 'dist/cli/main.js'
const WORKER_ENTRY = 'dist/node/hash-worker.js'

/** The file `package.json` `bin` names. */
export const BIN_FILE = 'orbitdraw.cjs'
/** The CLI bundle `bin` runs. */
const CLI_NAME = 'orbitdraw-cli'
export const CLI_FILE = `${CLI_NAME}.cjs`

/**
 * The command `bin` names: Node's compile cache on where Node has it (a no-op on Node 20, where
 * `enableCompileCache` is undefined; it never throws: a cache it cannot use is skipped), then the CLI.
 */
export const BIN_SOURCE = `#!/usr/bin/env node
'use strict'
require('node:module').enableCompileCache?.()
require('./${CLI_FILE}').runAsProcess()
`

/** Packages left out of the bundle (see the module comment): required from `node_modules` when used. */
export const EXTERNAL_PACKAGES = ['csv-parse', 'csv-parse/*', 'highs'] as const

/**
 * `import.meta.url` in a CommonJS file: the sources use it to find the hash worker, `package.json`
 * (`--version`) and a few data files of dependencies, all relative to the running file.
 */
const IMPORT_META_URL = '__orbitdrawImportMetaUrl'
const CJS_BANNER = `const ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;`

/** The name of the module map written beside the bundle (output file -> the `dist/` modules in it). */
export const BUNDLE_META = 'meta.json'

/** What {@link buildCli} wrote. */
export interface BuildCliResult {
  /** Absolute path of the `orbitdraw` command (`package.json` `bin`). */
  readonly bin: string
  /** Absolute path of the CLI bundle it runs. */
  readonly cli: string
  /** Every file written (relative to the output directory) with its size in bytes. */
  readonly files: readonly (readonly [string, number])[]
}

/** Options of {@link buildCli}. */
export interface BuildCliOptions {
  /** Output directory (default `dist/bin`, emptied first). */
  readonly outDir?: string
  /** Build the tracing variant for the bundle tests (see the module comment). */
  readonly trace?: boolean
}

const COMMON: BuildOptions = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  // Local identifiers shortened too (a quarter off the file, docs/performance.md), but every class and
  // function keeps its name (`keepNames`): error classes keep theirs (`OrbitdrawError` sets
  // `this.name = new.target.name`) and stack traces name the functions.
  minify: true,
  keepNames: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
}

/** Trace build only: each bundled module records its own evaluation (see the module comment). */
const tracePlugin: Plugin = {
  name: 'orbitdraw-trace',
  setup(b) {
    b.onLoad({ filter: /\.m?js$/ }, async (args) => {
      const path = relative(ROOT, args.path)
      const source = await readFile(args.path, 'utf8')
      const line = `globalThis.__orbitdrawTrace?.(${JSON.stringify(path)});\n`
      // After a #! line, which must stay first.
      const at = source.startsWith('#!') ? source.indexOf('\n') + 1 : 0
      return { contents: source.slice(0, at) + line + source.slice(at), loader: 'js', resolveDir: dirname(args.path) }
    })
  },
}
const TRACE_CJS = `globalThis.__orbitdrawTrace = process.env.ORBITDRAW_TRACE ? (m) => require('node:fs').appendFileSync(process.env.ORBITDRAW_TRACE, m + '\\n') : undefined;
process.on('exit', () => { if (process.env.ORBITDRAW_TRACE) require('node:fs').appendFileSync(process.env.ORBITDRAW_TRACE, Object.keys(require.cache).map((f) => 'required ' + f + '\\n').join('')) });`
const TRACE_ESM = `import { appendFileSync as __orbitdrawAppend } from 'node:fs'; globalThis.__orbitdrawTrace = process.env.ORBITDRAW_TRACE ? (m) => __orbitdrawAppend(process.env.ORBITDRAW_TRACE, m + '\\n') : undefined;`

/** Bundles the CLI into `outDir` (default `dist/bin`, emptied first). Needs the tsc output in `dist/`. */
export async function buildCli(options: BuildCliOptions = {}): Promise<BuildCliResult> {
  const outDir = options.outDir ?? join(ROOT, 'dist', 'bin')
  const plugins = options.trace === true ? [tracePlugin] : []
  await rm(outDir, { recursive: true, force: true })
  // The CLI: one CommonJS file named .cjs (the package is "type": "module").
  const cli = await build({
    ...COMMON,
    outdir: outDir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    entryPoints: { [CLI_NAME]: join(ROOT, CLI_ENTRY) },
    // import() of what stays outside the file (node: modules, the external packages) as require():
    // a real import() would start Node's ES module loader, a few ms of start-up for nothing.
    supported: { 'dynamic-import': false },
    external: [...EXTERNAL_PACKAGES],
    define: { 'import.meta.url': IMPORT_META_URL },
    banner: { js: options.trace === true ? `${CJS_BANNER}\n${TRACE_CJS}` : CJS_BANNER },
    plugins,
  })
  const worker = await build({
    ...COMMON,
    entryPoints: { 'hash-worker': join(ROOT, WORKER_ENTRY) },
    outdir: outDir,
    format: 'esm',
    banner: options.trace === true ? { js: TRACE_ESM } : {},
    plugins,
  })
  const cliPath = join(outDir, CLI_FILE)
  if (!(await readFile(cliPath, 'utf8')).startsWith('#!/usr/bin/env node\n')) throw new Error(`${cliPath} does not start with its #! line`)
  const bin = join(outDir, BIN_FILE)
  await writeFile(bin, BIN_SOURCE, { mode: 0o755 })
  const files: [string, number][] = []
  const modules: Record<string, string[]> = {}
  files.push([BIN_FILE, Buffer.byteLength(BIN_SOURCE)])
  for (const metafile of [cli.metafile, worker.metafile] as Metafile[]) {
    for (const [out, o] of Object.entries(metafile.outputs)) {
      const abs = resolve(ROOT, out)
      files.push([relative(outDir, abs), (await stat(abs)).size])
      modules[relative(outDir, abs)] = Object.keys(o.inputs).sort()
    }
  }
  await writeFile(join(outDir, BUNDLE_META), `${JSON.stringify(modules, null, 1)}\n`)
  files.sort((a, b) => a[0].localeCompare(b[0]))
  return { bin, cli: cliPath, files }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const outAt = args.indexOf('--out')
  const r = await buildCli({ outDir: outAt >= 0 && args[outAt + 1] !== undefined ? resolve(args[outAt + 1]!) : undefined })
  if (!args.includes('--quiet')) {
    const total = r.files.reduce((s, [, n]) => s + n, 0)
    process.stdout.write(`orbitdraw CLI bundle: ${relative(ROOT, r.bin)}, ${r.files.length} files, ${(total / 1024).toFixed(1)} KiB\n`)
  }
}
