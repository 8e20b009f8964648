/**
 * The streamed draw of a weighted participants CSV (`streamDrawFile` with `weightColumn`): the first
 * pass (`weighted-stream.ts`) gives the count, the digest and the weights; the outcome comes from them
 * and the seed as for a list in memory; the winners' entries are read again after the block, and the
 * proof's full disclosure (`{ entry, weight }` items, and a salted list's salts) is written from a second
 * pass over the file, which must be the one first read. The bytes are `serializeProof`'s for the
 * in-memory draw of the same list.
 *
 * @module
 */
import { outcomeFromBlock, prepareDrawFromDigest, proofOf } from '../core/draw.js'
import { kindOf } from '../core/draw-spec.js'
import { InvalidInputError } from '../core/errors.js'
import { fullDisclosureFloor } from '../core/proof-size.js'
import { namedEntries, type StreamDrawOptions, type StreamedDraw } from './streamed-draw.js'
import { definedFields } from './defined-fields.js'
import { fileChanged } from './file-errors.js'
import { saltItems, writeProof, writeProofWithinLimit, type StreamedFullDisclosure } from './proof-writer.js'
import { streamWeightedCsv, type StreamedWeighted } from './weighted-stream.js'

/** {@link StreamedDraw} of a weighted CSV (see the module comment). */
export async function streamWeightedDraw(path: string, weightColumn: string, options: StreamDrawOptions): Promise<StreamedDraw> {
  const secret = options.secret
  // A weighted kind has no winners-only proof: every entry and its weight are in the proof (a salted
  // list's draw refuses in prepare unless the full disclosure is asked for by name).
  const disclosure = options.disclosure ?? 'full'
  const list = await streamWeightedCsv(path, { weightColumn, ...definedFields(options, ['column', 'secret', 'chunkBytes', 'onProgress', 'threads', 'parallelFromBytes', 'blockLog', 'signal']) })
  let winners = new Map<number, string>()
  return {
    count: list.count,
    root: list.root,
    entryBytes: list.entryBytes,
    disclosure,
    prepare(commitment) {
      const kind = kindOf(commitment.draw, options.kinds)
      if (kind.participants !== 'weighted') throw new InvalidInputError('INVALID_OPTION', `this list has weights, and a ${kind.name} draw takes plain entries`, 'read the list without --weight-column (a file of lines, or the entry column alone)')
      return prepareDrawFromDigest(commitment, list, definedFields(options, ['disclosure', 'secret', 'kinds']))
    },
    async prove(prepared, block, drand) {
      if (prepared.disclosure !== 'full') throw new InvalidInputError('INVALID_OPTION', 'a weighted list read as a stream is disclosed in full', 'draw it with disclosure "full"')
      const drawn = outcomeFromBlock(prepared, block, drand, list.weights)
      const kind = kindOf(prepared.commitment.draw, prepared.kinds)
      // The entries the outcome names (its winners: at most the kind's limit), read again.
      const indices = [...namedEntries(kind, drawn.outcome)].sort((a, b) => a - b)
      const texts = await list.entries(indices)
      winners = new Map(indices.map((g, k) => [g, texts[k]!]))
      return proofOf(prepared, drawn, undefined, (i) => winners.get(i)!)
    },
    async write(proof, sink) {
      if (proof.participants !== undefined) {
        await writeProof(proof, sink)
        return
      }
      const full = fullDisclosure(path, list, secret, winners)
      // As draw-stream.ts: a ceiling of what is streamed (an entry escaped is at most 6 bytes a UTF-16
      // unit, a weight and its item's text at most 60 bytes), and the exact size in a dry run when it could be over.
      await writeProofWithinLimit(proof, sink, full, proof, fullDisclosureFloor(list.count, 6 * list.entryBytes, secret !== undefined) + 60 * list.count + 200)
    },
  }
}

/** The full disclosure of a weighted list read again: `{ entry, weight }` items (the winners checked against those read), and a salted list's salts. */
function fullDisclosure(path: string, list: StreamedWeighted, secret: StreamDrawOptions['secret'], winners: ReadonlyMap<number, string>): StreamedFullDisclosure {
  return {
    disclosure: 'full',
    entries: (out) =>
      list.rescan(async (entries, weights, first) => {
        for (let k = 0; k < entries.length; k++) {
          const g = first + k
          const won = winners.get(g)
          if (won !== undefined && won !== entries[k]) throw fileChanged(path)
          await out.json({ entry: entries[k]!, weight: weights[k]! })
        }
      }),
    // A salted list's full disclosure carries every salt, in order (derived, not read).
    ...(secret === undefined ? {} : { salts: saltItems(secret, list.count) }),
  }
}
