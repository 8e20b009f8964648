/**
 * The verify report through the binary: a check that did not run (the proof does not carry the block
 * seen at commit time) gets its own marker ○, is never counted as passed, and the verdict says so; with
 * --online, a proof that fails offline asks no gateway, and its online checks say so.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { base64ToBytes } from '../../src/core/bytes.js'
import { parseBlock } from '../../src/core/block.js'
import { json, names, run, useEmulatorWorkspace, STAMPED_DELAY } from './helpers.js'

const ws = useEmulatorWorkspace({ files: { 'names.txt': names(5) } })

beforeAll(async () => {
  const c = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', STAMPED_DELAY, '-o', 'c.json'], ws.opts)
  if (c.code !== 0) throw new Error(c.stderr)
  const d = await run(['draw', 'c.json', '-p', 'names.txt', '-o', 'full.json', '--quiet'], ws.opts)
  if (d.code !== 0) throw new Error(d.stderr)
  // The same proof without the blocks below the target: the after block is no longer carried.
  const proof = JSON.parse(await readFile(join(ws.dir, 'full.json'), 'utf8')) as { commitment: { target: number }; chain: { blocks: { cid: string; bytes: string }[] } }
  proof.chain.blocks = proof.chain.blocks.filter((b) => parseBlock(base64ToBytes(b.bytes), b.cid).sequence >= proof.commitment.target)
  await writeFile(join(ws.dir, 'trimmed.json'), JSON.stringify(proof))
  // The full proof without its signed record: it fails offline (beacon-authenticity).
  const unsigned = JSON.parse(await readFile(join(ws.dir, 'full.json'), 'utf8')) as { chain: { ipnsRecord?: string } }
  delete unsigned.chain.ipnsRecord
  await writeFile(join(ws.dir, 'unsigned.json'), JSON.stringify(unsigned))
}, 60_000)

describe('positions are 1-based for people, 0-based in JSON', () => {
  it('the winner line shows position index + 1; --json keeps the 0-based index', async () => {
    const v = await run(['verify', 'full.json'], ws.opts)
    const m = /^\s+1\. Person (\d+) {2}\(position (\d+)\)$/m.exec(v.stdout)
    expect(m, v.stdout).not.toBeNull()
    // names(5) are "Person 1" … "Person 5": Person N is the N-th line.
    expect(m![2]).toBe(m![1])
    const j = json<{ outcome: { winners: { index: number; entry: string }[] } }>(await run(['verify', 'full.json', '--json'], ws.opts))
    expect(j.outcome.winners[0]!.index).toBe(Number(m![1]) - 1)
  })
})

describe('verify report markers', () => {
  it('every check ran: all ✓, counted, no ○', async () => {
    const v = await run(['verify', 'full.json'], ws.opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    expect(v.stdout).toMatch(/✓ after-block/)
    expect(v.stdout).not.toContain('○')
    const total = (v.stdout.match(/^✓ /gm) ?? []).length
    expect(v.stdout).toContain(`${total} passed, 0 failed of ${total} checks`)
  })

  it('a check that did not run is ○, not ✓, not counted as passed, and named in the verdict', async () => {
    const v = await run(['verify', 'trimmed.json'], ws.opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    expect(v.stdout).toMatch(/^○ after-block\s+not checked: the chain does not carry block \d+/m)
    expect(v.stdout).not.toMatch(/✓ after-block/)
    expect(v.stdout.split('\n')[0]).toBe('VERIFIED: every check that ran (not checked: after-block) passed on its own evidence.')
    const passed = (v.stdout.match(/^✓ /gm) ?? []).length
    expect(v.stdout).toContain(`${passed} passed, 1 not checked (○), 0 failed of ${passed + 1} checks`)
    const j = json<{ checks: { name: string; ok: boolean; notChecked?: boolean }[] }>(await run(['verify', 'trimmed.json', '--json'], ws.opts))
    expect(j.checks.find((c) => c.name === 'after-block')).toMatchObject({ ok: true, notChecked: true })
  })
})

describe('verify --online of a proof that fails offline (fuzzing pass 3)', () => {
  const why = 'not asked: the proof does not verify offline (failed: beacon-authenticity), so no gateway was contacted'

  it('asks no gateway: the verdict says so, both online checks are ○ (text) and notChecked (--json), exit 1', async () => {
    ws.emu.beacon.resetStats()
    const v = await run(['verify', 'unsigned.json', '--online'], ws.opts)
    expect(v.code, v.stdout + v.stderr).toBe(1)
    expect(v.stdout.split('\n')[0]).toMatch(/^FAILED/)
    expect(v.stdout).toContain('\n  Online: not checked: the proof fails offline, so no gateway was asked.\n')
    expect(v.stdout).toMatch(new RegExp(`^○ online-blocks +${why.replace(/[()]/g, '\\$&')}$`, 'm'))
    expect(v.stdout).toMatch(/^○ online-chain +not asked: /m)
    expect(v.stdout).toMatch(/, 2 not checked \(○\), 1 failed of \d+ checks/)

    const j = await run(['verify', 'unsigned.json', '--online', '--json'], ws.opts)
    expect(j.code).toBe(1)
    const r = json<{ ok: boolean; offlineOk: boolean; online: { ok: boolean; asked: boolean; checks: unknown[]; notes: string[] } }>(j)
    expect(r.ok).toBe(false)
    expect(r.offlineOk).toBe(false)
    expect(r.online).toEqual({
      ok: false,
      asked: false,
      checks: [
        { name: 'online-blocks', ok: true, detail: why, notChecked: true },
        { name: 'online-chain', ok: true, detail: why, notChecked: true },
      ],
      notes: [],
    })
    expect(ws.emu.beacon.stats().total).toBe(0)
  })

  it('the proof that verifies offline is checked online through the same gateway', async () => {
    ws.emu.beacon.resetStats()
    const v = await run(['verify', 'full.json', '--online'], ws.opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    expect(v.stdout).toMatch(/^✓ online-blocks/m)
    expect(v.stdout).not.toContain('Online: not checked')
    expect(ws.emu.beacon.stats().total).toBeGreaterThan(0)
  })
})
