/**
 * A commitment to a participants file of lines, read as a stream (`participants-stream.ts`): the list is
 * never held, so a file of millions of lines commits in memory O(count).
 *
 * @module
 */
import { commitWithDigest, type CommitOptions, type CommitResult } from '../core/commitment.js'
import { InvalidInputError } from '../core/errors.js'
import { DEFAULT_DRAW_KINDS } from '../core/kinds/registry.js'
import { OrganizerSecret } from '../core/secret.js'
import { generateSecret } from '../commit.js'
import { definedFields } from './defined-fields.js'
import { streamParticipantsFile, type StreamedParticipants, type StreamParticipantsOptions } from './participants-stream.js'
import { streamWeightedCsv, type StreamedWeighted } from './weighted-stream.js'

/**
 * Options of {@link commitFile}: the core `commit`'s, without `participants` (they come from the file),
 * with `private` as the Node `commit` takes it, and the reader's own options.
 * @category Node
 */
export interface CommitFileOptions extends Omit<CommitOptions, 'participants' | 'private'> {
  /**
   * `true`: make the list private with a fresh secret from `node:crypto` (returned as `result.secret`);
   * `{ secret }`: use the caller's 32 random bytes. Omit for a public list.
   */
  readonly private?: true | { readonly secret: OrganizerSecret | Uint8Array }
  /** Also find the groups of look-alike entries (`result.list.confusables`). */
  readonly confusables?: boolean
  /** Called after each chunk read: bytes read so far and the file's size. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void
  /** Threads for the hashes, the calling one included (default 2). */
  readonly threads?: 1 | 2
  /** Stops the read once aborted, as `streamParticipantsFile`'s `signal`. */
  readonly signal?: AbortSignal
  /**
   * A weighted list (a `weighted` draw): the file is a CSV with a header row, and this column (a header
   * name or a 1-based number) holds the integer weights; read as a stream by `streamWeightedCsv`.
   */
  readonly weightColumn?: string
  /** With `weightColumn`: the column holding the entries (default: the first). */
  readonly column?: string
}

/**
 * What {@link commitFile} gives: the commitment (as `commit` returns it, `secret` included for a private
 * list) and the list as read (its count, digest, look-alike groups, and entries read again on demand).
 * @category Node
 */
export interface CommitFileResult extends CommitResult {
  /** The list as read: a file of lines, or a weighted CSV (with `weightColumn`). */
  readonly list: StreamedParticipants | StreamedWeighted
}

/**
 * Commits to the participants in a file of lines, read as a stream: the same commitment, byte for byte,
 * as `commit({ ...options, participants })` of the list read whole, with the same entry rules (errors
 * name the file's line or row). A weighted draw reads a CSV's weight column (`weightColumn`). Kinds whose
 * rules look at the whole list (`checkEntries`: the sortition kinds) need the list itself: use `commit`.
 *
 * @example
 * ```ts
 * import { commitFile } from 'orbitdraw/node'
 *
 * const { cid, json, secret, list } = await commitFile('entrants.txt', {
 *   beacon, target, after, draw: { kind: 'pick', count: 3 }, label: 'Spring raffle', private: true,
 * })
 * console.log(`${list.count} entrants committed as ${cid}`)
 * ```
 * @throws {@link streamParticipantsFile}'s errors (a bad file); the core `commit`'s (a bad option,
 *   `INVALID_DRAW` for a kind that needs the list, `LIMIT_EXCEEDED` for a public list whose proof no
 *   verifier could read).
 * @category Node
 */
export async function commitFile(path: string, options: CommitFileOptions): Promise<CommitFileResult> {
  const { private: privacy, confusables, onProgress, threads, weightColumn, column, signal, ...commitOptions } = options
  // Before the file is read: a file of lines has no weights (the core's own error for strings given to a weighted draw).
  const kind = (options.kinds ?? DEFAULT_DRAW_KINDS).get(options.draw?.kind)
  if (kind?.participants === 'weighted' && weightColumn === undefined) throw new InvalidInputError('INVALID_PARTICIPANTS', 'a weighted draw needs entries of the form { entry, weight }, and a file of lines has no weights', 'give the weight column of a CSV (weightColumn), or read the list with its weights and pass it to commit', { path: '$.participants' })
  if (kind !== undefined && kind.participants !== 'weighted' && weightColumn !== undefined) throw new InvalidInputError('INVALID_PARTICIPANTS', `a ${kind.name} draw takes plain entries, not weights`, 'drop weightColumn', { path: '$.participants' })
  const secret = privacy === undefined ? undefined : privacy === true ? generateSecret() : OrganizerSecret.from(privacy.secret)
  // The reading options that are set, passed on as set (an unset one stays absent).
  const reading = definedFields({ secret, confusables, onProgress, threads, signal }, ['secret', 'confusables', 'onProgress', 'threads', 'signal']) satisfies StreamParticipantsOptions
  const list = weightColumn !== undefined ? await streamWeightedCsv(path, { weightColumn, ...definedFields({ column }, ['column']), ...reading }) : await streamParticipantsFile(path, reading)
  const result = commitWithDigest(commitOptions, { count: list.count, root: list.root, salted: secret !== undefined, entryBytes: list.entryBytes })
  return { ...result, ...(secret === undefined ? {} : { secret }), list }
}
