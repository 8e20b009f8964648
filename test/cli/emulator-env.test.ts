/**
 * The `orbitdraw emulator --help` script example, run as written by bash: start the emulator in the
 * background with --write-env, wait for the file, source it, use orbitdraw, stop the emulator. The file
 * is written whole (mode 0600) and removed on exit.
 */
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIN, run, runCommand, useWorkspace } from './helpers.js'

const ws = useWorkspace()

describe('emulator --write-env', () => {
  it('the --help script example returns, with orbitdraw pointed at the emulator', async () => {
    const help = await run(['emulator', '--help'])
    const lines = help.stdout.split('\n')
    const start = lines.findIndex((l) => l.includes('orbitdraw emulator --write-env emulator.env --quiet &'))
    expect(start).toBeGreaterThan(0)
    // The four lines after the comment, exactly as printed, with `orbitdraw` being the built binary.
    const script = lines.slice(start, start + 4).map((l) => l.trim()).join('\n')
    expect(script).toContain('. ./emulator.env')
    // `orbitdraw` on PATH is the built binary, behind a wrapper that does NOT exec (like npx): the
    // example's `kill "$ORBITDRAW_EMULATOR_PID"` must reach the emulator itself, not the wrapper.
    await mkdir(join(ws.dir, 'bin'), { recursive: true })
    await writeFile(join(ws.dir, 'bin', 'orbitdraw'), `#!/bin/sh\n"${process.execPath}" "${BIN}" "$@"\n`)
    await chmod(join(ws.dir, 'bin', 'orbitdraw'), 0o755)
    const full = `set -e\nexport PATH="${join(ws.dir, 'bin')}:$PATH"\n${script}\nwait\necho "mode=$(stat -c %a emulator.env 2>/dev/null || echo removed)"\necho "beacon=$ORBITDRAW_BEACON"`
    // Check the file while the emulator is running, from the script itself, before the kill line.
    const withMode = full.replace('orbitdraw beacon latest', 'stat -c "live-mode=%a" emulator.env; orbitdraw beacon latest')
    const r = await runCommand('bash', ['-c', withMode], { cwd: ws.dir, timeoutMs: 30_000 })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toContain('live-mode=600')
    expect(r.stdout).toMatch(/^block \d+ {2}baf\w+$/m)
    expect(r.stdout).toContain('mode=removed')
    expect(r.stdout).toMatch(/^beacon=k\w+$/m)
    // --quiet: the background emulator printed nothing, neither its banner nor its goodbye.
    expect(r.stdout).not.toContain('orbitdraw emulator running')
    expect(r.stderr).not.toContain('emulator stopped')
    await expect(stat(join(ws.dir, 'emulator.env'))).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('--quiet with --json is refused before anything starts', async () => {
    const r = await run(['emulator', '--quiet', '--json'], { timeoutMs: 15_000 })
    expect(r.code).toBe(2)
    expect(r.stdout + r.stderr).toContain('--quiet prints nothing')
    expect(r.stdout).not.toContain('running at')
  })

  it('an unwritable --write-env is refused (exit 4) and the emulator does not keep running', async () => {
    const r = await run(['emulator', '--write-env', join(ws.dir, 'no/such/dir/emulator.env')], { timeoutMs: 15_000 })
    expect(r.code).toBe(4)
    expect(r.stderr).toContain('cannot write')
  })
})
