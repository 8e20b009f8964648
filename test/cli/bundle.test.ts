/**
 * The shipped `orbitdraw` command (`dist/bin/orbitdraw.cjs`, five lines: Node's compile cache where Node
 * has it, then `verify` to the verify bundle and every other command to the tsc output `dist/cli/`) and
 * the verify bundle (`dist/bin/orbitdraw-verify.cjs`, see scripts/build-cli.ts): one CommonJS file whose
 * lazily imported modules run only when first imported. These tests check what each command line runs,
 * on a tracing build of the same bundle (`buildCli({ trace: true })`, the same esbuild options plus one
 * line at the top of every module that records its evaluation, and, at exit, the files `require` loaded
 * from `node_modules`). So a strict `verify` running the time-stamping client or requiring a package, or
 * `orbitdraw --help` loading the bundle, fails here. The shipped file itself is checked too: its form,
 * and that it gives the tracing build's answers. (`lazy-commands.test.ts` checks the command table from
 * the sources.)
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN_FILE, BIN_SOURCE, BUNDLED_COMMANDS, buildCli, CLI_FILE, EXTERNAL_PACKAGES, ONLINE_FLAG } from '../../scripts/build-cli.js'
import { FILE_KINDS, KINDS_FILE } from '../../scripts/build-cli-kinds.js'
import { DEFAULT_DRAW_KINDS } from '../../src/core/kinds/registry.js'
import { PARALLEL_MIN_ENTRIES } from '../../src/node/parallel-hash.js'
import { makeDrawProof, makeProof } from '../browser/fixtures.js'
import { writeVerifyFixtures } from './verify-fixtures.js'
import { BIN, ROOT, runCommand, useEmulatorWorkspace, type RunOptions, type RunResult } from './helpers.js'

const BUNDLE = dirname(BIN)
/** Output file (relative to the bundle's directory) -> the compiled modules (`dist/...`) in it. */
const META = JSON.parse(readFileSync(join(BUNDLE, 'meta.json'), 'utf8')) as Record<string, string[]>

// Over 1 MiB: `commit` hashes such a file on two threads (the bundle's hash worker).
const BIG = Array.from({ length: 30_000 }, (_, i) => `participant-${String(i).padStart(8, '0')}@raffle.example.org`).join('\n') + '\n'

const ws = useEmulatorWorkspace({ files: { 'big.txt': BIG } })
let beacon = ''
/** The tracing build: inside the repository, so that `node_modules` resolves from it as from `dist/bin`. */
let traceDir = ''
let traceBin = ''
let traceCli = ''

beforeAll(async () => {
  beacon = await writeVerifyFixtures(ws.dir)
  traceDir = await mkdtemp(join(ROOT, 'node_modules', '.orbitdraw-trace-'))
  const built = await buildCli({ outDir: join(traceDir, 'bin'), trace: true })
  // Laid out as in dist/: the command sends every other command to ../cli/main.js (the real tsc output).
  await symlink(join(ROOT, 'dist', 'cli'), join(traceDir, 'cli'), 'dir')
  // The bundle starts the library's hash worker (tsc output, untraced) as ../node/hash-worker.js: here a
  // stand-in that records its start, then runs dist/node/hash-worker.js itself.
  await mkdir(join(traceDir, 'node'))
  await writeFile(join(traceDir, 'node', 'package.json'), '{ "type": "module" }\n')
  await writeFile(join(traceDir, 'node', 'hash-worker.js'), `import { appendFileSync } from 'node:fs'\nif (process.env.ORBITDRAW_TRACE) appendFileSync(process.env.ORBITDRAW_TRACE, 'started dist/node/hash-worker.js\\n')\nawait import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'node', 'hash-worker.js')).href)})\n`)
  traceBin = built.bin
  traceCli = built.cli
}, 60_000)
afterAll(async () => {
  if (traceDir !== '') await rm(traceDir, { recursive: true, force: true })
})

interface Traced extends RunResult {
  /** Every bundled module evaluated (`dist/...`, `node_modules/...`), in the command and its workers. */
  readonly modules: Set<string>
  /** Every file `require` loaded from outside the bundle, relative to the repository. */
  readonly required: string[]
}

let runs = 0
async function traced(args: readonly string[], options: RunOptions = { cwd: ws.dir }): Promise<Traced> {
  const log = join(ws.dir, `trace-${++runs}.log`)
  await writeFile(log, '')
  const r = await runCommand(process.execPath, [traceBin, ...args], { ...options, env: { ...options.env, ORBITDRAW_TRACE: log } })
  const lines = (await readFile(log, 'utf8')).split('\n').filter((l) => l !== '')
  const required = lines.filter((l) => l.startsWith('required ') && l !== `required ${traceBin}` && l !== `required ${traceCli}`).map((l) => relative(ROOT, l.slice('required '.length)))
  return { ...r, modules: new Set(lines.filter((l) => !l.startsWith('required '))), required }
}

const commandModules = (t: Traced): string[] => [...t.modules].filter((m) => m.startsWith('dist/cli/commands/') && m !== 'dist/cli/commands/index.js').sort()
const matching = (t: Traced, re: RegExp): string[] => [...t.modules].filter((m) => re.test(m)).sort()
/** Whether the command loaded the kinds file (every built-in kind but FILE_KINDS, scripts/build-cli-kinds.ts). */
const loadedKindsFile = (t: Traced): boolean => t.required.some((f) => f.endsWith(`/${KINDS_FILE}`))
/** The built-in kinds whose module ran (`dist/core/kinds/<name>.js`, one per kind; `reroll.js` holds both re-roll kinds). */
const kindModules = (t: Traced): string[] => DEFAULT_DRAW_KINDS.names.filter((n) => n !== 'weighted-reroll' && t.modules.has(`dist/core/kinds/${n}.js`))

describe('the bundled orbitdraw (package.json bin)', () => {
  it('is five lines that send verify to one CommonJS file and every other command to dist/cli, no hash worker of its own, and no source maps', async () => {
    expect(relative(ROOT, BIN)).toBe(join('dist', 'bin', BIN_FILE))
    expect(Object.keys(META)).toEqual([CLI_FILE, KINDS_FILE])
    expect((await readdir(BUNDLE)).sort()).toEqual([BIN_FILE, 'meta.json', CLI_FILE, KINDS_FILE].sort())
    const bin = await readFile(BIN, 'utf8')
    expect(bin).toBe(BIN_SOURCE)
    expect(bin.split('\n')).toEqual([
      '#!/usr/bin/env node',
      "'use strict'",
      "require('node:module').enableCompileCache?.()",
      `if (process.argv[2] === 'verify' && !process.argv.includes("${ONLINE_FLAG}")) require('./${CLI_FILE}').runAsProcess()`,
      "else import('../cli/main.js').then((cli) => cli.runAsProcess())",
      '',
    ])
    expect((await stat(BIN)).mode & 0o111).not.toBe(0)
    const text = await readFile(join(BUNDLE, CLI_FILE), 'utf8')
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true)
    expect(text).toContain('"use strict"')
    expect(META[CLI_FILE]).toContain('dist/core/verify.js')
    // The bundle holds verify only: no other command, nor the draw side, the emulator or the REST client.
    expect(META[CLI_FILE]!.filter((m) => m.startsWith('dist/cli/commands/') && m !== 'dist/cli/commands/index.js').sort()).toEqual(BUNDLED_COMMANDS.map((c) => `dist/cli/commands/${c}.js`).sort())
    expect(META[CLI_FILE]!.filter((m) => /^dist\/(emulator|sortition|timestamp)\/|^dist\/rest\/(?!errors\.js$)|^dist\/cli\/participants/.test(m))).toEqual([])
    // Nor the online re-check: bin sends `verify --online` to dist/cli (ONLINE_FLAG).
    expect(META[CLI_FILE]!.filter((m) => /^dist\/beacon\/(draw|client|gateway|head)\.js$|^dist\/net\/(node-fetch|redirect)\.js$/.test(m))).toEqual([])
    expect(META[CLI_FILE]).not.toContain('dist/node/hash-worker.js')
    expect(META[CLI_FILE]).toContain('dist/node/native-sha2.js')
    expect((await readdir(BUNDLE)).filter((f) => f.endsWith('.map'))).toEqual([])
  })

  it('holds pick in the verify file and every other kind, the sortition engine and the allocation code in the kinds file, each module in one file only', () => {
    expect(FILE_KINDS).toEqual(['pick'])
    const kindFiles = (file: string): string[] => META[file]!.filter((m) => /^dist\/core\/kinds\/[a-z-]+\.js$/.test(m) && DEFAULT_DRAW_KINDS.names.some((n) => m === `dist/core/kinds/${n}.js`))
    expect(kindFiles(CLI_FILE)).toEqual(['dist/core/kinds/pick.js'])
    expect(kindFiles(KINDS_FILE).length).toBeGreaterThan(5)
    expect(META[CLI_FILE]!.filter((m) => /^dist\/core\/(sortition\/(?!pool\.js$)|allocation\/)/.test(m))).toEqual([])
    expect(META[KINDS_FILE]).toContain('dist/core/sortition/count.js')
    // One copy of each module of the library (the errors above all: the reporter tells them apart with instanceof);
    // valibot's functions may be in both (stateless; scripts/build-cli-kinds.ts).
    const inVerifyFile = new Set(META[CLI_FILE])
    expect(META[KINDS_FILE]!.filter((m) => inVerifyFile.has(m) && !m.startsWith('node_modules/valibot/'))).toEqual([])
    expect(META[KINDS_FILE]).not.toContain('dist/core/errors.js')
  })

  it('the verify bundle also runs as a script of its own (node dist/bin/orbitdraw-verify.cjs), with the command\'s answers', async () => {
    for (const args of [['verify', '--help'], ['verify', 'plain.json', '--allow-unsigned', '--allow-untimestamped'], ['verify', 'plain.json']]) {
      const direct = await runCommand(process.execPath, [join(BUNDLE, CLI_FILE), ...args], { cwd: ws.dir })
      const launched = await runCommand(process.execPath, [BIN, ...args], { cwd: ws.dir })
      expect({ code: direct.code, stdout: direct.stdout, stderr: direct.stderr }).toEqual({ code: launched.code, stdout: launched.stdout, stderr: launched.stderr })
    }
  })

  it('exits as soon as the command is done when its output went out directly, not when the event loop empties', async () => {
    // A timer something left behind would keep Node running (and, here, write when it fires); the command ends first.
    const preload = join(ws.dir, 'stray-timer.cjs')
    await writeFile(preload, `setTimeout(() => process.stderr.write('the stray timer fired\\n'), 4000)\n`)
    for (const args of [['verify', 'plain.json', '--allow-unsigned', '--allow-untimestamped'], ['verify', 'no-such-proof.json'], ['--help']]) {
      const r = await runCommand(process.execPath, ['--require', preload, BIN, ...args], { cwd: ws.dir })
      const plain = await runCommand(process.execPath, [BIN, ...args], { cwd: ws.dir })
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }, args.join(' ')).toEqual({ code: plain.code, stdout: plain.stdout, stderr: plain.stderr })
    }
  })

  it('turns on Node\'s compile cache before it loads the CLI where Node has it (Node 22.1+), and runs without it where it has none (Node 20)', async () => {
    // Node 20 has no module.enableCompileCache: a preload gives it one that records what was loaded when it was called.
    const log = join(ws.dir, 'enable.log')
    const preload = join(ws.dir, 'enable-compile-cache.cjs')
    await writeFile(preload, `const m = require('node:module'); m.enableCompileCache = () => { require('node:fs').writeFileSync(${JSON.stringify(log)}, JSON.stringify(Object.keys(require.cache))); return { status: 0 } }\n`)
    const withCache = await runCommand(process.execPath, ['--require', preload, BIN, '--help'], { cwd: ws.dir })
    expect(withCache.code).toBe(0)
    const loaded = JSON.parse(await readFile(log, 'utf8')) as string[]
    expect(loaded).toContain(BIN)
    expect(loaded).not.toContain(join(BUNDLE, CLI_FILE))
    const without = await runCommand(process.execPath, [BIN, '--help'], { cwd: ws.dir })
    expect(without).toMatchObject({ code: 0, stdout: withCache.stdout })
  })

  it('leaves exactly the listed packages out (required from node_modules), and bundles every other dependency', () => {
    const bundled = META[CLI_FILE]!.filter((m) => m.startsWith('node_modules/'))
    expect(bundled.filter((m) => /node_modules\/(asn1js|@peculiar|csv-parse|@noble\/curves)\//.test(m))).toEqual([])
    // No ASN.1 package in the CLI or the library: the core's DER reader and writer do it all.
    expect(META[CLI_FILE]!.some((m) => m === 'dist/core/timestamp/der.js')).toBe(true)
    expect(bundled.some((m) => m.startsWith('node_modules/multiformats/'))).toBe(true)
    // What stays outside the file must be installed with the package: each pattern names dependencies.
    const deps = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies)
    for (const pattern of EXTERNAL_PACKAGES) {
      const prefix = pattern.replace(/\/\*$/, '')
      expect(deps.filter((d) => d === prefix || d.startsWith(`${prefix}/`)), pattern).not.toEqual([])
    }
  })

  it('the shipped file and the tracing build give the same answers', async () => {
    for (const args of [['verify', '--help'], ['verify', 'plain.json', '--allow-unsigned', '--allow-untimestamped']]) {
      const shipped = await runCommand(process.execPath, [BIN, ...args], { cwd: ws.dir })
      const trace = await traced(args)
      expect({ code: trace.code, stdout: trace.stdout }).toEqual({ code: shipped.code, stdout: shipped.stdout })
    }
  })

  it('orbitdraw --help and every command but verify run from dist/cli (the tsc output), loading nothing of the verify bundle', async () => {
    for (const args of [['--help'], ['inspect', 'plain.json'], ['verifx', 'plain.json']]) {
      const t = await traced(args)
      const shipped = await runCommand(process.execPath, [BIN, ...args], { cwd: ws.dir })
      expect({ code: t.code, stdout: t.stdout, stderr: t.stderr }).toEqual({ code: shipped.code, stdout: shipped.stdout, stderr: shipped.stderr })
      expect([...t.modules], args.join(' ')).toEqual([])
    }
    const help = await traced(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: orbitdraw <command>')
  })

  it('orbitdraw verify --online runs from dist/cli (the online re-check is not in the bundle), with the same answers as the bundle to a usage error', async () => {
    const online = await traced(['verify', 'plain.json', '--online', '--gateway', 'not a url'])
    expect([...online.modules]).toEqual([])
    expect(online.code).toBe(2)
    expect(online.stderr).toMatch(/gateway/i)
    // Without --online the same misuse is the bundle's to refuse, in the same words.
    const offline = await traced(['verify', 'plain.json', '--gateway', 'https://ipfs.io'])
    expect(offline.modules).toContain('dist/cli/commands/verify.js')
    const unbundled = await runCommand(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'verify', 'plain.json', '--gateway', 'https://ipfs.io'], { cwd: ws.dir })
    expect({ code: offline.code, stdout: offline.stdout, stderr: offline.stderr }).toEqual({ code: unbundled.code, stdout: unbundled.stdout, stderr: unbundled.stderr })
  })

  it('orbitdraw verify --help runs verify\'s usage module, not the verifier', async () => {
    const t = await traced(['verify', '--help'])
    expect(t.code).toBe(0)
    expect(t.stdout).toContain('Usage: orbitdraw verify')
    expect(commandModules(t)).toEqual(['dist/cli/commands/verify-usage.js'])
    // Of the core, only the list of characters the terminal output escapes (two data modules without
    // imports, shared with the verifier page), never the verifier.
    expect(matching(t, /^dist\/core\//).sort()).toEqual(['dist/core/display-text.js', 'dist/core/invisible-ranges.js'])
  })

  it('a relaxed verify runs the verifier but neither the record decoder, the time-stamp checks, the beacon client nor the emulator', async () => {
    const t = await traced(['verify', 'plain.json', '--allow-unsigned', '--allow-untimestamped'])
    expect(t.code, t.stderr).toBe(0)
    expect(t.modules).toContain('dist/core/verify.js')
    expect(commandModules(t)).toEqual(['dist/cli/commands/describe.js', 'dist/cli/commands/verify-usage.js', 'dist/cli/commands/verify.js'])
    // The trust material (createTrust) names the public authorities: their data (core/timestamp/defaults.js, roots.js:
    // names, URLs, root bytes) loads, never the time-stamp checks (DER, certificates, signatures).
    expect(matching(t, /^dist\/core\/(ipns\/(record|key-format|ed25519)|timestamp\/(?!(defaults|roots)\.js$))|^dist\/(beacon|timestamp|emulator|net)\/|@noble\/curves/)).toEqual([])
    expect(t.required.filter((f) => f.startsWith('node_modules/'))).toEqual([])
  })

  it('a strict verify (RSA-signed record, RFC 3161 token) adds the record and time-stamp checks, not Ed25519, the time-stamping client, asn1js, the NIST curves of noble (Web Crypto confirms the ECDSA signatures) or the draw side', async () => {
    const t = await traced(['verify', 'signed.json', '--trust-beacon', beacon, '--trust-tsa', 'tsa.pem'])
    expect(t.code, t.stderr).toBe(0)
    expect(t.stdout).toMatch(/17 passed, 0 failed/)
    expect(t.modules).toContain('dist/core/ipns/record.js')
    expect(t.modules).toContain('dist/core/timestamp/check.js')
    expect(commandModules(t)).toEqual(['dist/cli/commands/describe.js', 'dist/cli/commands/verify-usage.js', 'dist/cli/commands/verify.js'])
    expect(matching(t, /^dist\/(beacon|timestamp|emulator|net)\/|@noble\/curves|^dist\/core\/ipns\/ed25519\.js$|^dist\/core\/index\.js$|^dist\/cli\/participants/)).toEqual([])
    expect(t.required.filter((f) => f.startsWith('node_modules/'))).toEqual([])
    // The kinds are loaded on first use (scripts/build-cli-kinds.ts, registryPlugin): a pick proof runs the pick kind's module,
    // no other kind's, and neither the sortition engine (but its limits, pool.js) nor the allocation kinds.
    expect(kindModules(t)).toEqual(['pick'])
    expect(loadedKindsFile(t)).toBe(false)
    expect(matching(t, /^dist\/core\/(sortition\/(?!pool\.js$)|allocation\/)/)).toEqual([])
    expect(t.modules).not.toContain('dist/core/kinds/registry.js')
    expect(META[CLI_FILE]).not.toContain('dist/core/kinds/registry.js')
    // The participants' digest with node:crypto (src/node/native-digest.ts): the core's SHA-256 would run cold.
    expect(t.modules).toContain('dist/node/native-digest.js')
    // So are the core's other SHA-2 digests (blocks, commitment, token, certificates): noble's sha2 module is
    // dist/node/native-sha2.js in the bundle (scripts/build-cli.ts, nativeSha2).
    expect(t.modules).toContain('dist/node/native-sha2.js')
  })

  it('a verify of a proof of each kind in the vectors (test/vectors/draws.json) runs that kind\'s module and no other kind\'s', async () => {
    // The other kinds' modules a kind's module imports (weighted reuses pick's count check).
    const ALSO_RUNS: Record<string, readonly string[]> = { weighted: ['pick'] }
    const vectors = JSON.parse(await readFile(join(ROOT, 'test', 'vectors', 'draws.json'), 'utf8')) as { cases: { name: string; commitmentCid: string; proof: { commitment: { draw: { kind: string } } } }[] }
    const byKind = new Map(vectors.cases.map((c) => [c.proof.commitment.draw.kind, c] as const))
    expect([...byKind.keys()].sort()).toEqual(['panel', 'panel-lottery', 'pick', 'range', 'shuffle', 'tiebreak', 'weighted'])
    for (const [kind, c] of byKind) {
      await writeFile(join(ws.dir, `${c.name}.json`), JSON.stringify(c.proof))
      const t = await traced(['verify', `${c.name}.json`, '--allow-unsigned', '--allow-untimestamped', '--commitment', c.commitmentCid])
      expect(t.code, `${kind}: ${t.stderr}`).toBe(0)
      expect(kindModules(t), kind).toEqual(DEFAULT_DRAW_KINDS.names.filter((n) => n === kind || ALSO_RUNS[kind]?.includes(n)))
      expect(loadedKindsFile(t), kind).toBe(!FILE_KINDS.includes(kind))
      if (!kind.startsWith('panel')) expect(matching(t, /^dist\/core\/(sortition\/(?!pool\.js$)|allocation\/)/), kind).toEqual([])
    }
  })

  it('a strict verify of an Ed25519-signed record runs Ed25519 (@noble/curves) and passes', async () => {
    const signed = await makeProof({ signed: 'Ed25519' })
    await writeFile(join(ws.dir, 'signed-ed.json'), JSON.stringify(signed))
    const t = await traced(['verify', 'signed-ed.json', '--trust-beacon', (signed.commitment as { beacon: string }).beacon, '--trust-tsa', 'tsa.pem'])
    expect(t.code, t.stderr).toBe(0)
    expect(t.modules).toContain('dist/core/ipns/ed25519.js')
    // @noble/curves stays in node_modules (an ES module, which Node 20.19 and later require()).
    expect(t.required).toContain('node_modules/@noble/curves/ed25519.js')
  })

  it('commit of a file over 1 MiB runs from dist/cli and time-stamps with the core\'s DER writer and reader', async () => {
    const r = await runCommand(process.execPath, [BIN, 'commit', '-p', 'big.txt', '--pick', '1', '--delay', '2s', '-o', 'big.commitment.json'], ws.opts)
    expect(r.code, r.stderr).toBe(0)
    const file = JSON.parse(await readFile(join(ws.dir, 'big.commitment.json'), 'utf8')) as { commitment: { participants: { count: number } }; timestamps: string[] }
    expect(file.commitment.participants.count).toBe(30_000)
    expect(file.timestamps.length).toBeGreaterThan(0)
  })

  it('a verify of a proof over 2 MiB hashes its participants in the library\'s worker (dist/node/hash-worker.js, as ../node/ from the bundle)', async () => {
    const participants = Array.from({ length: PARALLEL_MIN_ENTRIES + 10_000 }, (_, i) => `participant-${String(i).padStart(8, '0')}@raffle.example.org`)
    const proof = makeDrawProof({ kind: 'pick', count: 2 }, participants, DEFAULT_DRAW_KINDS)
    await writeFile(join(ws.dir, 'big-proof.json'), JSON.stringify(proof))
    expect((await stat(join(ws.dir, 'big-proof.json'))).size).toBeGreaterThan(2 * 1024 * 1024)
    const t = await traced(['verify', 'big-proof.json', '--allow-unsigned', '--allow-untimestamped'])
    expect(t.code, t.stderr).toBe(0)
    expect(t.modules).toContain('dist/node/parallel-hash.js')
    expect(t.modules).toContain('started dist/node/hash-worker.js')
    expect(t.required.filter((f) => /^node_modules\/(asn1js|@peculiar|pvtsutils|pvutils|tslib)\//.test(f))).toEqual([])
  })
})
