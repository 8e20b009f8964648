/**
 * The command's standard output and error written with `fs.writeSync` on the descriptor, not through
 * `process.stdout` / `process.stderr`: the first touch of either builds a stream object (for a pipe or a
 * terminal, Node's `net` and `tty` stacks with it), which `node -e 0` never does: 7 to 14 M instructions
 * of a strict `orbitdraw verify`'s start-up (docs/performance.md, Start-up). On POSIX, Node writes both
 * streams synchronously anyway (files, pipes and terminals), so the bytes and their order are the same.
 *
 * Node's stream is still used, for every later write too (so that nothing overtakes what it queued),
 * when the descriptor cannot take the bytes synchronously (`EAGAIN`: a non-blocking descriptor another
 * process shares), on any other error (the stream then reports it as before), and on Windows (a console
 * wants the stream's UTF-16 writes). A closed pipe (`EPIPE`, `orbitdraw beacon watch | head -1`) stops
 * the writing quietly, as the stream's `error` handler did.
 *
 * @module
 */
import { writeSync } from 'node:fs'

/** The part of `fs.writeSync` a writer uses (injectable for tests). */
export type WriteSync = (fd: number, bytes: Uint8Array, offset: number, length: number) => number

/** Options of {@link stdWriter}. */
export interface StdWriterOptions {
  /** The descriptor: 1 (standard output) or 2 (standard error). */
  readonly fd: 1 | 2
  /** Node's stream for that descriptor, got only when needed (`() => process.stdout`). */
  readonly stream: () => NodeJS.WritableStream
  /** Called once, when the descriptor turns out to be a closed pipe; nothing more is written. */
  readonly onClosed?: () => void
  /** Default `fs.writeSync`. */
  readonly write?: WriteSync
  /** Default `process.platform === 'win32'`: always the stream. */
  readonly streamOnly?: boolean
}

/** A function that writes text to one standard descriptor, and says whether it ever queued text on Node's stream. */
export interface StdWriter {
  (text: string): void
  /**
   * Whether some text went to Node's stream (a non-blocking descriptor, an error, Windows), where it
   * may still be queued when the command ends; false when every byte was written by `fs.writeSync`.
   */
  readonly usedStream: () => boolean
}

/** A function that writes text to one standard descriptor (see the module comment). */
export function stdWriter(options: StdWriterOptions): StdWriter {
  const write = options.write ?? ((fd, bytes, offset, length) => writeSync(fd, bytes, offset, length))
  let open = true
  let stream: NodeJS.WritableStream | undefined
  const closed = (): void => {
    if (!open) return
    open = false
    options.onClosed?.()
  }
  const viaStream = (chunk: string | Uint8Array): void => {
    if (stream === undefined) {
      stream = options.stream()
      stream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE') throw err
        closed()
      })
    }
    stream.write(chunk)
  }
  let direct = options.streamOnly !== true && process.platform !== 'win32'
  const writer = (text: string): void => {
    if (!open) return
    if (!direct) return viaStream(text)
    const bytes = Buffer.from(text, 'utf8')
    let at = 0
    while (at < bytes.length) {
      let n: number
      try {
        n = write(options.fd, bytes, at, bytes.length - at)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EPIPE') return closed()
        n = 0
      }
      if (n <= 0) {
        // EAGAIN or another error: Node's stream from here on, for the rest of this text and every later write.
        direct = false
        return viaStream(bytes.subarray(at))
      }
      at += n
    }
  }
  return Object.assign(writer, { usedStream: () => stream !== undefined })
}
