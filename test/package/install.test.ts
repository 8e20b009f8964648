/**
 * The package as a user gets it: `npm pack` of the built worktree (scripts skipped: the tests build
 * first), installed into an empty directory (`npm install --offline --omit=dev`: the dependencies come
 * from npm's cache, never the network; the worktree's own install filled it), then the installed
 * `orbitdraw` verifies the demo-sized proofs (strict: RSA-signed record and RFC 3161 token; relaxed),
 * runs a command from `dist/cli/` (`inspect`, `--help`, `--version` with the shipped page's hash,
 * `verifier-page`, which expands the Brotli page byte for byte), and the
 * library's entries import under Node. So a tarball missing a file the command or an entry needs, a
 * `files` pattern that drops one, or a dependency left out of `dependencies` fails here.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, runCommand, type RunResult } from '../cli/helpers.js'
import { writeVerifyFixtures } from '../cli/verify-fixtures.js'

let dir = ''
let app = ''
let beacon = ''

const npm = (args: readonly string[], cwd: string): Promise<RunResult> => runCommand('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, timeoutMs: 170_000 })
/** The installed command, as `npx orbitdraw` or a package script runs it (`node_modules/.bin`). */
const orbitdraw = (args: readonly string[]): Promise<RunResult> => runCommand(join(app, 'node_modules', '.bin', 'orbitdraw'), args, { cwd: app, timeoutMs: 60_000 })

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orbitdraw-install-'))
  app = join(dir, 'app')
  const packed = await npm(['pack', '--ignore-scripts', '--pack-destination', dir], ROOT)
  expect(packed.code, packed.stderr).toBe(0)
  const tarball = (await readdir(dir)).find((f) => f.endsWith('.tgz'))
  expect(tarball).toBeDefined()
  await runCommand('mkdir', [app])
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'orbitdraw-install-test', private: true, type: 'module' }))
  const installed = await npm(['install', '--offline', '--omit=dev', '--ignore-scripts', join(dir, tarball!)], app)
  expect(installed.code, installed.stderr).toBe(0)
  beacon = await writeVerifyFixtures(app)
}, 400_000)

afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

describe('the packed tarball, installed into an empty directory', () => {
  it('orbitdraw verify passes a strict demo proof (RSA-signed record, RFC 3161 token) and a relaxed one', async () => {
    const strict = await orbitdraw(['verify', 'signed.json', '--trust-beacon', beacon, '--trust-tsa', 'tsa.pem'])
    expect(strict.code, strict.stderr).toBe(0)
    expect(strict.stdout).toMatch(/17 passed, 0 failed of 17 checks/)
    const relaxed = await orbitdraw(['verify', 'plain.json', '--allow-unsigned', '--allow-untimestamped'])
    expect(relaxed.code, relaxed.stderr).toBe(0)
    // Strict by default: the unsigned proof fails, by name, with the verification exit code.
    const refused = await orbitdraw(['verify', 'plain.json'])
    expect(refused.code).toBe(1)
    expect(refused.stdout).toMatch(/^✗ beacon-authenticity /m)
    expect(refused.stdout).toMatch(/^✗ commitment-time /m)
  })

  it('runs the other commands from dist/cli: --help, --version (the shipped page\'s hash), verifier-page, inspect', async () => {
    const help = await orbitdraw(['--help'])
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toContain('Usage: orbitdraw <command>')
    const version = await orbitdraw(['--version'])
    expect(version.code, version.stderr).toBe(0)
    expect(version.stdout).toMatch(/^0\.1\.0\nverifier page sha256 [0-9a-f]{64} /)
    // The package ships the page as Brotli (dist/verifier/index.html.br): the installed command expands
    // it to the page the build hashed, byte for byte (its SHA-256 is the one docs/verifier.md publishes).
    const digest = JSON.parse(await readFile(join(ROOT, 'dist', 'verifier', 'page-hash.json'), 'utf8')) as { bytes: number; sha256: string; cid: string }
    expect(version.stdout).toContain(`verifier page sha256 ${digest.sha256} (cid ${digest.cid}`)
    const page = await orbitdraw(['verifier-page', '-o', 'page.html'])
    expect(page.code, page.stderr).toBe(0)
    const written = await readFile(join(app, 'page.html'))
    expect(written.length).toBe(digest.bytes)
    expect(createHash('sha256').update(written).digest('hex')).toBe(digest.sha256)
    expect(await readdir(join(app, 'node_modules', 'orbitdraw', 'dist', 'verifier'))).not.toContain('index.html')
    const inspect = await orbitdraw(['inspect', 'signed.json'])
    expect(inspect.code, inspect.stderr).toBe(0)
    expect(inspect.stdout).toContain('Proof (read, not verified)')
  })

  it('every entry of package.json exports imports under Node', async () => {
    const script = `
      const pkg = JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, 'node_modules', 'orbitdraw', 'package.json'), 'utf8'))
      ;(async () => {
        const out = {}
        for (const key of Object.keys(pkg.exports)) out[key] = Object.keys(await import('orbitdraw' + key.slice(1))).length
        console.log(JSON.stringify(out))
      })()`
    await writeFile(join(app, 'entries.cjs'), script)
    const r = await runCommand(process.execPath, ['entries.cjs'], { cwd: app, timeoutMs: 60_000 })
    expect(r.code, r.stderr).toBe(0)
    const counts = JSON.parse(r.stdout) as Record<string, number>
    expect(Object.keys(counts)).toContain('./core')
    for (const [entry, n] of Object.entries(counts)) expect(n, entry).toBeGreaterThan(0)
  })
})
