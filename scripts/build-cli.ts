/**
 * Bundles the `orbitdraw` command (`package.json` `bin`) from the compiled CLI (`dist/cli/main.js`, tsc
 * output) into `dist/bin/`: one ESM entry, `orbitdraw.js`, plus one chunk per lazily imported module
 * group (each command, the error reporter, the record and time-stamp checks, ...), and the hash worker
 * as its own entry, `hash-worker.js`.
 *
 * Why a bundle: start-up of `orbitdraw verify FILE` was mostly Node resolving, reading and compiling
 * some 200 small ES modules and CommonJS files (the CommonJS ones also pass through Node's
 * `cjs-module-lexer`); see docs/performance.md, Start-up. esbuild (a devDependency already used for the
 * verifier page) with code splitting keeps every `import()` of the sources a separate chunk loaded only
 * when reached, so `orbitdraw --help` still loads no command.
 *
 * The library entries (`dist/index.js`, `dist/core/index.js`, `dist/emulator/index.js`) stay tsc
 * output; this script only adds `dist/bin/`. It also writes `dist/bin/meta.json` (not shipped: see
 * `package.json` `files`): for each output file, the compiled modules in it, which
 * `test/cli/bundle.test.ts` uses to check what each command loads. Run after `tsc` (it is part of
 * `npm run build`):
 *
 *   npx tsx scripts/build-cli.ts [--out DIR] [--quiet]
 *
 * @module
 */
import { build, type Metafile } from 'esbuild'
import { readFile, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * The entry points, named as their output files. The hash worker is started by
 * `src/node/parallel-hash.ts` from `new URL('./hash-worker.js', import.meta.url)`: with every chunk
 * written to the same directory as the entries, that URL names this entry from whichever chunk holds
 * `parallel-hash.ts`.
 */
const ENTRIES = { orbitdraw: 'dist/cli/main.js', 'hash-worker': 'dist/node/hash-worker.js' } as const

/**
 * Some dependencies are CommonJS that `require()` Node's built-in modules; in an ES module bundle,
 * esbuild turns those calls into a shim that needs a `require` in scope.
 */
const BANNER = "import { createRequire as __orbitdrawCreateRequire } from 'node:module'; const require = __orbitdrawCreateRequire(import.meta.url);"

/** The name of the module map written beside the bundle (output file -> the `dist/` modules in it). */
export const BUNDLE_META = 'meta.json'

/** What {@link buildCli} wrote. */
export interface BuildCliResult {
  /** Absolute path of the `orbitdraw` entry. */
  readonly bin: string
  /** Every file written (relative to the output directory) with its size in bytes. */
  readonly files: readonly (readonly [string, number])[]
}

/** Bundles the CLI into `outDir` (default `dist/bin`, emptied first). Needs the tsc output in `dist/`. */
export async function buildCli(outDir = join(ROOT, 'dist', 'bin')): Promise<BuildCliResult> {
  await rm(outDir, { recursive: true, force: true })
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, join(ROOT, path)])),
    outdir: outDir,
    // Chunks beside the entries: see ENTRIES for why.
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    // Whitespace and syntax only: identifiers keep their names, so error classes keep theirs
    // (`OrbitdrawError` sets `this.name = new.target.name`) and stack traces stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    banner: { js: BANNER },
    metafile: true,
    logLevel: 'warning',
  })
  const files: [string, number][] = []
  const modules: Record<string, string[]> = {}
  for (const [out, o] of Object.entries((result.metafile as Metafile).outputs)) {
    const abs = resolve(ROOT, out)
    files.push([relative(outDir, abs), (await stat(abs)).size])
    modules[relative(outDir, abs)] = Object.keys(o.inputs).sort()
  }
  await writeFile(join(outDir, BUNDLE_META), `${JSON.stringify(modules, null, 1)}\n`)
  files.sort((a, b) => a[0].localeCompare(b[0]))
  const bin = join(outDir, 'orbitdraw.js')
  const head = (await readFile(bin, 'utf8')).slice(0, 20)
  if (!head.startsWith('#!/usr/bin/env node')) throw new Error(`${bin} does not start with its #! line`)
  return { bin, files }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const outAt = args.indexOf('--out')
  const r = await buildCli(outAt >= 0 && args[outAt + 1] !== undefined ? resolve(args[outAt + 1]!) : undefined)
  if (!args.includes('--quiet')) {
    const total = r.files.reduce((s, [, n]) => s + n, 0)
    process.stdout.write(`orbitdraw CLI bundle: ${relative(ROOT, r.bin)}, ${r.files.length} files, ${(total / 1024).toFixed(1)} KiB\n`)
  }
}
