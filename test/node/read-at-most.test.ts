/**
 * A whole input file read with a bound that holds for any kind of file (src/node/read-at-most.ts), and
 * the streamed participants readers' refusal of a file that is not a regular one: a device never ends
 * and a pipe states no size, so `readFile` read `/dev/zero` until memory ran out, and the streamed
 * reader read it a byte at a time, for ever.
 */
import { execFileSync, spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { readFileAtMost } from '../../src/node/read-at-most.js'
import { streamParticipantsFile, streamWeightedCsv } from '../../src/node/index.js'
import { readParticipants } from '../../src/cli/participants-file.js'
import { useTempFiles } from '../helpers/temp-files.js'

const files = useTempFiles('orbitdraw-read-at-most-')

describe('readFileAtMost', () => {
  it('reads a regular file whole up to the bound, and refuses one over it', async () => {
    const path = files.nextPath('f', '.txt')
    await writeFile(path, 'x'.repeat(1000))
    expect(await readFileAtMost(path, 1000)).toEqual(new Uint8Array(1000).fill(0x78))
    expect(await readFileAtMost(path, 999)).toBeUndefined()
    const empty = files.nextPath('empty', '.txt')
    await writeFile(empty, '')
    expect(await readFileAtMost(empty, 10)).toEqual(new Uint8Array(0))
  })

  it('stops a device that never ends one piece past the bound (it used to read /dev/zero until memory ran out)', async () => {
    expect(await readFileAtMost('/dev/zero', 1 << 20)).toBeUndefined()
  })

  it('reads a pipe, which states no size, to its end when it is within the bound, in pieces joined once', async () => {
    const fifo = files.nextPath('fifo', '')
    execFileSync('mkfifo', [fifo])
    const text = 'line\n'.repeat(50_000) // 250,000 bytes: several 64 KiB pieces
    const writer = spawn(process.execPath, ['-e', `require('node:fs').writeFileSync(${JSON.stringify(fifo)}, 'line\\n'.repeat(50000))`])
    const bytes = await readFileAtMost(fifo, 1 << 20)
    await new Promise((resolve) => writer.on('close', resolve))
    expect(new TextDecoder().decode(bytes)).toBe(text)
  })

  it('names the file system\'s errors for the caller', async () => {
    await expect(readFileAtMost(files.nextPath('missing', '.txt'), 10)).rejects.toMatchObject({ code: 'ENOENT' })
  })
})

describe('participants readers and a file that is not a regular one', () => {
  it('the streamed readers refuse a device or a pipe at once: FILE_UNREADABLE, with what to do instead', async () => {
    for (const read of [() => streamParticipantsFile('/dev/zero'), () => streamWeightedCsv('/dev/zero', { weightColumn: '2' })]) {
      await expect(read()).rejects.toMatchObject({ code: 'FILE_UNREADABLE', hint: expect.stringContaining('standard input (-p -)') })
    }
  })

  it('the in-memory reader (JSON, CSV without weights) refuses /dev/zero by size, FILE_TOO_LARGE, after at most the bound', async () => {
    await expect(readParticipants('/dev/zero', { format: 'csv' })).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' })
  }, 60_000)
})
