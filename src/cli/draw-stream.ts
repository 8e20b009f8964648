/**
 * `orbitdraw draw` of a participants file, without ever holding the list: the library's
 * streamed draw (`orbitdraw/node`'s `streamDrawFile`, `src/node/draw-stream.ts`) with the command's
 * output: a file written all or nothing (`writeProofFile`), or standard output as it comes.
 *
 * @module
 */
import { InvalidInputError } from '../core/errors.js'
import { streamDrawFile } from '../node/draw-stream.js'
import type { StreamDrawOptions, StreamedDraw } from '../node/streamed-draw.js'
import { writeProofFile } from '../node/proof-file.js'
import type { StreamedProof } from '../node/proof-writer.js'
import { UsageError } from './exit-codes.js'

/** Options of {@link readForDraw}: the library's. */
export type StreamedDrawOptions = StreamDrawOptions

/** Where a proof goes: a file, or standard output (`-`) through `out`. */
export interface ProofOutput {
  readonly path: string
  readonly force: boolean
  readonly command: string
  out(text: string): void
}

/** The library's streamed draw, written where the command writes. */
export interface CliStreamedDraw extends Omit<StreamedDraw, 'write'> {
  /** Writes `proof` (from `prove`, its chain added) as `serializeProof` would, streaming the list. */
  write(proof: StreamedProof, output: ProofOutput): Promise<void>
}

/**
 * Reads a participants file of lines for a draw (the first pass): every entry rule of
 * `readParticipants`, its count, digest (salted with `secret`) and line offsets.
 * @throws the streaming reader's errors (`readParticipants`'s codes and messages).
 */
export async function readForDraw(path: string, options: StreamedDrawOptions = {}): Promise<CliStreamedDraw> {
  const list = await streamDrawFile(path, options)
  return {
    count: list.count,
    root: list.root,
    entryBytes: list.entryBytes,
    disclosure: list.disclosure,
    prepare: (commitment) => list.prepare(commitment),
    prove: (prepared, block, drand) => list.prove(prepared, block, drand),
    async write(proof, output) {
      if (output.path === '-') {
        const decoder = new TextDecoder()
        await list.write(proof, (piece) => output.out(typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true })))
        return
      }
      try {
        await writeProofFile(output.path, (sink) => list.write(proof, sink), { overwrite: output.force })
      } catch (err) {
        if (err instanceof InvalidInputError && err.code === 'FILE_EXISTS') throw new UsageError(`${output.path} already exists; pass --force to overwrite it, or choose another -o file`, output.command)
        throw err
      }
    },
  }
}
