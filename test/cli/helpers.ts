/**
 * Runs the real `orbitdraw` binary (dist/cli/main.js, built by `pretest`) as a child process.
 * Always asynchronous: the emulator answering it runs in this test process.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dirname, '../..')
export const BIN = join(ROOT, 'dist/cli/main.js')

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

/** Environment without anything that could point the CLI elsewhere. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('ORBITDRAW_') && !k.startsWith('ORBITPORT_')) env[k] = v
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v
  return env
}

/** Runs `node dist/cli/main.js ...args`; kills it after `timeoutMs` (default 20 s). */
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

/** A fresh temporary directory and its cleanup. */
export async function tempDir(): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'orbitdraw-cli-'))
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/** Parses stdout as JSON, with the output in the error when it is not. */
export function json<T = Record<string, unknown>>(r: RunResult): T {
  try {
    return JSON.parse(r.stdout) as T
  } catch {
    throw new Error(`stdout is not JSON (exit ${r.code}):\n${r.stdout}\n--- stderr:\n${r.stderr}`)
  }
}

/** Sample participants: `Person 1` … `Person n`, one per line. */
export function names(n: number, prefix = 'Person'): string {
  return Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n') + '\n'
}
