/**
 * Bundles the `verify` command of `orbitdraw` (`package.json` `bin`) from the compiled CLI
 * (`dist/cli/main.js`, tsc output) into `dist/bin/`:
 *
 * - `orbitdraw.cjs`: the command (`package.json` `bin`), five lines written by this script: it turns on
 *   Node's own module compile cache where Node has it (`module.enableCompileCache()`, Node 22.1 and
 *   later; nothing on Node 20), then runs `orbitdraw verify ...` from `orbitdraw-verify.cjs` and every
 *   other command line (`--help`, `commit`, `draw`, `emulator`, `verify --online`, ...) from the tsc output
 *   `dist/cli/main.js`, which the package ships. The cache is Node's: it lives where Node decides
 *   (`NODE_COMPILE_CACHE`, else `node-compile-cache` in the system's temporary directory) and
 *   `NODE_DISABLE_COMPILE_CACHE=1` turns it off (docs/cli.md, "Start-up and Node's compile cache"). The
 *   call must come before the CLI is loaded, which is why `bin` is this small file.
 * - `orbitdraw-verify.cjs`: `verify`, one CommonJS file: the CLI's entry with only the `verify` command
 *   (its other commands resolve to a module that throws: `bin` never sends them here, so one process
 *   never holds two copies of the library's classes, which the error reporter tells apart with
 *   `instanceof`). Every module the sources import lazily (`await import(...)`: the error reporter, the
 *   record and time-stamp checks, ...) stays lazy inside it: esbuild wraps it
 *   in an init function that runs the first time it is imported, so `orbitdraw verify --help` evaluates no
 *   verifier code and a relaxed `verify` no record or time-stamp code. The built-in draw kinds load the
 *   same way, each the first time a proof of its kind is read: `pick` from this file, the others from
 *   the next one.
 * - `orbitdraw-verify-kinds.cjs`: every built-in draw kind but `pick`, with the sortition engine and the
 *   allocation code they use, `require`d by the verify file the first time a proof of such a kind is
 *   read; the modules both need (the errors, the kinds' toolkit, ...) are the verify file's, handed
 *   over, so each class exists once in a process. A `pick` proof's `verify` never reads it: 110 kB less
 *   to read and pre-parse (scripts/build-cli-kinds.ts, docs/performance.md, Start-up).
 * - no hash worker of its own: for a proof of 100,000 entries or more the bundle starts the library's
 *   `dist/node/hash-worker.js` (tsc output; `src/node/hash-pool.ts` names it as `../node/hash-worker.js`
 *   from `import.meta.url`, the same file from `dist/node/` and `dist/bin/`). A bundled copy was 8.7 kB
 *   of the tarball; the library's loads as ES modules, about 20 ms more CPU for a proof of 110,000 entries
 *   (0.97 -> 0.99 s, docs/performance.md, Package size).
 *
 * Why verify alone is bundled: a strict `verify` is the start-up the project sets a goal for (at most
 * 2.2x `node -e 0`, docs/performance.md, Start-up), and as one CommonJS file it starts sooner than as
 * the ~180 ES modules it loads from `dist/` (Node's ES module loader costs a fresh process more than its
 * CommonJS loader does, and the sources' lazy imports become plain function calls). The other commands
 * wait on the network or hash whole files; `--help` starts sooner from `dist/cli/` than from a bundle
 * (it loads five small modules, not one large file). A bundle of the whole CLI was a second copy of the
 * library in the tarball (issue 25: tarball size).
 *
 * Left outside the file, required from `node_modules` when first used (Node 20.19 and later `require()`
 * an ES module): `csv-parse` and `highs` (the sortition readers and solver, not reached from verify) and
 * `@noble/curves` (Ed25519 records and drand's BLS12-381 signatures: 93 kB minified that an RSA-signed
 * or unsigned proof never runs). The time-stamping client and the emulator's authority write and read
 * their DER with the core's own writer and reader (`src/core/timestamp/der-writer.ts`, `der.ts`): no
 * ASN.1 package is installed.
 *
 * In the verify bundle, `@noble/hashes/sha2.js` is `src/node/native-sha2.ts` (see `nativeSha2` below):
 * noble's `sha256`, `sha384` and `sha512` with a byte array hashed by `node:crypto`, so a strict
 * verify's digests (blocks, the commitment, the time-stamp token and certificates, the record's key) do
 * not run in V8's interpreter; noble's own module is required from `node_modules` only for an incremental
 * hash, which verify does not use. The library, the other commands and the page keep noble's.
 *
 * The library entries and the other commands stay tsc output; this script only adds `dist/bin/`. It
 * also writes `dist/bin/meta.json` (not shipped: see `package.json` `files`): for each output file, the
 * compiled modules in it. With `trace: true` (only
 * for `test/cli/bundle.test.ts`, into another directory) every bundled module, when evaluated, appends
 * its path to the file named by `ORBITDRAW_TRACE`, and the command appends the packages it required
 * from `node_modules` at exit: the test checks what each `verify` command line runs. Run after `tsc` (it is
 * part of `npm run build`):
 *
 *   npx tsx scripts/build-cli.ts [--out DIR] [--quiet]
 *
 * @module
 */
import { type BuildOptions, type Metafile, type Plugin } from 'esbuild'
import { readFile, rm, stat, writeFile } from 'node:fs/promises'
import { buildVerifyFiles } from './build-cli-kinds.js'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** The command's entry (tsc output). */
const CLI_ENTRY = 'dist/cli/main.js'

/** The file `package.json` `bin` names. */
export const BIN_FILE = 'orbitdraw.cjs'
/** The verify bundle `bin` runs for `orbitdraw verify ...`. */
const CLI_NAME = 'orbitdraw-verify'
export const CLI_FILE = `${CLI_NAME}.cjs`

/**
 * `orbitdraw verify ... --online` runs from `dist/cli/` like the other commands: the online re-check
 * (`cli/common.js`, `beacon/draw.js` and the beacon client, gateways and network code they import, 45 KB
 * of the bundle) waits on the network anyway, and a strict offline verify no longer pre-parses it (5 M
 * instructions of its start-up, docs/performance.md, Start-up). `online` is a boolean flag with no short
 * form, so the word itself is the only way to turn it on: a command line without it never reaches that
 * code, and one with it (even as a positional after `--`) runs the same command from the tsc output.
 */
export const ONLINE_FLAG = '--online'

/**
 * The command `bin` names: Node's compile cache on where Node has it (a no-op on Node 20, where
 * `enableCompileCache` is undefined; it never throws: a cache it cannot use is skipped), then `verify`
 * from the bundle (but `verify --online`: {@link ONLINE_FLAG}) and any other command line from `dist/cli/`
 * (an ES module, imported).
 */
export const BIN_SOURCE = `#!/usr/bin/env node
'use strict'
require('node:module').enableCompileCache?.()
if (process.argv[2] === 'verify' && !process.argv.includes(${JSON.stringify(ONLINE_FLAG)})) require('./${CLI_FILE}').runAsProcess()
else import('../cli/main.js').then((cli) => cli.runAsProcess())
`

/** The command modules the verify bundle holds (\`dist/cli/commands/\`); every other one runs from \`dist/cli/\`. */
export const BUNDLED_COMMANDS = ['verify', 'verify-usage', 'describe'] as const

/**
 * The verify bundle holds \`verify\` only: the command table's other entries resolve to a module that throws
 * (\`bin\` never sends them here), so the bundle carries no commit, draw, beacon, emulator or announce code
 * and a second copy of the library's classes can never meet the first in one process. The same for the
 * modules \`verify\` imports only for \`--online\` (\`bin\` sends that command line to \`dist/cli/\`: {@link ONLINE_FLAG}).
 */
const verifyOnly: Plugin = {
  name: 'orbitdraw-verify-only',
  setup(b) {
    b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) => {
      if (!args.importer.endsWith(join('dist', 'cli', 'commands', 'index.js'))) return undefined
      const name = args.path.slice(2, -3)
      return (BUNDLED_COMMANDS as readonly string[]).includes(name) ? undefined : { path: name, namespace: 'orbitdraw-not-bundled' }
    })
    b.onResolve({ filter: /^(\.\.\/common|\.\.\/\.\.\/beacon\/draw)\.js$/ }, (args) =>
      args.importer.endsWith(join('dist', 'cli', 'commands', 'verify.js')) ? { path: `verify ${ONLINE_FLAG}`, namespace: 'orbitdraw-not-bundled' } : undefined,
    )
    b.onLoad({ filter: /.*/, namespace: 'orbitdraw-not-bundled' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`orbitdraw ${args.path} is not in the verify bundle: run dist/bin/orbitdraw.cjs, which runs it from dist/cli/`)})`,
      loader: 'js',
    }))
  },
}

/**
 * In the verify bundle, `@noble/hashes/sha2.js` is `dist/node/native-sha2.js`: `sha256`, `sha384` and
 * `sha512` with noble's members, one byte array hashed by `node:crypto` (src/node/native-sha2.ts), so
 * that a fresh process does not run SHA-2 in V8's interpreter nor build noble's tables (docs/performance.md,
 * Start-up). It exports those three only: a bundled module importing another name fails this build.
 */
const NATIVE_SHA2 = join(ROOT, 'dist', 'node', 'native-sha2.js')
const nativeSha2: Plugin = {
  name: 'orbitdraw-native-sha2',
  setup(b) {
    b.onResolve({ filter: /^@noble\/hashes\/sha2(\.js)?$/ }, (args) => (args.importer === NATIVE_SHA2 ? undefined : { path: NATIVE_SHA2 }))
  },
}

/**
 * In the verify bundle, the fast path of ECDSA verification (`dist/core/timestamp/ecdsa-fast.js`, Web
 * Crypto) is `dist/node/native-ecdsa.js`: the same OpenSSL verification by `node:crypto`, which the
 * bundle loads anyway for its digests, without Web Crypto's own modules (src/node/native-ecdsa.ts). As
 * before, only its `true` stands; `@noble/curves` decides every other case.
 */
const NATIVE_ECDSA = join(ROOT, 'dist', 'node', 'native-ecdsa.js')
const ECDSA_FAST = join(ROOT, 'dist', 'core', 'timestamp', 'ecdsa-fast.js')
const nativeEcdsa: Plugin = {
  name: 'orbitdraw-native-ecdsa',
  setup(b) {
    b.onResolve({ filter: /\/ecdsa-fast\.js$/ }, (args) => (args.importer !== NATIVE_ECDSA && resolve(args.resolveDir, args.path) === ECDSA_FAST ? { path: NATIVE_ECDSA } : undefined))
  },
}

/** Packages left out of the bundle (see the module comment): required from `node_modules` when used. */
export const EXTERNAL_PACKAGES = ['csv-parse', 'csv-parse/*', 'highs', '@noble/curves', '@noble/curves/*'] as const

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
  // Local identifiers shortened too (a quarter off the file, docs/performance.md), class and function
  // names included: no `keepNames`, whose `name` definition for each of ~900 functions cost a strict
  // verify 7 % of its instructions and a garbage collection (docs/performance.md, Start-up). The error
  // classes state their names themselves (`src/core/errors.ts`: `error.name` is the same as in dist/);
  // stack traces of the bundle name functions by their short names.
  minify: true,
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

/** Bundles the CLI into `outDir` (default `dist/bin`, emptied first). Needs the tsc output in `dist/`. */
export async function buildCli(options: BuildCliOptions = {}): Promise<BuildCliResult> {
  const outDir = options.outDir ?? join(ROOT, 'dist', 'bin')
  const plugins = options.trace === true ? [tracePlugin] : []
  await rm(outDir, { recursive: true, force: true })
  // Both files: CommonJS named .cjs (the package is "type": "module").
  const cjs: BuildOptions = {
    ...COMMON,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // import() of what stays outside the file (node: modules, the external packages) as require():
    // a real import() would start Node's ES module loader, a few ms of start-up for nothing.
    supported: { 'dynamic-import': false },
    external: [...EXTERNAL_PACKAGES],
    define: { 'import.meta.url': IMPORT_META_URL },
    banner: { js: CJS_BANNER },
  }
  const built = await buildVerifyFiles(
    {
      ...cjs,
      outdir: outDir,
      entryPoints: { [CLI_NAME]: join(ROOT, CLI_ENTRY) },
      banner: { js: options.trace === true ? `${CJS_BANNER}\n${TRACE_CJS}` : CJS_BANNER },
      plugins: [verifyOnly, nativeSha2, nativeEcdsa, ...plugins],
    },
    [nativeSha2, nativeEcdsa, ...plugins],
    cjs,
  )
  const cliPath = join(outDir, CLI_FILE)
  if (!(await readFile(cliPath, 'utf8')).startsWith('#!/usr/bin/env node\n')) throw new Error(`${cliPath} does not start with its #! line`)
  const bin = join(outDir, BIN_FILE)
  await writeFile(bin, BIN_SOURCE, { mode: 0o755 })
  const files: [string, number][] = []
  const modules: Record<string, string[]> = {}
  files.push([BIN_FILE, Buffer.byteLength(BIN_SOURCE)])
  for (const metafile of [built.verify, built.kinds] as Metafile[]) {
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
