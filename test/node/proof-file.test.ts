/**
 * writeProofFile (src/node/proof-file.ts): all or nothing. The file appears only once complete; an
 * existing file is kept (FILE_EXISTS) unless `overwrite`; a failure midway leaves no file and no
 * temporary file; a directory that does not exist is FILE_UNWRITABLE.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeProofFile } from '../../src/node/proof-file.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orbitdraw-proof-file-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('writeProofFile', () => {
  it('writes strings and bytes in order', async () => {
    const path = join(dir, 'a.json')
    await writeProofFile(path, async (sink) => {
      await sink('{"a": ')
      await sink(new TextEncoder().encode('"é"'))
      await sink('}\n')
    })
    expect(await readFile(path, 'utf8')).toBe('{"a": "é"}\n')
  })

  it('keeps an existing file unless overwrite', async () => {
    const path = join(dir, 'taken.json')
    await writeFile(path, 'mine')
    await expect(writeProofFile(path, async (sink) => sink('new'))).rejects.toMatchObject({ code: 'FILE_EXISTS', name: 'InvalidInputError' })
    expect(await readFile(path, 'utf8')).toBe('mine')
    await writeProofFile(path, async (sink) => sink('new'), { overwrite: true })
    expect(await readFile(path, 'utf8')).toBe('new')
  })

  it('a failure midway leaves nothing behind', async () => {
    const path = join(dir, 'half.json')
    await expect(writeProofFile(path, async (sink) => {
      await sink('{"half":')
      throw new Error('the pass failed')
    })).rejects.toThrow('the pass failed')
    expect((await readdir(dir)).filter((n) => n.includes('half'))).toEqual([])
  })

  it('a missing directory: FILE_UNWRITABLE', async () => {
    await expect(writeProofFile(join(dir, 'no', 'such', 'p.json'), async (sink) => sink('x'))).rejects.toMatchObject({ code: 'FILE_UNWRITABLE' })
  })
})
