/**
 * The progress line: `\r`-updated on a terminal, one line per new block otherwise (in-process, with an
 * injected context, since a child process's stderr is never a TTY here).
 */
import { describe, expect, it } from 'vitest'
import { progressLine, progressText } from '../../src/cli/progress.js'
import type { CliContext } from '../../src/cli/command.js'

function ctx(isTTY: boolean): CliContext & { text: string } {
  const c = { text: '', out: () => undefined, err: (t: string) => void (c.text += t), env: {}, signal: new AbortController().signal, isTTY }
  return c
}
const p = (sequence: number, remaining: number) => ({ sequence, target: sequence + remaining, remaining, intervalMs: 1000, estimatedTime: new Date(Date.now() + remaining * 1000), authenticated: true })

describe('progress line', () => {
  it('on a terminal: rewrites one line with \\r, ends it with a newline', () => {
    const c = ctx(true)
    const line = progressLine(c)
    line.update(p(10, 3))
    line.update(p(11, 2))
    line.done()
    expect(c.text.startsWith('\rwaiting for block 13: latest 10, 3 blocks to go')).toBe(true)
    expect(c.text.split('\r')).toHaveLength(3)
    expect(c.text.endsWith('\n')).toBe(true)
    expect(c.text.slice(0, -1)).not.toContain('\n')
  })
  it('not a terminal: one line per new block, repeated polls of the same block are not repeated', () => {
    const c = ctx(false)
    const line = progressLine(c)
    line.update(p(10, 3))
    line.update(p(10, 3))
    line.update(p(11, 2))
    line.done()
    expect(c.text.split('\n').filter((l) => l !== '')).toHaveLength(2)
    expect(c.text).not.toContain('\r')
  })
  it('--quiet prints nothing; the text names sequence, target and time left', () => {
    const c = ctx(true)
    const line = progressLine(c, true)
    line.update(p(1, 1))
    line.done()
    expect(c.text).toBe('')
    expect(progressText(p(5, 1))).toMatch(/^waiting for block 6: latest 5, 1 block to go, ~\d+s left$/)
    expect(progressText(p(6, 0))).toBe('block 6 is out (latest 6)')
  })
})
