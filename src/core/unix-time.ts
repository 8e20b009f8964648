/**
 * Unix times in words, for verdicts and check details (`verdict.ts`, `verify.ts`).
 *
 * @module
 */

/**
 * The UTC time of a unix timestamp in seconds, as `2026-11-23 14:05:09 UTC`.
 * @category Verify
 */
export function formatUnixTime(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds)
  const d = new Date(seconds * 1000)
  return Number.isNaN(d.getTime()) ? String(seconds) : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`
}
