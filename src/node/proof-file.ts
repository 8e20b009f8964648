/**
 * Writing a streamed proof to a file all or nothing: the pieces go to a temporary file beside the
 * target, moved into place only once complete, so a failed pass (a file changed under a draw, a full
 * disk) leaves no half proof, and an existing file is never replaced unless asked.
 *
 * @module
 */
import { link, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { InvalidInputError } from '../core/errors.js'
import type {} from './errors.js'
import type { ProofSink } from './proof-writer.js'

/**
 * Options of {@link writeProofFile}.
 * @category Node
 */
export interface WriteProofFileOptions {
  /** Replace an existing file (default false: `FILE_EXISTS`). */
  readonly overwrite?: boolean
}

/**
 * Writes what `produce` sends to its sink into the file `path`, all or nothing (see the module comment).
 *
 * @example
 * ```ts
 * import { streamDrawFile, writeProofFile } from 'orbitdraw/node'
 *
 * const list = await streamDrawFile('entrants.txt')
 * const proof = await list.prove(list.prepare(commitment), block)
 * await writeProofFile('proof.json', (sink) => list.write(proof, sink))
 * ```
 * @throws `InvalidInputError` `FILE_EXISTS` (without `overwrite`), `FILE_UNWRITABLE`; whatever
 *   `produce` throws (nothing is then left behind).
 * @category Node
 */
export async function writeProofFile(path: string, produce: (sink: ProofSink) => Promise<void>, options: WriteProofFileOptions = {}): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.partial`)
  let file: FileHandle
  try {
    file = await open(temp, 'wx')
  } catch (cause) {
    throw unwritable(path, cause)
  }
  let moved = false
  try {
    try {
      await produce(async (piece) => {
        try {
          await file.writeFile(piece)
        } catch (cause) {
          throw unwritable(path, cause)
        }
      })
    } finally {
      await file.close()
    }
    if (options.overwrite !== true) {
      try {
        await link(temp, path) // fails with EEXIST rather than replace a file
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code === 'EEXIST') throw exists(path)
        // A file system without hard links: the existence check, then the move.
        if (await present(path)) throw exists(path)
        await moveInto(temp, path)
        moved = true
      }
    } else {
      await moveInto(temp, path)
      moved = true
    }
  } finally {
    if (!moved) await unlink(temp).catch(() => undefined)
  }
}

async function moveInto(temp: string, path: string): Promise<void> {
  try {
    await rename(temp, path)
  } catch (cause) {
    throw unwritable(path, cause)
  }
}

async function present(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}

function exists(path: string): InvalidInputError {
  return new InvalidInputError('FILE_EXISTS', `${path} already exists`, 'pass overwrite: true to replace it, or choose another file')
}

function unwritable(path: string, cause: unknown): InvalidInputError {
  const code = (cause as NodeJS.ErrnoException).code
  return new InvalidInputError('FILE_UNWRITABLE', `cannot write ${path}: ${code ?? (cause as Error).message}`, 'check the directory exists and is writable', { cause })
}
