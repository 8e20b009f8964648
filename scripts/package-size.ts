/**
 * The package's weight beside drand-client's (issue 25: tarball and install size), printed as one
 * Markdown table:
 *
 * - the tarball: `npm pack` of the built worktree (scripts skipped: run `npm run build` first), its
 *   size, unpacked size and file count, and where the bytes go (each part's files gzipped alone, level 9:
 *   the tarball compresses across files, so the parts add up to a little more than the tarball);
 * - what an install brings: the tarball installed into an empty directory
 *   (`npm install --omit=dev --prefer-offline`), and `drand-client` (npm's latest, or the version given
 *   with `--drand VERSION`) the same way in another; for each, the packages installed (every
 *   `node_modules/.../package.json` of a package root, nested ones included, the package itself
 *   included) and their bytes (the files' sizes).
 *
 * drand-client comes from the npm registry (or npm's cache): this is a script, not a test or a bench
 * (those never use the network).
 *
 *   npm run build && npx tsx scripts/package-size.ts [--drand VERSION]
 *
 * @module
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** One installed tree: packages (the installed package itself included) and bytes. */
export interface InstallSize {
  readonly packages: number
  readonly bytes: number
  /** The installed version of the package asked for. */
  readonly version: string
}

interface PackResult {
  readonly filename: string
  readonly size: number
  readonly unpackedSize: number
  readonly entryCount: number
  readonly files: readonly { readonly path: string; readonly size: number }[]
}

function npm(args: readonly string[], cwd: string): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
}

/** Bytes of every file under `dir` (symbolic links not followed; `du -sb` adds the directories' own few kB). */
function treeBytes(dir: string): number {
  let total = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) total += treeBytes(p)
    else if (e.isFile()) total += statSync(p).size
  }
  return total
}

/** The package roots under a `node_modules` directory, nested `node_modules` included. */
function countPackages(nodeModules: string): number {
  let n = 0
  for (const e of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue
    const dirs = e.name.startsWith('@') ? readdirSync(join(nodeModules, e.name), { withFileTypes: true }).filter((s) => s.isDirectory()).map((s) => join(nodeModules, e.name, s.name)) : [join(nodeModules, e.name)]
    for (const d of dirs) {
      if (statSync(join(d, 'package.json'), { throwIfNoEntry: false }) !== undefined) n++
      if (statSync(join(d, 'node_modules'), { throwIfNoEntry: false })?.isDirectory() === true) n += countPackages(join(d, 'node_modules'))
    }
  }
  return n
}

/** Installs `spec` (a tarball path or a registry name) into an empty directory; measures `node_modules`. */
export function installSize(spec: string, name: string): InstallSize {
  const dir = mkdtempSync(join(tmpdir(), 'orbitdraw-install-size-'))
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'install-size', private: true }))
    npm(['install', '--omit=dev', '--prefer-offline', '--ignore-scripts', spec], dir)
    const nm = join(dir, 'node_modules')
    const version = (JSON.parse(readFileSync(join(nm, name, 'package.json'), 'utf8')) as { version: string }).version
    return { packages: countPackages(nm), bytes: treeBytes(nm), version }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The tarball's parts, each file gzipped alone (level 9). */
function part(path: string): string {
  if (path.startsWith('dist/bin/')) return 'the command: bin and the verify bundle (`dist/bin/`)'
  if (path.startsWith('dist/verifier/')) return 'the verifier page (`dist/verifier/`: the page as Brotli, which `orbitdraw verifier-page` expands, and its digest)'
  if (path.endsWith('.d.ts')) return 'declarations (`.d.ts`, with the TSDoc; only those an export reaches)'
  if (path.startsWith('dist/cli/')) return 'the other commands (`dist/cli/`, tsc output)'
  if (path.startsWith('dist/')) return "the library's JavaScript (`dist/**/*.js`, every subpath)"
  return 'README, CHANGELOG, SECURITY, LICENSE, package.json, schemas, roots'
}

const fmt = (n: number): string => n.toLocaleString('en-US')

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--drand')
  const drandSpec = at >= 0 && process.argv[at + 1] !== undefined ? `drand-client@${process.argv[at + 1]}` : 'drand-client'
  const out = mkdtempSync(join(tmpdir(), 'orbitdraw-pack-'))
  try {
    const pack = (JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', out], ROOT)) as PackResult[])[0]!
    const parts = new Map<string, [number, number, number]>()
    for (const f of pack.files) {
      const k = part(f.path)
      const p = parts.get(k) ?? [0, 0, 0]
      parts.set(k, [p[0] + 1, p[1] + f.size, p[2] + gzipSync(readFileSync(join(ROOT, f.path)), { level: 9 }).length])
    }
    const ours = installSize(join(out, pack.filename), 'orbitdraw')
    const drand = installSize(drandSpec, 'drand-client')
    const lines = [
      `node ${process.version}, npm ${npm(['--version'], ROOT).trim()}`,
      '',
      '| | orbitdraw | drand-client |',
      '|---|---|---|',
      `| version | ${ours.version} (this worktree) | ${drand.version} |`,
      `| tarball (\`npm pack\`) | ${fmt(pack.size)} bytes, ${fmt(pack.entryCount)} files, ${fmt(pack.unpackedSize)} unpacked | |`,
      `| install (\`npm install --omit=dev\` into an empty directory) | ${ours.packages} packages, ${fmt(ours.bytes)} bytes | ${drand.packages} packages, ${fmt(drand.bytes)} bytes |`,
      '',
      '| part of the tarball | files | unpacked | gzipped alone |',
      '|---|---|---|---|',
      ...[...parts].sort((a, b) => b[1][2] - a[1][2]).map(([k, [n, raw, gz]]) => `| ${k} | ${n} | ${fmt(raw)} | ${fmt(gz)} |`),
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}
