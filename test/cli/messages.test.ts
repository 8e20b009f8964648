/**
 * Messages through the real binary: misspelled flags and commands get "did you mean", flags missing
 * their value say so, `--pick -1` is refused plainly, and every --json error has a stable code with a
 * message that does not repeat its hint or path.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closest, editDistance } from '../../src/cli/did-you-mean.js'
import { json, run, useWorkspace } from './helpers.js'

const ws = useWorkspace({ files: { 'names.txt': 'Amara\nBen\nChidi\nAmara\n' } })

interface JsonError {
  ok: false
  exitCode: number
  error: { name: string; code: string; message: string; hint: string; path?: string }
}

describe('did you mean', () => {
  it.each([
    [['commit', '--pik', '3'], 'unknown flag --pik; did you mean --pick?'],
    [['commit', '--wieghted', '2'], 'unknown flag --wieghted; did you mean --weighted?'],
    [['draw', 'c.json', '--wait-timout', '5m'], 'unknown flag --wait-timout; did you mean --wait-timeout?'],
    [['verify', 'p.json', '--jsno'], 'unknown flag --jsno; did you mean --json?'],
    [['comit'], `unknown command "comit"; did you mean 'commit'?`],
  ])('%j', async (args, text) => {
    const r = await run(args)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(text)
    expect(r.stderr).not.toContain('positional argument') // Node's parser text
  })

  it('no guess for a word far from every flag', async () => {
    const r = await run(['commit', '--zzzzzz'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^orbitdraw: unknown flag --zzzzzz\n/)
  })

  it('the helper: distance with swaps, thresholds, unique prefixes', () => {
    expect(editDistance('pikc', 'pick')).toBe(1)
    expect(editDistance('', 'abc')).toBe(3)
    expect(editDistance('kitten', 'sitting')).toBe(3)
    expect(closest('PICK', ['pick', 'label'])).toBe('pick')
    expect(closest('lbl', ['pick', 'label'])).toBeUndefined()
    expect(closest('weig', ['weighted', 'weight-column', 'pick'])).toBeUndefined() // two flags start with it
    expect(closest('shuf', ['shuffle', 'pick'])).toBe('shuffle')
  })
})

describe('flag values', () => {
  it('--pick -1 is refused plainly (not Node\'s "ambiguous" text)', async () => {
    const r = await run(['commit', '-p', 'names.txt', '--pick', '-1'], { cwd: ws.dir })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^orbitdraw: --pick must be a whole number of at least 1, got -1\n/)
    expect(r.stderr).not.toContain('ambiguous')
  })

  it('a flag missing its value, at the end or before another flag', async () => {
    const end = await run(['commit', '-p', 'names.txt', '--pick'], { cwd: ws.dir })
    expect(end.code).toBe(2)
    expect(end.stderr).toContain('--pick needs a value')
    const before = await run(['commit', '--label', '--pick', '2', '-p', 'names.txt', '--json'], { cwd: ws.dir })
    expect(before.code).toBe(2)
    expect(json<JsonError>(before).error).toMatchObject({ code: 'MISSING_VALUE', message: expect.stringContaining('--label needs a value, but the next word is the flag --pick') as unknown })
  })

  it('an on/off flag given a value is refused in plain words', async () => {
    const r = await run(['commit', '--shuffle=yes'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--shuffle takes no value')
  })
})

describe('--json errors', () => {
  it('usage errors carry a code and a hint of their own', async () => {
    const unknown = json<JsonError>(await run(['commit', '--pik', '3', '--json']))
    expect(unknown).toMatchObject({ ok: false, exitCode: 2, error: { name: 'UsageError', code: 'UNKNOWN_FLAG', hint: "run 'orbitdraw commit --help' for usage" } })
    const cmd = json<JsonError>(await run(['comit', '--json']))
    expect(cmd.error.code).toBe('UNKNOWN_COMMAND')
    const usage = json<JsonError>(await run(['commit', '--pick', '2', '--json']))
    expect(usage.error).toMatchObject({ code: 'USAGE', message: expect.stringContaining('--participants FILE is required') as unknown })
  })

  it('input errors: message is the detail only; hint and path are their own fields', async () => {
    const r = await run(['commit', '-p', 'names.txt', '--pick', '1', '--json'], { cwd: ws.dir })
    expect(r.code).toBe(4)
    const e = json<JsonError>(r).error
    expect(e.code).toBe('ENTRY_DUPLICATE')
    expect(e.path).toBe('line 4')
    expect(e.hint.length).toBeGreaterThan(0)
    expect(e.message).not.toContain(e.hint)
    expect(e.message).not.toContain(' at line 4 —')
    expect(e.message).not.toContain('—')
  })

  it('a file missing a field: the hint speaks of the file, not of the library ("add the field")', async () => {
    await writeFile(join(ws.dir, 'empty.json'), '{}')
    const r = await run(['draw', 'empty.json', '-p', 'names.txt', '--json'], { cwd: ws.dir })
    expect(r.code).toBe(4)
    const e = json<JsonError>(r).error
    expect(e.hint).not.toMatch(/^add the field/)
    expect(e.hint).toContain('pass the file orbitdraw wrote, unedited')
  })
})
