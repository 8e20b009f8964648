/**
 * Shared helpers of the hardening suites: figures recording (printed and written as JSON for
 * docs/security.md), the secret scan, and the typed-error predicate.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { OrbitdrawError } from '../../src/core/errors.js'

/** Where each suite writes its figures (`ORBITDRAW_FIGURES_DIR`, default a temp folder). */
export const FIGURES_DIR = process.env.ORBITDRAW_FIGURES_DIR ?? join(tmpdir(), 'orbitdraw-hardening-figures')

/** Writes a suite's figures as JSON and prints them (one line per key). */
export function recordFigures(suite: string, figures: unknown): void {
  mkdirSync(FIGURES_DIR, { recursive: true })
  writeFileSync(join(FIGURES_DIR, `${suite}.json`), `${JSON.stringify(figures, null, 2)}\n`)
  if (process.env.ORBITDRAW_PRINT_FIGURES !== undefined) console.log(`[hardening:${suite}]`, JSON.stringify(figures, null, 2))
}

/** True for an orbitdraw typed error (what every parser and client may throw). */
export function isTyped(err: unknown): err is OrbitdrawError {
  return err instanceof OrbitdrawError && typeof err.code === 'string' && /^[A-Z0-9_]+$/.test(err.code)
}

/** Every textual form a value may take when logged or serialized (message, stack, JSON, inspect, cause chain). */
export function textualForms(v: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 8) return out
  try {
    out.push(String(v))
  } catch {
    // a value without a string form
  }
  out.push(inspect(v, { depth: 10, showHidden: true }))
  try {
    out.push(JSON.stringify(v) ?? '')
  } catch {
    // circular: inspect covers it
  }
  if (v instanceof Error) {
    out.push(v.message, v.stack ?? '')
    if (v.cause !== undefined) textualForms(v.cause, out, depth + 1)
    for (const k of ['endpointError', 'fallbackError', 'failures'] as const) {
      const x = (v as unknown as Record<string, unknown>)[k]
      if (x !== undefined) textualForms(x, out, depth + 1)
    }
  }
  return out
}

/** A collector of everything produced (errors, log lines, results) for the secret scan. */
export class SecretScan {
  readonly produced: string[] = []
  readonly secrets = new Set<string>()

  /** Registers a secret (client secret, access token) to look for. */
  secret(s: string): void {
    if (s.length >= 8) this.secrets.add(s)
  }

  /** Records every textual form of a value. */
  add(v: unknown): void {
    textualForms(v, this.produced)
  }

  /** A logger that records its lines. */
  logger(): Record<'debug' | 'info' | 'warn' | 'error', (m: string, f?: Record<string, unknown>) => void> {
    const push = (level: string) => (m: string, f?: Record<string, unknown>) => this.produced.push(`${level} ${m} ${f === undefined ? '' : JSON.stringify(f)}`)
    return { debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') }
  }

  /** The secrets found in what was produced (empty when nothing leaked). */
  leaks(): { secret: string; sample: string }[] {
    const out: { secret: string; sample: string }[] = []
    for (const s of this.secrets) {
      const hit = this.produced.find((p) => p.includes(s))
      if (hit !== undefined) out.push({ secret: `${s.slice(0, 6)}…`, sample: hit.slice(Math.max(0, hit.indexOf(s) - 80), hit.indexOf(s) + 20).replace(s, '<SECRET>') })
    }
    return out
  }
}

/** Runs `fn`, returning its value or the error it threw (never throwing). */
export async function settle<T>(fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await fn() }
  } catch (error) {
    return { ok: false, error }
  }
}
