/**
 * The files of a follow-up draw (`commit --replacing PROOF --dropped IDS`, `draw --original PROOF`) are
 * read strictly, before any network call: a missing or broken proof is bad input (exit 4, a typed
 * error), not an internal error; a list of dropped entries with a blank line, an invalid byte or the
 * same winner twice is refused with its line, never skipped, repaired or merged.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { rerollDraw } from '../../src/core/kinds/reroll-draw.js'
import { serializeProof } from '../../src/core/proof.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { closedPort, run, useWorkspace } from './helpers.js'

const CHAIN = buildChain(8, 'follow-up files')
const NAMES = ['Ada', 'Bob', 'Cy', 'Dee', 'Eve']
const ws = useWorkspace()
let gateway: string
let winners: string[]
let proofText: string

beforeAll(async () => {
  gateway = `http://127.0.0.1:${await closedPort()}`
  const { commitment } = commit({ beacon: BEACON_NAME, target: 4, after: { sequence: 2, block: CHAIN[2]!.cid }, participants: NAMES, draw: { kind: 'pick', count: 2 }, label: 'original' })
  const proof = drawFromBlock(commitment, NAMES, CHAIN[4]!)
  const ranked = (proof.outcome as { readonly winners: readonly { readonly index: number; readonly entry: string }[] }).winners
  winners = ranked.map((w) => w.entry)
  proofText = serializeProof(proof)
  await writeFile(join(ws.dir, 'proof.json'), proofText)
  await writeFile(join(ws.dir, 'names.txt'), `${NAMES.join('\n')}\n`)
  const reroll = commit({ beacon: BEACON_NAME, target: 6, after: { sequence: 5, block: CHAIN[5]!.cid }, participants: NAMES, draw: rerollDraw(JSON.parse(proofText) as never, [ranked[0]!.index], proof.commitmentCid, 'fresh'), label: 'reroll' })
  await writeFile(join(ws.dir, 'reroll.json'), JSON.stringify(reroll.json))
})

const reroll = (replacing: string, dropped: string) => run(['commit', '--reroll', 'fresh', '--replacing', replacing, '--dropped', dropped, '-p', 'names.txt', '--gateway', gateway, '--delay', '1m', '-o', 'r.json', '--json'], { cwd: ws.dir })

function error(r: { code: number | null; stdout: string; stderr: string }): { code: string; message: string } {
  expect(r.code, r.stdout + r.stderr).toBe(4)
  expect(r.stdout + r.stderr).not.toMatch(/unexpected error|This is a bug/)
  return (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error
}

describe('commit --replacing PROOF and draw --original PROOF read the proof as verify does', () => {
  it('a missing proof, one that is not JSON and one with a byte order mark are bad input (exit 4), not internal errors', async () => {
    await writeFile(join(ws.dir, 'dropped.txt'), `${winners[0]}\n`)
    expect(error(await reroll('missing.json', 'dropped.txt')).code).toBe('FILE_UNREADABLE')
    expect(error(await reroll('names.txt', 'dropped.txt')).code).toBe('INVALID_JSON')
    await writeFile(join(ws.dir, 'bom.json'), `\ufeff${proofText}`)
    expect(error(await reroll('bom.json', 'dropped.txt')).code).toBe('UNEXPECTED_BOM')
    const d = await run(['draw', 'reroll.json', '-p', 'names.txt', '--original', 'missing.json', '--gateway', gateway, '-o', 'never.json', '--json'], { cwd: ws.dir })
    expect(error(d).code).toBe('FILE_UNREADABLE')
  })
})

describe('--dropped IDS: nothing skipped, repaired or merged', () => {
  it('a blank line is refused with its number', async () => {
    await writeFile(join(ws.dir, 'blank.txt'), `${winners[0]}\n\n${winners[1]}\n`)
    const e = error(await reroll('proof.json', 'blank.txt'))
    expect(e.code).toBe('ENTRY_EMPTY')
    expect(e.message).toBe('blank.txt, line 2 is empty')
  })

  it('an invalid byte is refused with its line (not repaired into U+FFFD)', async () => {
    await writeFile(join(ws.dir, 'ff.txt'), Buffer.concat([Buffer.from(`${winners[0]}\n`), Buffer.from([0x42, 0xff, 0x0a])]))
    const e = error(await reroll('proof.json', 'ff.txt'))
    expect(e.code).toBe('INVALID_UTF8')
    expect(e.message).toMatch(/line 2, byte offset/)
  })

  it('the same winner twice is refused naming both lines (it was merged: a re-roll of 1 where 2 were meant)', async () => {
    await writeFile(join(ws.dir, 'twice.txt'), `${winners[0]}\r\n${winners[0]}\n`)
    const e = error(await reroll('proof.json', 'twice.txt'))
    expect(e.code).toBe('ENTRY_DUPLICATE')
    expect(e.message).toBe(`--dropped line 2 (${JSON.stringify(winners[0])}) names the same winner as line 1`)
  })
})
