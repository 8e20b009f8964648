/**
 * streamReceiptsFile (src/node/receipts-stream.ts): the receipts of a private list in a file of lines are
 * `makeReceipts`' of the list read whole, byte for byte, across block boundaries, on small and medium
 * lists; they check; a public commitment, a wrong secret, a wrong count and a file changed between the
 * passes fail with `makeReceipts`' typed errors.
 */
import { writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { checkReceipt, commit, makeReceipts, serializeReceipt, type Receipt } from '../../src/core/index.js'
import { OrganizerSecret } from '../../src/core/formats.js'
import { streamReceiptsFile } from '../../src/node/receipts-stream.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { useTempFiles } from '../helpers/temp-files.js'
import { errorOf, rejectionOf } from '../helpers/thrown.js'

const files = useTempFiles('orbitdraw-receipts-stream-')

const chain = buildChain(10, 'receipts-stream')
const SECRET = OrganizerSecret.fromBytes(new Uint8Array(32).fill(17))
const BASE = { beacon: BEACON_NAME, target: 9, after: { sequence: 7, block: chain[7]!.cid }, draw: { kind: 'pick' as const, count: 2 }, label: 'receipts' }

const fileOf = (text: string): Promise<string> => files.write(text)

async function all(it: AsyncIterable<Receipt>): Promise<string[]> {
  const out: string[] = []
  for await (const r of it) out.push(serializeReceipt(r))
  return out
}

describe('streamReceiptsFile = makeReceipts, byte for byte', () => {
  for (const [n, blockLog, threads] of [[2, 2, 1], [37, 2, 1], [20_000, 10, 2]] as const) {
    it(`${n} entries, blocks of ${2 ** blockLog}, ${threads} thread(s)`, async () => {
      const list = Array.from({ length: n }, (_, i) => (i % 7 === 0 ? `Ünï "${i}"` : `member ${i}`))
      const committed = commit({ ...BASE, participants: list, private: { secret: SECRET } })
      const path = await fileOf(list.join('\n') + '\n')
      const book = await streamReceiptsFile(committed, path, SECRET, { blockLog, threads })
      expect(book.cid).toBe(committed.cid)
      expect(book.count).toBe(n)
      const expected = [...makeReceipts(committed, list, SECRET).receipts()].map(serializeReceipt)
      expect(await all(book.receipts())).toEqual(expected)
      expect(await book.entries(0, Math.min(3, n))).toEqual(list.slice(0, 3))
      const again: string[] = []
      await book.rescan((entries, first) => {
        expect(first).toBe(again.length)
        again.push(...entries)
      })
      expect(again).toEqual(list)
    })
  }

  it('every receipt checks against the commitment', async () => {
    const list = Array.from({ length: 21 }, (_, i) => `m${i}`)
    const committed = commit({ ...BASE, participants: list, private: { secret: SECRET } })
    const book = await streamReceiptsFile(committed.commitment, await fileOf(list.join('\n')), SECRET, { blockLog: 2, threads: 1 })
    for await (const r of book.receipts()) expect(checkReceipt(r, { commitment: committed.cid }).ok).toBe(true)
  })
})

describe('errors', () => {
  const list = ['ann', 'bob', 'cy', 'dee']
  const committed = commit({ ...BASE, participants: list, private: { secret: SECRET } })

  it('a public commitment: NOT_SALTED', async () => {
    const pub = commit({ ...BASE, participants: list })
    expect(await rejectionOf(streamReceiptsFile(pub, await fileOf('ann\nbob\ncy\ndee\n'), SECRET))).toEqual(errorOf(() => makeReceipts(pub, list, SECRET)))
  })

  it('a wrong secret, a wrong count, a wrong order: makeReceipts\' PARTICIPANTS_MISMATCH', async () => {
    const other = OrganizerSecret.fromBytes(new Uint8Array(32).fill(18))
    expect(await rejectionOf(streamReceiptsFile(committed, await fileOf('ann\nbob\ncy\ndee\n'), other, { threads: 1 }))).toEqual(errorOf(() => makeReceipts(committed, list, other)))
    expect(await rejectionOf(streamReceiptsFile(committed, await fileOf('ann\nbob\ncy\n'), SECRET, { threads: 1 }))).toEqual(errorOf(() => makeReceipts(committed, list.slice(0, 3), SECRET)))
    const swapped = ['bob', 'ann', 'cy', 'dee']
    expect(await rejectionOf(streamReceiptsFile(committed, await fileOf(swapped.join('\n')), SECRET, { threads: 1 }))).toEqual(errorOf(() => makeReceipts(committed, swapped, SECRET)))
  })

  it('weightColumn for a draw of plain entries: INVALID_PARTICIPANTS', async () => {
    await expect(streamReceiptsFile(committed, await fileOf('ann\nbob\ncy\ndee\n'), SECRET, { weightColumn: 'tickets' })).rejects.toMatchObject({ code: 'INVALID_PARTICIPANTS', hint: 'drop weightColumn' })
  })

  it('a bad file: the reader\'s error with its line', async () => {
    await expect(streamReceiptsFile(committed, await fileOf('ann\nbob\nann\n'), SECRET, { threads: 1 })).rejects.toMatchObject({ code: 'ENTRY_DUPLICATE', path: 'line 3' })
  })

  it('a file changed after the first pass: PARTICIPANTS_MISMATCH', async () => {
    const path = await fileOf('ann\nbob\ncy\ndee\n')
    const book = await streamReceiptsFile(committed, path, SECRET, { threads: 1, blockLog: 1 })
    await writeFile(path, 'ann\nbob\ncx\ndee\n')
    await expect(all(book.receipts())).rejects.toMatchObject({ code: 'PARTICIPANTS_MISMATCH' })
    await writeFile(path, 'ann\nbob\ncy\n')
    await expect(book.rescan(() => undefined)).rejects.toMatchObject({ code: 'PARTICIPANTS_MISMATCH' })
  })
})
