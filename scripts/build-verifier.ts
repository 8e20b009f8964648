/**
 * Builds the browser verifier into `dist/verifier/index.html`: one self-contained static page. The
 * esbuild bundle of `src/verifier/main.ts` (the page), the page's words (`src/verifier/messages-script.ts`,
 * every language, a classic script run first) and the CSS are inlined, with a Content-Security-Policy
 * that allows only those three inline blobs, by hash. The bundle of
 * `src/verifier/worker-main.ts` (the core's `verify`) is inlined as a non-executed
 * `<script type="text/plain">` data block that the page starts as a `blob:` Web Worker, the one
 * thing `worker-src blob:` allows. The BLS12-381 pairing code (drand signatures, only a mixed proof
 * needs it) is left out of that worker: `src/verifier/pairing-worker.ts` is bundled into a second data
 * block, which the page starts as a second `blob:` worker only when a mixed proof asks for it (the
 * verify worker's `src/core/drand/pairing.ts` is replaced by `src/verifier/pairing-client.ts`). The
 * verify worker's `blob:` is the words script's text followed by the worker's, so the page and the
 * worker share one copy of the words.
 * Works from `file://`, from any static host, offline.
 *
 *   npx tsx scripts/build-verifier.ts [--out DIR] [--quiet] [--verbose] [--update-docs]
 *
 * Prints the bundle size minified and minified + gzip, and the page's SHA-256 and CID. The page is
 * reproducible: the same commit (with `npm ci`'s dependencies) gives the same bytes, so its hash can be
 * published; `dist/verifier/page-hash.json` records it, and `--update-docs` writes it into
 * docs/verifier.md (between the `verifier-page-hash` markers), which a test compares with a fresh build.
 * `dist/verifier/index.html.br` is the page compressed with Brotli: the package ships it instead of the
 * page (`package.json` `files`), and `orbitdraw verifier-page` expands it byte for byte.
 */
import { build, transform, type BuildOptions, type Plugin } from 'esbuild'
import { createHash } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib'
import { enPage } from '../src/verifier/messages.js'
import { MAX_PAGE_BYTES, pageDigest, type PageDigest } from '../src/verifier/page-digest.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const SRC = join(ROOT, 'src', 'verifier')

/** Options for {@link buildVerifier}. */
export interface BuildVerifierOptions {
  /** Output directory (default `dist/verifier`); it is emptied first. */
  outDir?: string
  /**
   * The worker's entry module (default `src/verifier/worker-main.ts`, the built-in kinds). Tests
   * give one that starts the same worker with a test-only draw kind added.
   */
  workerEntry?: string
}

/** What {@link buildVerifier} wrote, with sizes in bytes. */
export interface BuildVerifierResult {
  /** Absolute path of the page. */
  readonly htmlPath: string
  /** The page script (main thread). */
  readonly js: { readonly min: number; readonly gzip: number }
  /** The worker script (the core's verify), without the pairing code. */
  readonly worker: { readonly min: number; readonly gzip: number }
  /** The page's words (every language): one classic script the page runs and the verify worker's `blob:` starts with. */
  readonly words: { readonly min: number; readonly gzip: number }
  /** The pairing worker's script (BLS12-381, loaded only for a mixed proof). */
  readonly pairing: { readonly min: number; readonly gzip: number }
  readonly css: { readonly min: number; readonly gzip: number }
  /** The whole page (HTML + inlined JS + CSS), the pairing worker's block included. */
  readonly page: { readonly min: number; readonly gzip: number }
  /** The page without the pairing worker's block: what a version 1 proof loads and runs. */
  readonly base: { readonly min: number; readonly gzip: number }
  /** Minified bytes per npm package (or source folder), largest first. */
  readonly breakdown: readonly (readonly [string, number])[]
  /** The page file's size, SHA-256 and CID (also written to `page-hash.json` beside it). */
  readonly digest: PageDigest
}

/** The name of the digest file written beside the page. */
export const PAGE_HASH_FILE = 'page-hash.json'

/**
 * The name of the page's Brotli copy written beside it: what the package ships instead of the page
 * (`package.json` `files`), which `orbitdraw verifier-page` expands byte for byte
 * (`src/cli/verifier-page-file.ts`). 630 kB of HTML are 213 kB gzipped in the tarball, 170 kB as Brotli.
 */
export const PAGE_BROTLI_FILE = 'index.html.br'

/**
 * The page compressed with Brotli at its highest quality and largest window, as text. Deterministic
 * (the same page gives the same bytes with the same zlib), though only the expanded page's bytes are
 * published and checked.
 */
export function brotliPage(html: Uint8Array): Buffer {
  return brotliCompressSync(html, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
      [zlibConstants.BROTLI_PARAM_LGWIN]: zlibConstants.BROTLI_MAX_WINDOW_BITS,
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: html.length,
    },
  })
}

/**
 * Inside the verify worker, the core's lazily imported pairing module (src/core/drand/pairing.ts) is
 * replaced by the page's client of the pairing worker, so the worker bundle carries no BLS12-381 code.
 */
const pairingOutOfWorker: Plugin = {
  name: 'pairing-out-of-worker',
  setup(b) {
    b.onResolve({ filter: /^\.\/pairing\.js$/ }, (args) => (args.importer.endsWith(join('src', 'core', 'drand', 'verify-step.ts')) ? { path: join(SRC, 'pairing-client.ts') } : undefined))
  },
}

/**
 * The page's words (messages.ts, every language) are one classic script of their own
 * (messages-script.ts), which the page runs first and prepends to the verify worker's `blob:`; in the
 * page's script and in the worker, messages.ts is replaced by messages-shared.ts, which reads that copy.
 */
const messagesShared: Plugin = {
  name: 'messages-shared',
  setup(b) {
    b.onResolve({ filter: /^\.\/messages\.js$/ }, (args) => (args.importer.startsWith(SRC + sep) && !args.importer.endsWith(`${sep}messages-script.ts`) ? { path: join(SRC, 'messages-shared.ts') } : undefined))
  },
}

const gz = (s: string): number => gzipSync(Buffer.from(s), { level: 9 }).length
const sha256b64 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('base64')

/** Builds the verifier page. */
export async function buildVerifier(options: BuildVerifierOptions = {}): Promise<BuildVerifierResult> {
  const outDir = resolve(options.outDir ?? join(ROOT, 'dist', 'verifier'))
  const common = {
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
    write: false,
    metafile: true,
    legalComments: 'eof',
    logLevel: 'silent',
    // The core and its dependencies guard every Node global they touch (`globalThis.process`,
    // `globalThis.Buffer`) and fall back to Web APIs, so no define/alias/inject is needed. Pin the
    // usual `process.env.NODE_ENV` lookups anyway so no stray `process` reference survives.
    define: { 'process.env.NODE_ENV': '"production"' },
  } satisfies BuildOptions
  const bundle = await build({ ...common, entryPoints: [join(SRC, 'main.ts')], plugins: [messagesShared] })
  const messagesBundle = await build({ ...common, format: 'iife', entryPoints: [join(SRC, 'messages-script.ts')] })
  // The worker is a classic script (IIFE): module workers from blob: URLs are less widely supported.
  const workerBundle = await build({ ...common, format: 'iife', entryPoints: [options.workerEntry ?? join(SRC, 'worker-main.ts')], plugins: [pairingOutOfWorker, messagesShared] })
  const pairingBundle = await build({ ...common, format: 'iife', entryPoints: [join(SRC, 'pairing-worker.ts')] })
  const js = bundle.outputFiles[0]!.text
  const workerJs = workerBundle.outputFiles[0]!.text
  const pairingJs = pairingBundle.outputFiles[0]!.text
  const messagesJs = messagesBundle.outputFiles[0]!.text
  for (const [name, b] of [['page', bundle], ['worker', workerBundle]] as const) {
    if (Object.values(b.metafile.outputs).some((o) => Object.keys(o.inputs).some((p) => /messages(-fr)?\.ts$/.test(p)))) throw new Error(`the ${name} bundle carries the page's words itself: they belong in the words script (src/verifier/messages-script.ts)`)
  }
  const workerInputs = Object.values(workerBundle.metafile.outputs).flatMap((o) => Object.keys(o.inputs))
  if (workerInputs.some((p) => /bls12-381|abstract\/bls|abstract\/tower/.test(p))) throw new Error('the verify worker bundle contains the BLS12-381 pairing code: it belongs in the pairing worker (src/verifier/pairing-worker.ts), loaded only for a mixed proof')
  // Inlined into <script>: these sequences would end or confuse the script element. esbuild escapes
  // `</script` itself; fail loudly rather than guess if a dependency ever brings one in.
  for (const [name, code] of [['page', js], ['worker', workerJs], ['pairing', pairingJs], ['words', messagesJs]] as const) {
    if (/<\/script|<!--/i.test(code)) throw new Error(`the ${name} bundle contains "</script" or "<!--"; it cannot be inlined as is`)
  }
  // The page must not carry the verifier itself: it only starts the worker.
  // (64 KiB: the page's words, every shipped language, are in the words script, not in the page script.)
  const pageInputs = Object.values(bundle.metafile.outputs).flatMap((o) => Object.keys(o.inputs))
  if (js.length > 64 * 1024 || pageInputs.some((p) => p.endsWith('src/core/verify.ts'))) throw new Error(`the page script is ${js.length} bytes: something pulled the core into the main thread (it belongs in the worker)`)
  const css = (await transform(await readFile(join(SRC, 'styles.css'), 'utf8'), { loader: 'css', minify: true, target: ['chrome109', 'firefox115', 'safari16'] })).code.trim()
  const template = await readFile(join(SRC, 'index.html'), 'utf8')
  const packageJson = await readFile(join(ROOT, 'package.json'), 'utf8')
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${sha256b64(messagesJs)}' 'sha256-${sha256b64(js)}'`,
    `style-src 'sha256-${sha256b64(css)}'`,
    'img-src data:',
    // the verifier worker, started from the inlined data block (never from a URL)
    'worker-src blob:',
    // only for ?proof=<url>
    "connect-src 'self' http: https:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ')
  const html = template
    .replace('<!--CSP-->', () => `<meta http-equiv="Content-Security-Policy" content="${csp}">`)
    .replace('<!--STYLE-->', () => `<style>${css}</style>`)
    .replace('<!--WORKER-->', () => `<script type="text/plain" id="verify-worker">${workerJs}</script>\n<script type="text/plain" id="pairing-worker">${pairingJs}</script>`)
    .replace('<!--SCRIPT-->', () => `<script id="page-messages">${messagesJs}</script>\n<script type="module">${js}</script>`)
    .replace('<!--VERSION-->', () => (JSON.parse(packageJson) as { version: string }).version)
    // the page's English words, from the messages module (the page swaps them for another language)
    .replace(/(<[a-z0-9]+ [^>]*data-i18n="([A-Za-z]+)"[^>]*>)(<\/)/g, (_m, open: string, key: string, close: string) => {
      const text = (enPage as unknown as Record<string, string | undefined>)[key]
      if (text === undefined) throw new Error(`index.html names the message ${key}, which src/verifier/messages.ts does not have`)
      return `${open}${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}${close}`
    })
  if (['<!--CSP-->', '<!--STYLE-->', '<!--WORKER-->', '<!--SCRIPT-->', '<!--VERSION-->'].some((p) => html.includes(p))) throw new Error('template placeholder left unreplaced')

  const htmlBytes = Buffer.from(html, 'utf8')
  const baseHtml = html.replace(`\n<script type="text/plain" id="pairing-worker">${pairingJs}</script>`, '')
  if (htmlBytes.length > MAX_PAGE_BYTES) throw new Error(`the page is ${htmlBytes.length} bytes, over ${MAX_PAGE_BYTES}: its content address would no longer be one raw block`)
  const digest = pageDigest(htmlBytes)
  await rm(outDir, { recursive: true, force: true })
  await mkdir(outDir, { recursive: true })
  const htmlPath = join(outDir, 'index.html')
  await writeFile(htmlPath, htmlBytes)
  await writeFile(join(outDir, PAGE_BROTLI_FILE), brotliPage(htmlBytes))
  await writeFile(join(outDir, PAGE_HASH_FILE), `${JSON.stringify({ file: 'index.html', ...digest }, null, 2)}\n`)

  const sizes = new Map<string, number>()
  for (const out of [...Object.values(bundle.metafile.outputs), ...Object.values(messagesBundle.metafile.outputs), ...Object.values(workerBundle.metafile.outputs), ...Object.values(pairingBundle.metafile.outputs)]) {
    for (const [path, info] of Object.entries(out.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)(?:\/node_modules\/((?:@[^/]+\/)?[^/]+))?/.exec(path)
      const key = m === null ? path.split('/').slice(0, 2).join('/') : m[2] === undefined ? m[1]! : `${m[2]} (${m[1]}'s copy)`
      sizes.set(key, (sizes.get(key) ?? 0) + info.bytesInOutput)
    }
  }
  return {
    htmlPath,
    js: { min: Buffer.byteLength(js), gzip: gz(js) },
    worker: { min: Buffer.byteLength(workerJs), gzip: gz(workerJs) },
    words: { min: Buffer.byteLength(messagesJs), gzip: gz(messagesJs) },
    pairing: { min: Buffer.byteLength(pairingJs), gzip: gz(pairingJs) },
    css: { min: Buffer.byteLength(css), gzip: gz(css) },
    page: { min: Buffer.byteLength(html), gzip: gz(html) },
    base: { min: Buffer.byteLength(baseHtml), gzip: gz(baseHtml) },
    breakdown: [...sizes].sort((a, b) => b[1] - a[1]),
    digest,
  }
}

/** The markers around the generated hash block in docs/verifier.md. */
export const DOCS_MARKERS = ['<!-- verifier-page-hash:start (written by `npm run build:verifier -- --update-docs`; checked by test/verifier/page-reproducible.test.ts) -->', '<!-- verifier-page-hash:end -->'] as const

/** The generated block of docs/verifier.md for a page digest. */
export function docsHashBlock(d: PageDigest): string {
  return [
    DOCS_MARKERS[0],
    '| the page built from this commit | |',
    '|---|---|',
    `| size | ${d.bytes} bytes |`,
    `| SHA-256 | \`${d.sha256}\` |`,
    `| CID (v1, raw, sha2-256) | \`${d.cid}\` |`,
    DOCS_MARKERS[1],
  ].join('\n')
}

/** The SHA-256 that docs/verifier.md publishes (its generated block), or undefined when absent. */
export function docsPublishedHash(docs: string): { sha256: string; cid: string } | undefined {
  const start = docs.indexOf(DOCS_MARKERS[0])
  const end = docs.indexOf(DOCS_MARKERS[1])
  if (start < 0 || end < start) return undefined
  const block = docs.slice(start, end)
  const sha256 = /\| SHA-256 \| `([0-9a-f]{64})` \|/.exec(block)?.[1]
  const cid = /\| CID \(v1, raw, sha2-256\) \| `(b[a-z2-7]+)` \|/.exec(block)?.[1]
  return sha256 === undefined || cid === undefined ? undefined : { sha256, cid }
}

/** Rewrites the generated block of docs/verifier.md for `d`; returns true when it changed. */
export async function updateDocs(d: PageDigest, docsPath = join(ROOT, 'docs', 'verifier.md')): Promise<boolean> {
  const docs = await readFile(docsPath, 'utf8')
  const start = docs.indexOf(DOCS_MARKERS[0])
  const end = docs.indexOf(DOCS_MARKERS[1])
  if (start < 0 || end < start) throw new Error(`${docsPath} has no ${DOCS_MARKERS[0]} ... ${DOCS_MARKERS[1]} block`)
  const next = `${docs.slice(0, start)}${docsHashBlock(d)}${docs.slice(end + DOCS_MARKERS[1].length)}`
  if (next === docs) return false
  await writeFile(docsPath, next)
  return true
}

const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`

/** A human-readable size report. */
export function formatReport(r: BuildVerifierResult, verbose = false): string {
  const lines = [
    `built ${relative(process.cwd(), r.htmlPath) || r.htmlPath}`,
    `  script   ${kib(r.js.min).padStart(10)} minified   ${kib(r.js.gzip).padStart(10)} minified+gzip  (page)`,
    `  worker   ${kib(r.worker.min).padStart(10)} minified   ${kib(r.worker.gzip).padStart(10)} minified+gzip  (verify)`,
    `  words    ${kib(r.words.min).padStart(10)} minified   ${kib(r.words.gzip).padStart(10)} minified+gzip  (every language's words, shared by the page and the worker)`,
    `  pairing  ${kib(r.pairing.min).padStart(10)} minified   ${kib(r.pairing.gzip).padStart(10)} minified+gzip  (BLS12-381, started only for a mixed proof)`,
    `  styles   ${kib(r.css.min).padStart(10)} minified   ${kib(r.css.gzip).padStart(10)} minified+gzip`,
    `  page     ${kib(r.page.min).padStart(10)} minified   ${kib(r.page.gzip).padStart(10)} minified+gzip  (one self-contained HTML file)`,
    `  base     ${kib(r.base.min).padStart(10)} minified   ${kib(r.base.gzip).padStart(10)} minified+gzip  (the page without the pairing block: what a version 1 proof runs)`,
    `  sha256   ${r.digest.sha256}`,
    `  cid      ${r.digest.cid}`,
  ]
  if (verbose) {
    lines.push('  script by package (minified bytes):')
    for (const [k, v] of r.breakdown.slice(0, 20)) lines.push(`    ${kib(v).padStart(9)}  ${k}`)
  }
  return lines.join('\n')
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2)
  const outIdx = args.indexOf('--out')
  const outDir = outIdx >= 0 ? args[outIdx + 1] : undefined
  buildVerifier({ outDir })
    .then(async (r) => {
      if (!args.includes('--quiet')) console.log(formatReport(r, args.includes('--verbose')))
      if (args.includes('--update-docs')) console.log((await updateDocs(r.digest)) ? 'docs/verifier.md: published hash updated' : 'docs/verifier.md: published hash already current')
    })
    .catch((err: unknown) => {
      console.error(`build-verifier: ${(err as Error).message}`)
      process.exitCode = 1
    })
}
