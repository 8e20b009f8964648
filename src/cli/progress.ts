/**
 * The live progress line while waiting for a block: `\r`-updated in place on a terminal, one line
 * per new block otherwise (logs, CI).
 *
 * @module
 */
import type { WaitProgress } from '../beacon/wait.js'
import type { CliContext } from './command.js'
import { formatDuration } from './common.js'

/** A progress reporter for `waitFor`'s `onProgress`. */
export interface ProgressLine {
  /** Pass as `onProgress`. */
  update(p: WaitProgress): void
  /** Ends the line (on a terminal) so the next output starts on its own line. */
  done(): void
}

/** Formats one progress message. */
export function progressText(p: WaitProgress, now = Date.now()): string {
  if (p.remaining <= 0) return `block ${p.target} is out (latest ${p.sequence})`
  const left = formatDuration(p.estimatedTime.getTime() - now)
  return `waiting for block ${p.target}: latest ${p.sequence}, ${p.remaining} block${p.remaining === 1 ? '' : 's'} to go, ~${left} left${p.authenticated ? '' : ' (UNSIGNED head)'}`
}

/** Creates the progress line on the context's stderr; silent when `quiet`. */
export function progressLine(ctx: CliContext, quiet = false): ProgressLine {
  let width = 0
  let lastSequence = -1
  let open = false
  return {
    update(p) {
      if (quiet) return
      const text = progressText(p)
      if (ctx.isTTY) {
        ctx.err(`\r${text.padEnd(width)}`)
        width = text.length
        open = true
      } else if (p.sequence !== lastSequence) {
        ctx.err(`${text}\n`)
      }
      lastSequence = p.sequence
    },
    done() {
      if (open) ctx.err('\n')
      open = false
    },
  }
}
