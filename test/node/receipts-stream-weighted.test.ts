/**
 * streamReceiptsFile of a weighted CSV (`weightColumn`, src/node/weighted-receipts.ts): the receipts are
 * `makeReceipts`' of the `{ entry, weight }` list read whole, byte for byte, with blocks smaller and
 * larger than the rescan's batches, on one and two threads; they check; the refusals (no weight column
 * for a weighted draw, one for a draw of plain entries), a wrong secret, a wrong weight and a file changed
 * between the passes fail with `makeReceipts`' typed errors; a reader that stops early ends the reading.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkReceipt, commit, makeReceipts, serializeReceipt, type Receipt, type WeightedEntry } from '../../src/core/index.js'
import { OrganizerSecret } from '../../src/core/formats.js'
import { readParticipants } from '../../src/cli/participants-file.js'
import { streamReceiptsFile } from '../../src/node/index.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { useTempFiles } from '../helpers/temp-files.js'
import { errorOf, rejectionOf } from '../helpers/thrown.js'
import { csvField, weightedCsv } from '../helpers/weighted-csv.js'

const files = useTempFiles('orbitdraw-receipts-weighted-')

const chain = buildChain(10, 'receipts-stream-weighted')
const SECRET = OrganizerSecret.fromBytes(new Uint8Array(32).fill(23))
const BASE = { beacon: BEACON_NAME, target: 9, after: { sequence: 7, block: chain[7]!.cid }, draw: { kind: 'weighted' as const, count: 1 }, label: 'weighted receipts' }
const COLUMNS = { column: 'name', weightColumn: 'tickets' }

const csvOf = (list: readonly WeightedEntry[]): Promise<string> => files.write(weightedCsv(list), 'w', '.csv')

function listOf(n: number): WeightedEntry[] {
  return Array.from({ length: n }, (_, i) => ({ entry: i % 5 === 0 ? `Zoë, "${i}"` : `member ${i}`, weight: 1 + ((i * 7) % 13) }))
}

async function all(it: AsyncIterable<Receipt>): Promise<string[]> {
  const out: string[] = []
  for await (const r of it) out.push(serializeReceipt(r))
  return out
}

describe('streamReceiptsFile of a weighted CSV = makeReceipts, byte for byte', () => {
  for (const [n, blockLog, threads] of [[1, 2, 1], [5, 2, 1], [37, 2, 1], [4097, 14, 1], [9000, 13, 2], [10_000, 10, 2]] as const) {
    it(`${n} entries, blocks of ${2 ** blockLog}, ${threads} thread(s)`, async () => {
      const list = listOf(n)
      const committed = commit({ ...BASE, participants: list, private: { secret: SECRET } })
      const path = await csvOf(list)
      // The in-memory reader's list of the same file is the committed one.
      expect(await readParticipants(path, COLUMNS)).toEqual(list)
      const book = await streamReceiptsFile(committed, path, SECRET, { ...COLUMNS, blockLog, threads })
      expect(book.cid).toBe(committed.cid)
      expect(book.count).toBe(n)
      const expected = [...makeReceipts(committed, list, SECRET).receipts()].map(serializeReceipt)
      const got = await all(book.receipts())
      expect(got).toHaveLength(n)
      expect(got).toEqual(expected)
      expect((JSON.parse(got[n - 1]!) as Receipt).weight).toBe(list[n - 1]!.weight)
      expect(await book.entries(n - Math.min(3, n), n)).toEqual(list.slice(-3).map((w) => w.entry))
      const again: string[] = []
      await book.rescan((entries, first) => {
        expect(first).toBe(again.length)
        again.push(...entries)
      })
      expect(again).toEqual(list.map((w) => w.entry))
    })
  }

  it('every receipt checks against the commitment, and the entry column defaults to the first', async () => {
    const list = listOf(11)
    const committed = commit({ ...BASE, participants: list, private: { secret: SECRET } })
    const path = join(files.dir, 'first-column.csv')
    await writeFile(path, ['name,tickets', ...list.map((w) => `${csvField(w.entry)},${w.weight}`)].join('\r\n'))
    const book = await streamReceiptsFile(committed.commitment, path, SECRET, { weightColumn: '2', blockLog: 2, threads: 1 })
    let seen = 0
    for await (const r of book.receipts()) {
      expect(checkReceipt(r, { commitment: committed.cid }).ok).toBe(true)
      seen++
    }
    expect(seen).toBe(11)
  })

  it('a reader that stops early ends the reading (no hang), and can start again', async () => {
    const list = listOf(40)
    const committed = commit({ ...BASE, participants: list, private: { secret: SECRET } })
    const book = await streamReceiptsFile(committed, await csvOf(list), SECRET, { ...COLUMNS, blockLog: 2, threads: 1 })
    for await (const r of book.receipts()) {
      expect(r.index).toBe(0)
      break
    }
    expect((await all(book.receipts())).length).toBe(40)
  })
})

describe('errors', () => {
  const list: WeightedEntry[] = [{ entry: 'ann', weight: 2 }, { entry: 'bob', weight: 1 }, { entry: 'cy', weight: 5 }, { entry: 'dee', weight: 1 }]
  const committed = commit({ ...BASE, participants: list, private: { secret: SECRET } })

  it('a weighted draw without weightColumn, and weightColumn for a draw of plain entries: INVALID_PARTICIPANTS', async () => {
    const path = await csvOf(list)
    await expect(streamReceiptsFile(committed, path, SECRET)).rejects.toMatchObject({ code: 'INVALID_PARTICIPANTS', path: '$.participants', hint: expect.stringMatching(/weightColumn/) as unknown })
    const plain = commit({ ...BASE, draw: { kind: 'pick', count: 1 }, participants: list.map((w) => w.entry), private: { secret: SECRET } })
    await expect(streamReceiptsFile(plain, path, SECRET, COLUMNS)).rejects.toMatchObject({ code: 'INVALID_PARTICIPANTS', hint: 'drop weightColumn' })
  })

  it('a wrong secret, a wrong weight, a wrong order, a wrong count: makeReceipts\' PARTICIPANTS_MISMATCH', async () => {
    const other = OrganizerSecret.fromBytes(new Uint8Array(32).fill(24))
    expect(await rejectionOf(streamReceiptsFile(committed, await csvOf(list), other, { ...COLUMNS, threads: 1 }))).toEqual(errorOf(() => makeReceipts(committed, list, other)))
    for (const wrong of [list.map((w, i) => (i === 2 ? { ...w, weight: 4 } : w)), [list[1]!, list[0]!, list[2]!, list[3]!], list.slice(0, 3)]) {
      expect(await rejectionOf(streamReceiptsFile(committed, await csvOf(wrong), SECRET, { ...COLUMNS, threads: 1 }))).toEqual(errorOf(() => makeReceipts(committed, wrong, SECRET)))
    }
  })

  it('a bad file: the reader\'s error with its row', async () => {
    const path = join(files.dir, 'bad.csv')
    await writeFile(path, 'id,name,tickets\n0,ann,2\n1,bob,x\n')
    await expect(streamReceiptsFile(committed, path, SECRET, COLUMNS)).rejects.toMatchObject({ code: 'WEIGHT_INVALID', path: 'row 3' })
    await expect(streamReceiptsFile(committed, await csvOf(list), SECRET, { ...COLUMNS, weightColumn: 'nope' })).rejects.toMatchObject({ code: 'UNKNOWN_COLUMN' })
  })

  it('a file changed after the first pass (an entry, or only a weight): PARTICIPANTS_MISMATCH', async () => {
    for (const changed of [list.map((w, i) => (i === 2 ? { ...w, entry: 'cx' } : w)), list.map((w, i) => (i === 3 ? { ...w, weight: 9 } : w))]) {
      const path = await csvOf(list)
      const book = await streamReceiptsFile(committed, path, SECRET, { ...COLUMNS, threads: 1, blockLog: 1 })
      await writeFile(path, ['id,name,tickets', ...changed.map((w, i) => `${i},${w.entry},${w.weight}`)].join('\n') + '\n')
      await expect(all(book.receipts())).rejects.toMatchObject({ code: 'PARTICIPANTS_MISMATCH' })
    }
  })
})
