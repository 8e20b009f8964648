/**
 * Progress while a large participants file is read and hashed (3.5 s for 10^6 entries, over a minute
 * for 10^7): on a terminal one line rewritten in place, in a log one line per tenth; nothing for a file
 * under {@link HASH_PROGRESS_FROM_BYTES}.
 *
 * @module
 */
import type { CliContext } from './command.js'
import { safeText } from './safe-text.js'

/** Files smaller than this (8 MiB, about 400,000 short entries) are hashed in well under a second: no progress. */
export const HASH_PROGRESS_FROM_BYTES = 8 * 1024 * 1024

/** A progress reporter for `streamParticipantsFile`'s `onProgress`, and `done()` to end its line. */
export function hashProgress(ctx: CliContext, path: string): { update(read: number, total: number): void; done(): void } {
  let lastTenth = -1
  let shown = false
  const mib = (n: number): string => (n / (1024 * 1024)).toFixed(0)
  return {
    update(read, total) {
      if (total < HASH_PROGRESS_FROM_BYTES) return
      const tenth = Math.floor((read / total) * 10)
      if (tenth === lastTenth) return
      lastTenth = tenth
      const line = safeText(`hashing ${path}: ${tenth * 10}% (${mib(read)} of ${mib(total)} MiB)`)
      if (ctx.isTTY) ctx.err(`\r${line}\u001b[K`)
      else ctx.err(`${line}\n`)
      shown = true
    },
    done() {
      if (shown && ctx.isTTY) ctx.err('\r\u001b[K')
    },
  }
}
