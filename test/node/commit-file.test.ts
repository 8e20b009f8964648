/**
 * commitFile (src/node/commit-file.ts): the commitment of a file of lines read as a stream is `commit`'s
 * of the list read whole, public and private; a bad file fails with a typed error naming its line (a
 * duplicate with the line of its first occurrence, a blank line, a line over maxEntryBytes, invalid UTF-8
 * with its byte offset), the in-memory reader's error; kinds a file of lines cannot commit are refused.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readParticipants } from '../../src/cli/participants-file.js'
import { commit, type OrbitdrawError } from '../../src/core/index.js'
import { OrganizerSecret } from '../../src/core/formats.js'
import { InvalidInputError } from '../../src/errors.js'
import { commitFile } from '../../src/node/commit-file.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { useTempFiles } from '../helpers/temp-files.js'

const tmp = useTempFiles('orbitdraw-commit-file-')

const chain = buildChain(10, 'commit-file')
const BASE = { beacon: BEACON_NAME, target: 9, after: { sequence: 7, block: chain[7]!.cid }, draw: { kind: 'pick' as const, count: 2 }, label: 'file' }
const SECRET = OrganizerSecret.fromBytes(new Uint8Array(32).fill(13))

const fileOf = (contents: string | Uint8Array): Promise<string> => tmp.write(contents)

describe('commitFile = commit of the list read whole', () => {
  const list = Array.from({ length: 5000 }, (_, i) => `Entrant ${i} ${i % 50 === 0 ? 'é "x"' : ''}`.trim())
  it('public and private (a given secret), one and two threads', async () => {
    const path = await fileOf('\uFEFF' + list.join('\r\n') + '\r\n')
    for (const threads of [1, 2] as const) {
      const pub = await commitFile(path, { ...BASE, threads })
      expect(pub.cid).toBe(commit({ ...BASE, participants: list }).cid)
      expect(pub.secret).toBeUndefined()
      expect(pub.list.count).toBe(list.length)
      const priv = await commitFile(path, { ...BASE, threads, private: { secret: SECRET } })
      expect(priv.cid).toBe(commit({ ...BASE, participants: list, private: { secret: SECRET } }).cid)
      expect(priv.secret?.exportBytes()).toEqual(SECRET.exportBytes())
    }
  })

  it('private: true makes a fresh secret, returned, never in the commitment', async () => {
    const path = await fileOf(list.slice(0, 10).join('\n'))
    const r = await commitFile(path, { ...BASE, private: true })
    expect(r.secret).toBeInstanceOf(OrganizerSecret)
    expect(r.cid).toBe(commit({ ...BASE, participants: list.slice(0, 10), private: { secret: r.secret! } }).cid)
    expect(JSON.stringify(r.json)).not.toContain(Buffer.from(r.secret!.exportBytes()).toString('hex'))
  })

  it('reports look-alike groups when asked', async () => {
    const path = await fileOf('alice\nbob\nAlice\nbоb\n') // Cyrillic о in the last one
    const r = await commitFile(path, { ...BASE, confusables: true, threads: 1 })
    expect(r.list.confusables.map((g) => g.indices)).toEqual([[1, 3]])
  })
})

describe('a bad file: a typed error naming its line, as the in-memory reader', () => {
  const long = 'x'.repeat(1025)
  const cases: [string, string | Uint8Array, string, string, typeof InvalidInputError][] = [
    ['a duplicate (with the line of the first)', 'ann\nbob\ncy\nbob\n', 'ENTRY_DUPLICATE', 'line 4', InvalidInputError],
    ['an empty line', 'ann\n\nbob\n', 'ENTRY_EMPTY', 'line 2', InvalidInputError],
    ['a line over maxEntryBytes (the core’s LIMIT_EXCEEDED, located)', `ann\n${long}\n`, 'LIMIT_EXCEEDED', 'line 2', InvalidInputError],
    ['invalid UTF-8', new Uint8Array([0x61, 0x0a, 0x62, 0xff, 0x0a]), 'INVALID_UTF8', 'line 2', InvalidInputError],
    ['a truncated character at the end', new Uint8Array([0x61, 0x0a, 0xc3]), 'INVALID_UTF8', 'line 2', InvalidInputError],
  ]
  for (const [name, contents, code, line, cls] of cases) {
    it(name, async () => {
      const path = await fileOf(contents)
      const err = (await commitFile(path, { ...BASE, threads: 1 }).then(() => null, (e: unknown) => e)) as OrbitdrawError
      expect(err).toBeInstanceOf(cls)
      expect({ code: err.code, path: err.path }).toEqual({ code, path: line })
      expect(err.message).toContain(path)
      const inMemory = (await readParticipants(path).then(() => null, (e: unknown) => e)) as OrbitdrawError
      expect({ code: err.code, message: err.message, path: err.path }).toEqual({ code: inMemory.code, message: inMemory.message, path: inMemory.path })
    })
  }

  it('names the first line of a duplicate in its detail', async () => {
    const path = await fileOf('ann\nbob\ncy\nbob\n')
    await expect(commitFile(path, { ...BASE, threads: 1 })).rejects.toThrow(/line 4: .*identical to line 2/)
  })

  it('a missing file: FILE_UNREADABLE', async () => {
    await expect(commitFile(join(tmp.dir, 'nope.txt'), BASE)).rejects.toMatchObject({ code: 'FILE_UNREADABLE' })
  })

  it('a weighted draw (a file of lines has no weights) and a kind with whole-list rules are refused', async () => {
    const path = await fileOf('ann\nbob\n')
    await expect(commitFile(path, { ...BASE, draw: { kind: 'weighted', count: 1 } })).rejects.toMatchObject({ code: 'INVALID_PARTICIPANTS' })
    await expect(commitFile(path, { ...BASE, draw: { kind: 'panel', k: 1, alternates: 0, exact: false, quotas: [] } as never })).rejects.toBeInstanceOf(InvalidInputError)
  })
})
