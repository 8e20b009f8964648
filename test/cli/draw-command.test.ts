/**
 * `commit` prints the exact `draw` command to run later, with every participants flag it needs; a
 * weighted CSV draw run with that command works, and one run without the weights is told so in the
 * CLI's own terms (not the library's JSON path).
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIN, json, run, runCommand, useEmulatorWorkspace } from './helpers.js'

const ws = useEmulatorWorkspace({ files: { 'tickets list.csv': 'name,tickets\nAmara,3\nBen,1\nChidi,5\nDana,2\n' } })

describe('commit prints the draw command to run later', () => {
  it('a weighted CSV commit prints a draw command with --column and --weight-column (quoted); run as printed, it draws', async () => {
    const c = await run(['commit', '-p', 'tickets list.csv', '--column', 'name', '--weight-column', 'tickets', '--weighted', '2', '--delay', '2s', '-o', 'w.commitment.json', '--no-timestamp'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const printed = /^\s+(orbitdraw draw .*)$/m.exec(c.stdout)?.[1]
    expect(printed).toBe("orbitdraw draw w.commitment.json --participants 'tickets list.csv' --column name --weight-column tickets -o proof.json")
    // Run exactly what was printed, through a shell, with orbitdraw being the built binary.
    const shell = await runCommand('sh', ['-c', printed!.replace(/^orbitdraw /, `"${process.execPath}" "${BIN}" `) + ' --quiet'], { ...ws.opts, timeoutMs: 30_000 })
    expect(shell.code, shell.stderr).toBe(0)
    const proof = JSON.parse(await readFile(join(ws.dir, 'proof.json'), 'utf8')) as { outcome: { kind: string; winners: unknown[] } }
    expect(proof.outcome.kind).toBe('weighted')
    expect(proof.outcome.winners).toHaveLength(2)
  })

  it('--json carries the same drawCommand', async () => {
    const c = await run(['commit', '-p', 'tickets list.csv', '--column', 'name', '--weight-column', 'tickets', '--weighted', '1', '--delay', '1s', '-o', 'j.commitment.json', '--no-timestamp', '--json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    expect(json<{ drawCommand: string }>(c).drawCommand).toBe("orbitdraw draw j.commitment.json --participants 'tickets list.csv' --column name --weight-column tickets -o proof.json")
  })

  it('a weighted commitment drawn without --weight-column is a usage error naming the flag, not a JSON path', async () => {
    const d = await run(['draw', 'w.commitment.json', '-p', 'tickets list.csv', '--column', 'name', '-o', 'x.json', '--quiet'], ws.opts)
    expect(d.code).toBe(2)
    expect(d.stderr).toContain('this commitment is a weighted draw')
    expect(d.stderr).toContain('--weight-column')
    expect(d.stderr).not.toContain('$.participants')
  })

  it('a private commit prints the draw command with --secret, and the receipts command with the participants flags', async () => {
    await writeFile(join(ws.dir, 'names.txt'), 'Amara\nBen\nChidi\n')
    const c = await run(['commit', '-p', 'names.txt', '--pick', '1', '--private', '--delay', '1s', '-o', 'p.commitment.json', '--no-timestamp'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    expect(c.stdout).toContain('orbitdraw draw p.commitment.json --participants names.txt --secret p.commitment.secret.json -o proof.json')
    expect(c.stdout).toContain('orbitdraw receipts p.commitment.json --participants names.txt --secret p.commitment.secret.json -o receipts/')
    // A private commit never advises publishing the list, nor adding a flag to the printed command.
    expect(c.stdout).not.toContain('the participants list, in this exact order')
    expect(c.stdout).toContain('NOT the participants list: it is private')
    expect(c.stdout).not.toMatch(/add --private/)
  })

  it('a private commit\'s draw command, run as printed, makes a winners-only proof; --full-disclosure is the opt-in, with a warning naming the count', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `person-${i}@example.org`)
    await writeFile(join(ws.dir, 'emails.txt'), `${names.join('\n')}\n`)
    const c = await run(['commit', '-p', 'emails.txt', '--pick', '2', '--private', '--delay', '2s', '-o', 'e.commitment.json', '--no-timestamp'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const printed = /^\s+(orbitdraw draw .*)$/m.exec(c.stdout)?.[1]
    expect(printed).toBe('orbitdraw draw e.commitment.json --participants emails.txt --secret e.commitment.secret.json -o proof.json')
    const shell = await runCommand('sh', ['-c', printed!.replace(/^orbitdraw /, `"${process.execPath}" "${BIN}" `) + ' --quiet --force'], { ...ws.opts, timeoutMs: 30_000 })
    expect(shell.code, shell.stderr).toBe(0)
    expect(shell.stderr).not.toContain('warning')
    const text = await readFile(join(ws.dir, 'proof.json'), 'utf8')
    const proof = JSON.parse(text) as { participants: { disclosure: string; revealed: { entry: string }[] } }
    expect(proof.participants.disclosure).toBe('winners')
    expect(proof.participants.revealed).toHaveLength(2)
    const losers = names.filter((n) => !proof.participants.revealed.some((r) => r.entry === n))
    expect(losers).toHaveLength(10)
    for (const n of losers) expect(text).not.toContain(n)

    const full = await run(['draw', 'e.commitment.json', '-p', 'emails.txt', '--secret', 'e.commitment.secret.json', '--full-disclosure', '-o', 'full.proof.json', '--quiet'], ws.opts)
    expect(full.code, full.stderr).toBe(0)
    expect(full.stderr).toContain('warning: --full-disclosure publishes the whole private list: the proof will carry all 12 entries with their salts')
    const fullText = await readFile(join(ws.dir, 'full.proof.json'), 'utf8')
    expect((JSON.parse(fullText) as { participants: { disclosure: string } }).participants.disclosure).toBe('full')
    for (const n of names) expect(fullText).toContain(n)

    const both = await run(['draw', 'e.commitment.json', '-p', 'emails.txt', '--secret', 'e.commitment.secret.json', '--full-disclosure', '--private', '-o', 'x.proof.json', '--quiet'], ws.opts)
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('contradict')
  })

  it('a secret file of another commitment is refused before the wait, naming both CIDs', async () => {
    await writeFile(join(ws.dir, 'two.txt'), 'Amara\nBen\nChidi\n')
    const a = await run(['commit', '-p', 'two.txt', '--pick', '1', '--private', '--delay', '1h', '-o', 'a.commitment.json', '--no-timestamp', '--json'], ws.opts)
    const b = await run(['commit', '-p', 'two.txt', '--pick', '1', '--private', '--delay', '1h', '-o', 'b.commitment.json', '--no-timestamp', '--json'], ws.opts)
    expect(a.code, a.stderr).toBe(0)
    expect(b.code, b.stderr).toBe(0)
    const aCid = json<{ cid: string }>(a).cid
    const bCid = json<{ cid: string }>(b).cid
    expect(aCid).not.toBe(bCid)
    const d = await run(['draw', 'a.commitment.json', '-p', 'two.txt', '--secret', 'b.commitment.secret.json', '-o', 'ab.proof.json', '--quiet'], { ...ws.opts, timeoutMs: 20_000 })
    expect(d.code).toBe(4)
    expect(d.stderr).toContain('SECRET_MISMATCH')
    expect(d.stderr).toContain(`belongs to commitment ${bCid}, not ${aCid}`)
  })

  it('a private shuffle needs --full-disclosure; a public list refuses it', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--shuffle', '--private', '--delay', '1h', '-o', 's.commitment.json', '--no-timestamp'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 's.commitment.json', '-p', 'names.txt', '--secret', 's.commitment.secret.json', '-o', 's.proof.json', '--quiet'], ws.opts)
    expect(d.code).toBe(2)
    expect(d.stderr).toContain('pass --full-disclosure to publish the whole list knowingly')
    const p = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', '1h', '-o', 'pub.commitment.json', '--no-timestamp'], ws.opts)
    expect(p.code, p.stderr).toBe(0)
    const f = await run(['draw', 'pub.commitment.json', '-p', 'names.txt', '--full-disclosure', '-o', 'pub.proof.json', '--quiet'], ws.opts)
    expect(f.code).toBe(2)
    expect(f.stderr).toContain('--full-disclosure is for a private (salted) list')
  })

  it('wording: one entry is "1 entry", the draw is worded by its kind ("pick 1 of 1"), large block numbers have separators', async () => {
    await writeFile(join(ws.dir, 'one.txt'), 'Amara\n')
    const c = await run(['commit', '-p', 'one.txt', '--pick', '1', '--delay', '1s', '-o', 'one.commitment.json', '--no-timestamp'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    expect(c.stdout).toMatch(/participants {3}1 entry, Merkle root [0-9a-f]{64} \(hex\)/)
    expect(c.stdout).toContain('pick 1 of 1')
    expect(c.stdout).not.toMatch(/\b1 entries|\b1 winners/)
  })
})
