/**
 * Runs the real `orbitdraw` binary (what `package.json` `bin` points at: `dist/bin/orbitdraw.cjs`, which runs the bundle,
 * built by `pretest`) as a child process.
 * Always asynchronous: the emulator answering it runs in this test process.
 *
 * {@link useWorkspace} and {@link useEmulatorWorkspace} are the one per-file fixture of the CLI suites:
 * a temporary directory (and an emulator on a free loopback port) made in `beforeAll`, removed in
 * `afterAll`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js'

export const ROOT = resolve(import.meta.dirname, '../..')
/** The `orbitdraw` command as installed: read from `package.json` `bin`, so the tests cannot drift from it. */
export const BIN = join(ROOT, (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: { orbitdraw: string } }).bin.orbitdraw)

export interface RunResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface RunOptions {
  env?: Record<string, string | undefined>
  cwd?: string
  input?: string
  timeoutMs?: number
}

/** Environment without anything that could point the CLI elsewhere; `extra` may add to it. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('ORBITDRAW_') && !k.startsWith('ORBITPORT_')) env[k] = v
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v
  return env
}

/** Runs `node BIN ...args`; kills it after `timeoutMs` (default 20 s). */
export function run(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return runCommand(process.execPath, [BIN, ...args], options)
}

/** Runs any command the same way. */
export function runCommand(cmd: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: options.cwd ?? ROOT, env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolvePromise({ code, signal, stdout, stderr })
    })
    if (options.input !== undefined) child.stdin.end(options.input)
    else child.stdin.end()
  })
}

/** Spawns the binary and leaves it running (for `emulator`). */
export function start(args: readonly string[], options: RunOptions = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] })
}

/** A loopback port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolvePromise(port))
    })
  })
}

/** Parses stdout as JSON, with the output in the error when it is not. */
export function json<T = Record<string, unknown>>(r: RunResult): T {
  try {
    return JSON.parse(r.stdout) as T
  } catch {
    throw new Error(`stdout is not JSON (exit ${r.code}):\n${r.stdout}\n--- stderr:\n${r.stderr}`)
  }
}

/** The draw command `commit` printed, as arguments for {@link run} (it is shell-quoted only when needed); fails the test when there is none. */
export function printedDraw(stdout: string): string[] {
  const line = stdout.split('\n').find((l) => l.trim().startsWith('orbitdraw draw '))
  expect(line).toBeDefined()
  return line!.trim().split(/\s+/).slice(1)
}

/**
 * `--delay` for a time-stamped commit whose proof must pass `commitment-time`: the commit process has to
 * read the head, pick the target and get its time-stamp before the target block appears. On a loaded
 * 2-core machine a CLI start-up alone can take seconds (3 s failed at load 14), so the window is 8 s;
 * the draw then waits about that long (idle time, not CPU).
 */
export const STAMPED_DELAY = '8s'

/** Sample participants: `Person 1` … `Person n`, one per line. */
export function names(n: number, prefix = 'Person'): string {
  return Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n') + '\n'
}

/** A temporary directory made for one test file. */
export interface Workspace {
  /** The directory; the CLI runs in it (`cwd`). */
  readonly dir: string
}

/** A {@link Workspace} with an emulator the CLI is pointed at. */
export interface EmulatorWorkspace extends Workspace {
  /** The running emulator (stopped in `afterAll`). */
  readonly emu: RunningEmulator
  /** Run options: `cwd` is {@link Workspace.dir}, the environment points the CLI at {@link emu}. */
  readonly opts: RunOptions
}

export interface WorkspaceOptions {
  /** Files written into the directory before the tests (name relative to it: contents). */
  files?: Record<string, string | Uint8Array>
}

export interface EmulatorWorkspaceOptions extends WorkspaceOptions {
  /** Emulator options; default: an Ed25519 beacon with a block every 250 ms, 3 blocks at start. */
  emulator?: EmulatorOptions
  /**
   * Whether {@link EmulatorWorkspace.opts} also trusts the emulator's beacon and time-stamping root
   * (`ORBITDRAW_TRUST_BEACONS`, `ORBITDRAW_TRUST_TSA`); default true. Without it the CLI keeps its
   * default policy (Orbitport's beacons and the built-in roots only).
   */
  trust?: boolean
}

/** The default emulator of the CLI suites: quick blocks, an Ed25519 key (fast to sign). */
export const CLI_EMULATOR: EmulatorOptions = { beacon: { intervalMs: 250, keyType: 'Ed25519', initialBlocks: 3 } }

/** An object whose fields are set in `beforeAll`: reading one earlier is a mistake in the test file. */
function lateFields<T extends object>(what: string): { target: Partial<T>; view: T } {
  const target: Partial<T> = {}
  const view = new Proxy(target, {
    get(t, key) {
      const value = (t as Record<string | symbol, unknown>)[key]
      if (value === undefined) throw new Error(`${what}.${String(key)} is read before its beforeAll ran (read it inside a test or a later hook)`)
      return value
    },
  }) as T
  return { target, view }
}

async function makeDir(files: Record<string, string | Uint8Array> | undefined): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'orbitdraw-cli-'))
  for (const [name, contents] of Object.entries(files ?? {})) await writeFile(join(dir, name), contents)
  return dir
}

/**
 * Registers a fresh temporary directory for this test file (`beforeAll`) and its removal (`afterAll`).
 *
 * @example
 * ```ts
 * const ws = useWorkspace({ files: { 'names.txt': names(5) } })
 * it('…', async () => { await run(['verify', 'p.json'], { cwd: ws.dir }) })
 * ```
 */
export function useWorkspace(options: WorkspaceOptions = {}): Workspace {
  const { target, view } = lateFields<Workspace>('workspace')
  beforeAll(async () => {
    Object.assign(target, { dir: await makeDir(options.files) })
  })
  afterAll(async () => {
    if (target.dir !== undefined) await rm(target.dir, { recursive: true, force: true })
  })
  return view
}

/**
 * Registers, for this test file, an emulator on a free loopback port and a fresh temporary directory
 * (`beforeAll`), and their teardown (`afterAll`). Hooks the file registers after this call run after
 * the setup and before the teardown.
 *
 * @example
 * ```ts
 * const ws = useEmulatorWorkspace({ files: { 'names.txt': names(5) } })
 * it('…', async () => { await run(['commit', '-p', 'names.txt', '--pick', '1'], ws.opts) })
 * ```
 */
export function useEmulatorWorkspace(options: EmulatorWorkspaceOptions = {}): EmulatorWorkspace {
  const { target, view } = lateFields<EmulatorWorkspace>('workspace')
  beforeAll(async () => {
    const emu = await startEmulator(options.emulator ?? CLI_EMULATOR)
    Object.assign(target, { emu })
    const dir = await makeDir(options.files)
    const env: Record<string, string> = { ORBITDRAW_GATEWAYS: emu.url, ORBITDRAW_BEACON: emu.beaconName, ORBITDRAW_TSA: emu.tsaUrl }
    if (options.trust !== false) Object.assign(env, { ORBITDRAW_TRUST_BEACONS: emu.beaconName, ORBITDRAW_TRUST_TSA: Buffer.from(emu.tsa.rootDer).toString('base64') })
    Object.assign(target, { dir, opts: { cwd: dir, env } })
  })
  afterAll(async () => {
    await target.emu?.stop()
    if (target.dir !== undefined) await rm(target.dir, { recursive: true, force: true })
  })
  return view
}
