/**
 * Published re-rolls through the real binary against an in-process emulator (issue 27 item 3):
 * `commit --reroll next|fresh --replacing PROOF --dropped IDS -p FILE` commits a re-roll of a pick (or
 * weighted) draw to a later block; the printed draw command carries the original; verify names
 * follow-up-original, follow-up-link, reroll-kept and reroll-never-won. A private list is re-rolled
 * with its own secret (--secret). Bad input is refused before any network call.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { run, useEmulatorWorkspace, type RunOptions, STAMPED_DELAY } from './helpers.js'

const ws = useEmulatorWorkspace()
let dir: string
let opts: RunOptions

interface Row { rank: number; index: number; entry: string }
type ProofJson = { outcome: { winners: Row[]; replacements?: Row[] }; original?: unknown }

beforeAll(async () => {
  dir = ws.dir
  opts = ws.opts
  await writeFile(join(dir, 'names.txt'), `${Array.from({ length: 20 }, (_, i) => `Entrant ${String(i).padStart(2, '0')}`).join('\n')}\n`)
  await writeFile(join(dir, 'tickets.csv'), `name,tickets\n${Array.from({ length: 12 }, (_, i) => `Buyer ${i},${1 + (i % 3)}`).join('\n')}\n`)
})

describe('orbitdraw commit --reroll', () => {
  it('re-rolls one declined winner of a pick (fresh), then the replacement (next): each verifies, never a past winner', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '3', '--delay', STAMPED_DELAY, '-o', 'giveaway.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'giveaway.json', '-p', 'names.txt', '-o', 'giveaway.proof.json'], opts)
    expect(d.code, d.stderr).toBe(0)
    const first = JSON.parse(await readFile(join(dir, 'giveaway.proof.json'), 'utf8')) as ProofJson
    await writeFile(join(dir, 'declined.txt'), `${first.outcome.winners[1]!.entry}\n`)

    const rc = await run(['commit', '--reroll', 'fresh', '--replacing', 'giveaway.proof.json', '--dropped', 'declined.txt', '-p', 'names.txt', '--delay', STAMPED_DELAY, '-o', 'reroll.json'], opts)
    expect(rc.code, rc.stderr).toBe(0)
    expect(rc.stdout).toMatch(/re-roll \(fresh\) of 1 of 3 winner\(s\) among 20/)
    const line = rc.stdout.split('\n').find((l) => l.trim().startsWith('orbitdraw draw '))!
    expect(line).toContain('--original giveaway.proof.json')
    const rd = await run([...line.trim().split(/\s+/).slice(1, -2), '-o', 'reroll.proof.json'], opts)
    expect(rd.code, rd.stderr).toBe(0)
    const rv = await run(['verify', 'reroll.proof.json'], opts)
    expect(rv.code, rv.stdout + rv.stderr).toBe(0)
    expect(rv.stdout).toMatch(/✓ follow-up-original\s+the original proof verifies/)
    expect(rv.stdout).toMatch(/✓ follow-up-link\s+follows commitment/)
    expect(rv.stdout).toMatch(/✓ reroll-kept\s+the 2 winner\(s\) who did not decline keep their ranks/)
    expect(rv.stdout).toMatch(/✓ reroll-never-won\s+no new winner is one of the 3 past or declined winner\(s\)/)
    const second = JSON.parse(await readFile(join(dir, 'reroll.proof.json'), 'utf8')) as ProofJson
    expect(second.outcome.replacements).toHaveLength(1)
    expect(first.outcome.winners.map((w) => w.entry)).not.toContain(second.outcome.replacements![0]!.entry)
    expect([0, 2].map((r) => second.outcome.winners[r]!.entry)).toEqual([0, 2].map((r) => first.outcome.winners[r]!.entry))

    // The replacement declines too: the next entry of the first draw's ranking, never a past winner.
    await writeFile(join(dir, 'declined2.txt'), `${second.outcome.replacements![0]!.entry}\n`)
    const nc = await run(['commit', '--reroll', 'next', '--replacing', 'reroll.proof.json', '--dropped', 'declined2.txt', '-p', 'names.txt', '--delay', STAMPED_DELAY, '-o', 'reroll2.json'], opts)
    expect(nc.code, nc.stderr).toBe(0)
    const nd = await run(['draw', 'reroll2.json', '-p', 'names.txt', '--original', 'reroll.proof.json', '-o', 'reroll2.proof.json'], opts)
    expect(nd.code, nd.stderr).toBe(0)
    const nv = await run(['verify', 'reroll2.proof.json'], opts)
    expect(nv.code, nv.stdout + nv.stderr).toBe(0)
    const third = JSON.parse(await readFile(join(dir, 'reroll2.proof.json'), 'utf8')) as ProofJson
    const past = [...first.outcome.winners, ...second.outcome.winners].map((w) => w.entry)
    expect(past).not.toContain(third.outcome.replacements![0]!.entry)

    // Tampered: the new winner swapped for a past winner fails outcome and reroll-never-won.
    const bad = JSON.parse(await readFile(join(dir, 'reroll.proof.json'), 'utf8')) as ProofJson
    const pastWinner = first.outcome.winners[0]!
    bad.outcome.winners[1] = { ...pastWinner, rank: 2 }
    bad.outcome.replacements![0] = { ...pastWinner, rank: 2 }
    await writeFile(join(dir, 'bad.json'), JSON.stringify(bad))
    const bv = await run(['verify', 'bad.json'], opts)
    expect(bv.code).toBe(1)
    expect(bv.stdout).toMatch(/✗ reroll-never-won\s+new winner [0-9]+ \(rank 2\) already won/)
  }, 240_000)

  it('a private list is re-rolled with its own secret: winners-only proof, verified; without --secret it is refused', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '2', '--private', '--delay', STAMPED_DELAY, '-o', 'priv.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'priv.json', '-p', 'names.txt', '--secret', 'priv.secret.json', '-o', 'priv.proof.json'], opts)
    expect(d.code, d.stderr).toBe(0)
    const first = JSON.parse(await readFile(join(dir, 'priv.proof.json'), 'utf8')) as ProofJson
    await writeFile(join(dir, 'priv-declined.txt'), `${first.outcome.winners[0]!.entry}\n`)
    const refused = await run(['commit', '--reroll', 'fresh', '--replacing', 'priv.proof.json', '--dropped', 'priv-declined.txt', '-p', 'names.txt', '--delay', STAMPED_DELAY, '-o', 'privr.json'], opts)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('pass --secret FILE')
    const rc = await run(['commit', '--reroll', 'fresh', '--replacing', 'priv.proof.json', '--dropped', 'priv-declined.txt', '-p', 'names.txt', '--secret', 'priv.secret.json', '--delay', STAMPED_DELAY, '-o', 'privr.json'], opts)
    expect(rc.code, rc.stderr).toBe(0)
    const rd = await run(['draw', 'privr.json', '-p', 'names.txt', '--secret', 'privr.secret.json', '--original', 'priv.proof.json', '-o', 'privr.proof.json'], opts)
    expect(rd.code, rd.stderr).toBe(0)
    const rv = await run(['verify', 'privr.proof.json'], opts)
    expect(rv.code, rv.stdout + rv.stderr).toBe(0)
    const text = await readFile(join(dir, 'privr.proof.json'), 'utf8')
    const proof = JSON.parse(text) as ProofJson & { participants: { entries?: unknown } }
    expect(proof.participants.entries).toBeUndefined()
    const shown = proof.outcome.winners.map((w) => w.entry)
    const { original: _, ...own } = proof
    for (const name of (await readFile(join(dir, 'names.txt'), 'utf8')).trim().split('\n')) expect(JSON.stringify(own).includes(name)).toBe(shown.includes(name))
  }, 240_000)

  it('a weighted draw is re-rolled by weight (weighted-reroll) from its CSV', async () => {
    const c = await run(['commit', '-p', 'tickets.csv', '--column', 'name', '--weight-column', 'tickets', '--weighted', '3', '--delay', STAMPED_DELAY, '-o', 'w.json'], opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'w.json', '-p', 'tickets.csv', '--column', 'name', '--weight-column', 'tickets', '-o', 'w.proof.json'], opts)
    expect(d.code, d.stderr).toBe(0)
    const first = JSON.parse(await readFile(join(dir, 'w.proof.json'), 'utf8')) as ProofJson
    await writeFile(join(dir, 'w-declined.txt'), `${first.outcome.winners[2]!.entry}\n`)
    const rc = await run(['commit', '--reroll', 'fresh', '--replacing', 'w.proof.json', '--dropped', 'w-declined.txt', '-p', 'tickets.csv', '--column', 'name', '--weight-column', 'tickets', '--delay', STAMPED_DELAY, '-o', 'wr.json'], opts)
    expect(rc.code, rc.stderr).toBe(0)
    expect(rc.stdout).toMatch(/weighted re-roll \(fresh\)/)
    const rd = await run(['draw', 'wr.json', '-p', 'tickets.csv', '--column', 'name', '--weight-column', 'tickets', '--original', 'w.proof.json', '-o', 'wr.proof.json'], opts)
    expect(rd.code, rd.stderr).toBe(0)
    const rv = await run(['verify', 'wr.proof.json'], opts)
    expect(rv.code, rv.stdout + rv.stderr).toBe(0)
  }, 240_000)

  it('refuses, before any network call: a declined entry that did not win, a bad rule, --pool-list with --reroll', async () => {
    const none = await run(['commit', '--reroll', 'fresh', '--replacing', 'giveaway.proof.json', '--dropped', 'names.txt', '-p', 'names.txt', '--delay', '8s', '-o', 'x.json'], opts)
    expect(none.code).not.toBe(0)
    expect(none.stderr).toMatch(/is not a winner of the original draw/)
    const rule = await run(['commit', '--reroll', 'later', '--replacing', 'giveaway.proof.json', '--dropped', 'declined.txt', '-p', 'names.txt', '--delay', '8s', '-o', 'x.json'], opts)
    expect(rule.code).toBe(2)
    expect(rule.stderr).toMatch(/--reroll must be next or fresh/)
    const pool = await run(['commit', '--reroll', 'next', '--replacing', 'giveaway.proof.json', '--dropped', 'declined.txt', '--pool-list', 'names.txt', '--delay', '8s', '-o', 'x.json'], opts)
    expect(pool.code).toBe(2)
    expect(pool.stderr).toMatch(/--pool-list go with --replacing/)
  })
})
