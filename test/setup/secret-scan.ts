/**
 * Whole-run secret scan (vitest `setupFiles`: runs in every test file). Everything the test process
 * writes to stdout, stderr or the console is recorded, and after the file's tests it must contain no
 * client secret used anywhere in the suite and no access token issued by the emulator. Output of child
 * processes (the CLI) is scanned by the tests that spawn them; the `orbitdraw emulator` command prints
 * the emulator's public test credentials on purpose, in its own process.
 */
import { afterAll } from 'vitest'

/** Every client secret the suite configures (keep in sync when a test adds one). */
export const KNOWN_SECRETS = [
  'S3CR3T-orbitdraw-test-client-secret-9f2c41',
  'emulator-secret',
  'example-secret',
  'wrong-secret-value',
  'emulator-secret-faults-3c9d0e',
  'hardening-secret-7f3a1c9e2b',
] as const

/** Access tokens the emulator issues: `emu_` followed by 48 hex digits. */
const TOKEN_RE = /emu_[0-9a-f]{48}/

const captured: string[] = []
const record = (chunk: unknown): void => {
  captured.push(typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : String(chunk))
}

for (const stream of [process.stdout, process.stderr]) {
  const original = stream.write.bind(stream) as (...args: unknown[]) => boolean
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    record(chunk)
    return original(chunk, ...rest)
  }) as typeof stream.write
}
for (const level of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
  const original = console[level].bind(console)
  console[level] = (...args: unknown[]) => {
    record(args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? `${a.name}: ${a.message}\n${a.stack ?? ''}` : safeJson(a))).join(' '))
    original(...args)
  }
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v)
  } catch {
    return String(v)
  }
}

afterAll(() => {
  const text = captured.join('')
  const leaks = KNOWN_SECRETS.filter((s) => text.includes(s)).map((s) => `client secret ${s.slice(0, 4)}…`)
  const token = TOKEN_RE.exec(text)
  if (token !== null) leaks.push(`access token ${token[0].slice(0, 8)}…`)
  if (leaks.length > 0) throw new Error(`secret scan: this test file's output contains ${leaks.join(', ')}`)
})
