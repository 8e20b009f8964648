/**
 * The shipped `orbitdraw` command is an esbuild bundle (`dist/bin/`, see scripts/build-cli.ts): these
 * tests check, on the built files themselves, what each command line loads. A module-loader hook
 * (`--import`, Node's `module.register`) in the child process logs every ES module file it loads; the
 * bundle's module map (`dist/bin/meta.json`, written by the build) says which compiled modules each file
 * holds. So `orbitdraw --help` loading the verifier, or a strict `verify` loading the time-stamping
 * client, fails here whatever esbuild names its chunks. (`lazy-commands.test.ts` checks the same table
 * from the sources.)
 */
import { readFile, writeFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeProof, TEST_TSA } from '../browser/fixtures.js'
import { BIN, ROOT, runCommand, useEmulatorWorkspace, type RunOptions, type RunResult } from './helpers.js'

const BUNDLE = dirname(BIN)
/** Output file (relative to the bundle's directory) -> the compiled modules (`dist/...`) in it. */
const META = JSON.parse(readFileSync(join(BUNDLE, 'meta.json'), 'utf8')) as Record<string, string[]>

const HOOKS = `import { appendFileSync } from 'node:fs'
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.LOAD_LOG, url + '\\n')
  return next(url, context)
}
`
const REGISTER = "import { register } from 'node:module'\nregister('./hooks.mjs', import.meta.url)\n"

// Over 1 MiB: `commit` hashes such a file on two threads (the bundle's hash worker).
const BIG = Array.from({ length: 30_000 }, (_, i) => `participant-${String(i).padStart(8, '0')}@raffle.example.org`).join('\n') + '\n'

const ws = useEmulatorWorkspace({ files: { 'hooks.mjs': HOOKS, 'register.mjs': REGISTER, 'big.txt': BIG } })
let beacon = ''

beforeAll(async () => {
  const signed = await makeProof({ signed: 'RSA' })
  beacon = (signed.commitment as { beacon: string }).beacon
  await writeFile(join(ws.dir, 'plain.json'), JSON.stringify(await makeProof()))
  await writeFile(join(ws.dir, 'signed.json'), JSON.stringify(signed))
  await writeFile(join(ws.dir, 'tsa.pem'), TEST_TSA.rootPem)
})

interface Traced extends RunResult {
  /** Every ES module file loaded, relative to the repository (`dist/bin/orbitdraw.js`, ...). */
  readonly files: string[]
  /** The compiled modules (`dist/...`, `node_modules/...`) those files hold. */
  readonly modules: Set<string>
}

let runs = 0
async function traced(args: readonly string[], options: RunOptions = { cwd: ws.dir }): Promise<Traced> {
  const log = join(ws.dir, `load-${++runs}.log`)
  await writeFile(log, '')
  const r = await runCommand(process.execPath, ['--import', join(ws.dir, 'register.mjs'), BIN, ...args], { ...options, env: { ...options.env, LOAD_LOG: log } })
  const files = [...new Set((await readFile(log, 'utf8')).split('\n').filter((l) => l !== '').map((u) => relative(ROOT, fileURLToPath(u))))]
    .filter((f) => !f.startsWith('..')) // the hook modules themselves
  const modules = new Set(files.flatMap((f) => META[relative(relative(ROOT, BUNDLE), f)] ?? [f]))
  return { ...r, files, modules }
}

const commandModules = (t: Traced): string[] => [...t.modules].filter((m) => m.startsWith('dist/cli/commands/') && m !== 'dist/cli/commands/index.js').sort()
const matching = (t: Traced, re: RegExp): string[] => [...t.modules].filter((m) => re.test(m)).sort()

describe('the bundled orbitdraw (package.json bin)', () => {
  it('is an ES module bundle with its own #! line, beside the hash worker, and no source maps', async () => {
    expect(relative(ROOT, BIN)).toBe(join('dist', 'bin', 'orbitdraw.js'))
    expect((await readFile(BIN, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true)
    expect(Object.keys(META)).toContain('hash-worker.js')
    expect(Object.keys(META).filter((f) => f.endsWith('.map'))).toEqual([])
  })

  it('orbitdraw --help loads only the bundle\'s entry files: no command, nothing outside dist/bin', async () => {
    const t = await traced(['--help'])
    expect(t.code).toBe(0)
    expect(t.stdout).toContain('Usage: orbitdraw <command>')
    expect(t.files.every((f) => f.startsWith(join('dist', 'bin') + '/'))).toBe(true)
    expect(t.files).toContain(join('dist', 'bin', 'orbitdraw.js'))
    expect(commandModules(t)).toEqual([])
    expect(matching(t, /^node_modules\//)).toEqual([])
  })

  it('orbitdraw verify --help loads verify\'s usage module, not the verifier', async () => {
    const t = await traced(['verify', '--help'])
    expect(t.code).toBe(0)
    expect(t.stdout).toContain('Usage: orbitdraw verify')
    expect(commandModules(t)).toEqual(['dist/cli/commands/verify-usage.js'])
    expect(matching(t, /^dist\/core\//)).toEqual([])
  })

  it('a relaxed verify loads the verifier but neither the record decoder, the time-stamp checks, the beacon client nor the emulator', async () => {
    const t = await traced(['verify', 'plain.json', '--allow-unsigned', '--allow-untimestamped'])
    expect(t.code, t.stderr).toBe(0)
    expect(t.files.every((f) => f.startsWith(join('dist', 'bin') + '/'))).toBe(true)
    expect(t.modules).toContain('dist/core/verify.js')
    expect(commandModules(t)).toEqual(['dist/cli/commands/describe.js', 'dist/cli/commands/verify-usage.js', 'dist/cli/commands/verify.js'])
    expect(matching(t, /^dist\/core\/(ipns\/record|timestamp\/)|^dist\/(beacon|timestamp|emulator|net)\/|@peculiar/)).toEqual([])
  })

  it('a strict verify (RSA-signed record, RFC 3161 token) adds the record and time-stamp checks, not the time-stamping client, asn1js, the NIST curves of noble (Web Crypto confirms the ECDSA signatures) or the draw side', async () => {
    const t = await traced(['verify', 'signed.json', '--trust-beacon', beacon, '--trust-tsa', 'tsa.pem'])
    expect(t.code, t.stderr).toBe(0)
    expect(t.stdout).toMatch(/17 passed, 0 failed/)
    expect(t.modules).toContain('dist/core/ipns/record.js')
    expect(t.modules).toContain('dist/core/timestamp/check.js')
    expect(commandModules(t)).toEqual(['dist/cli/commands/describe.js', 'dist/cli/commands/verify-usage.js', 'dist/cli/commands/verify.js'])
    expect(matching(t, /^dist\/(beacon|timestamp|emulator|net)\/|@peculiar|asn1js|@noble\/curves\/(nist|abstract\/weierstrass)|csv-parse|^dist\/core\/index\.js$|^dist\/cli\/participants/)).toEqual([])
  })

  it('commit of a file over 1 MiB hashes in the bundle\'s own worker (dist/bin/hash-worker.js)', async () => {
    const t = await traced(['commit', '-p', 'big.txt', '--pick', '1', '--delay', '2s', '--no-timestamp', '-o', 'big.commitment.json'], ws.opts)
    expect(t.code, t.stderr).toBe(0)
    expect(t.files).toContain(join('dist', 'bin', 'hash-worker.js'))
    expect(t.modules).toContain('dist/node/hash-worker.js')
  })
})
