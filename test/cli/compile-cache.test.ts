/**
 * The command's V8 code cache (`src/cli/launcher/compile-cache.ts`): where it lives, what it refuses,
 * and that it never changes what a command does. The rules are tested on the module's pure functions;
 * the behaviour is tested on the real `orbitdraw` command (the launcher and the bundle in `dist/bin`),
 * each case with a cache directory of its own, observed through `NODE_DEBUG=orbitdraw`.
 */
import { chmod, lstat, mkdir, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { cacheDirectory, cacheFileName, cacheFirstLine, cacheHeader, commandKey, ownershipProblem, type OwnedEntry } from '../../src/cli/launcher/compile-cache.js'
import { writeVerifyFixtures } from './verify-fixtures.js'
import { BIN, runCommand, useWorkspace, type RunResult } from './helpers.js'

const COMMANDS = ['commit', 'draw', 'verify', 'inspect']

describe('cacheDirectory', () => {
  it('is ORBITDRAW_COMPILE_CACHE when absolute, off for off/0/false/no (any case), and a warning for anything else', () => {
    expect(cacheDirectory({ ORBITDRAW_COMPILE_CACHE: '/var/cache/me', HOME: '/home/me' }, 'linux')).toEqual({ dir: '/var/cache/me' })
    for (const off of ['off', 'OFF', '0', 'false', 'no']) expect(cacheDirectory({ ORBITDRAW_COMPILE_CACHE: off, HOME: '/home/me' }, 'linux')).toEqual({ off: `ORBITDRAW_COMPILE_CACHE=${off}` })
    const w = cacheDirectory({ ORBITDRAW_COMPILE_CACHE: 'cache', HOME: '/home/me' }, 'linux')
    expect(w).toEqual({ warning: `ORBITDRAW_COMPILE_CACHE must be an absolute directory path or 'off', not "cache": running without the compile cache` })
  })

  it('defaults to $XDG_CACHE_HOME/orbitdraw (when absolute), else ~/.cache/orbitdraw; ~/Library/Caches on macOS; off on Windows or without an absolute HOME', () => {
    expect(cacheDirectory({ HOME: '/home/me' }, 'linux')).toEqual({ dir: '/home/me/.cache/orbitdraw' })
    expect(cacheDirectory({ HOME: '/home/me', ORBITDRAW_COMPILE_CACHE: '' }, 'linux')).toEqual({ dir: '/home/me/.cache/orbitdraw' })
    expect(cacheDirectory({ HOME: '/home/me', XDG_CACHE_HOME: '/xdg' }, 'linux')).toEqual({ dir: '/xdg/orbitdraw' })
    expect(cacheDirectory({ HOME: '/home/me', XDG_CACHE_HOME: 'relative' }, 'freebsd')).toEqual({ dir: '/home/me/.cache/orbitdraw' })
    expect(cacheDirectory({ HOME: '/Users/me', XDG_CACHE_HOME: '/xdg' }, 'darwin')).toEqual({ dir: '/Users/me/Library/Caches/orbitdraw' })
    expect(cacheDirectory({}, 'linux')).toEqual({ off: 'no absolute HOME' })
    expect(cacheDirectory({ HOME: 'me' }, 'linux')).toEqual({ off: 'no absolute HOME' })
    expect(cacheDirectory({ HOME: 'C:\\Users\\me' }, 'win32')).toEqual({ off: 'Windows (owner and mode cannot be checked)' })
    expect(cacheDirectory({ ORBITDRAW_COMPILE_CACHE: '/c' }, 'win32')).toEqual({ off: 'Windows (owner and mode cannot be checked)' })
  })
})

describe('commandKey, cacheFileName and cacheHeader', () => {
  it('keys a cache by command word, with -help when the line asks for help; everything else is main', () => {
    expect(commandKey(['verify', 'proof.json'], COMMANDS)).toBe('verify')
    expect(commandKey(['verify', '--help'], COMMANDS)).toBe('verify-help')
    expect(commandKey(['commit', '-h'], COMMANDS)).toBe('commit-help')
    expect(commandKey([], COMMANDS)).toBe('main')
    expect(commandKey(['--help'], COMMANDS)).toBe('main')
    expect(commandKey(['--version'], COMMANDS)).toBe('main')
    // A mistyped or hostile word never names a file.
    expect(commandKey(['../../etc/passwd'], COMMANDS)).toBe('main')
    expect(commandKey(['verfiy', 'x'], COMMANDS)).toBe('main')
  })

  it('names the build, the V8 version and the architecture in the file name (as file-name-safe text) and all of them in the header', () => {
    const id = { build: 'ab'.repeat(32), v8: '11.3.244.8-node.38', arch: 'x64', command: 'verify' }
    expect(cacheFileName(id)).toBe(`verify-${'ab'.repeat(8)}-v8-11.3.244.8-node.38-x64.v8cache`)
    expect(cacheFileName({ ...id, v8: '12/3 4', arch: 'a:b' })).toBe(`verify-${'ab'.repeat(8)}-v8-12_3_4-a_b.v8cache`)
    expect(cacheHeader(id)).toBe(`orbitdraw-v8-code-cache 1 ${'ab'.repeat(32)} 11.3.244.8-node.38 x64 verify `)
    // The first line goes on with the code's CRC-32 (of "abc": 352441c2) and length.
    expect(cacheFirstLine(id, new TextEncoder().encode('abc'))).toBe(`orbitdraw-v8-code-cache 1 ${'ab'.repeat(32)} 11.3.244.8-node.38 x64 verify 352441c2 3\n`)
  })
})

describe('ownershipProblem', () => {
  const entry = (o: { uid?: number; mode?: number; type?: 'dir' | 'file' | 'link' }): OwnedEntry => ({
    uid: o.uid ?? 1000,
    mode: o.mode ?? 0o700,
    isDirectory: () => (o.type ?? 'dir') === 'dir',
    isFile: () => o.type === 'file',
    isSymbolicLink: () => o.type === 'link',
  })
  it('accepts only an entry of the right type, owned by the user, that neither group nor others can write', () => {
    expect(ownershipProblem(entry({}), 1000, 'directory')).toBeUndefined()
    expect(ownershipProblem(entry({ mode: 0o755 }), 1000, 'directory')).toBeUndefined()
    expect(ownershipProblem(entry({ type: 'file', mode: 0o600 }), 1000, 'file')).toBeUndefined()
    expect(ownershipProblem(entry({ type: 'file', mode: 0o644 }), 1000, 'file')).toBeUndefined()
    expect(ownershipProblem(entry({ type: 'link' }), 1000, 'directory')).toBe('is a symbolic link')
    expect(ownershipProblem(entry({ type: 'file' }), 1000, 'directory')).toBe('is not a directory')
    expect(ownershipProblem(entry({ type: 'dir' }), 1000, 'file')).toBe('is not a regular file')
    expect(ownershipProblem(entry({ uid: 0 }), 1000, 'directory')).toBe('belongs to user 0, not to you (user 1000)')
    expect(ownershipProblem(entry({ mode: 0o770 }), 1000, 'directory')).toBe('can be written by its group (mode 770)')
    expect(ownershipProblem(entry({ mode: 0o1777 }), 1000, 'directory')).toBe('can be written by its group and other users (mode 777)')
    expect(ownershipProblem(entry({ type: 'file', mode: 0o602 }), 1000, 'file')).toBe('can be written by other users (mode 602)')
  })
})

describe('the orbitdraw command with its compile cache', () => {
  const ws = useWorkspace()
  let beacon = ''
  let cases = 0

  beforeAll(async () => {
    beacon = await writeVerifyFixtures(ws.dir)
  })

  /** A cache directory path of the case's own (not created). */
  const freshDir = (): string => join(ws.dir, `cache-${++cases}`)
  const orbitdraw = (args: readonly string[], cache: string, env: Record<string, string> = {}): Promise<RunResult> =>
    runCommand(process.execPath, [BIN, ...args], { cwd: ws.dir, env: { ORBITDRAW_COMPILE_CACHE: cache, NODE_DEBUG: 'orbitdraw', ...env } })
  /** What a run answered, for comparison: the clock in a record's validity line is the run's own. */
  const answer = (r: RunResult): { code: number | null; stdout: string; stderr: string } => {
    const now = (t: string): string => t.replace(/\(checked at [0-9T:.Z-]+\)/g, '(checked at NOW)')
    return { code: r.code, stdout: now(r.stdout), stderr: now(split(r).stderr) }
  }
  /** The launcher's own debug lines, and the rest of standard error. */
  const split = (r: RunResult): { debug: string[]; stderr: string } => {
    const lines = r.stderr.split('\n')
    const debug = lines.filter((l) => /^ORBITDRAW \d+: /.test(l)).map((l) => l.replace(/^ORBITDRAW \d+: /, ''))
    return { debug, stderr: lines.filter((l) => !/^ORBITDRAW \d+: /.test(l)).join('\n') }
  }
  const outcome = (r: RunResult): string | undefined => split(r).debug.map((l) => /^compile cache (hit|miss|rejected):/.exec(l)?.[1]).find((x) => x !== undefined)
  const cacheFiles = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((f) => f.endsWith('.v8cache')).sort()

  const LINES: [string, string[]][] = [
    ['--help', ['--help']],
    ['verify --help', ['verify', '--help']],
    ['a relaxed verify', ['verify', 'plain.json', '--allow-unsigned', '--allow-untimestamped']],
    ['a strict verify', ['verify', 'signed.json', '--trust-beacon', '', '--trust-tsa', 'tsa.pem']],
    ['a verify that fails (exit 1)', ['verify', 'plain.json']],
    ['a usage error (exit 2)', ['verify', '--pick']],
    ['--json output', ['verify', 'plain.json', '--json']],
  ]

  it('a first run writes the cache (directory 0700, file 0600), a second one compiles from it, and both answer exactly as without the cache', async () => {
    const dir = freshDir()
    const seen = new Set<string>()
    for (const [what, template] of LINES) {
      const args = template.map((a, i) => (a === '' && template[i - 1] === '--trust-beacon' ? beacon : a))
      const off = await orbitdraw(args, 'off')
      expect(outcome(off), what).toBeUndefined()
      expect(split(off).debug.join('\n'), what).toContain('compile cache not used: ORBITDRAW_COMPILE_CACHE=off')
      const first = await orbitdraw(args, dir)
      const second = await orbitdraw(args, dir)
      // One cache file per command key: the first line of a key writes it, every later one reads it.
      const key = commandKey(args, COMMANDS)
      expect([outcome(first), outcome(second)], what).toEqual([seen.has(key) ? 'hit' : 'miss', 'hit'])
      seen.add(key)
      for (const r of [first, second]) expect(answer(r), what).toEqual(answer(off))
    }
    expect(((await stat(dir)).mode & 0o777).toString(8)).toBe('700')
    const files = await cacheFiles(dir)
    // One file per command key: main (--help), verify-help, verify.
    expect(files.map((f) => f.split('-')[0])).toEqual(['main', 'verify', 'verify'])
    expect(files.filter((f) => f.startsWith('verify-help-'))).toHaveLength(1)
    for (const f of files) {
      expect(((await stat(join(dir, f))).mode & 0o777).toString(8)).toBe('600')
      const head = (await readFile(join(dir, f))).subarray(0, 200).toString('latin1')
      expect(head).toMatch(new RegExp(`^orbitdraw-v8-code-cache 1 [0-9a-f]{64} ${process.versions.v8.replace(/\./g, '\\.')} ${process.arch} (main|verify|verify-help) [0-9a-f]{8} [0-9]+\\n`))
    }
    expect((await readdir(dir)).filter((f) => !f.endsWith('.v8cache'))).toEqual([])
  })

  it('a cache file that is damaged, truncated or of another build is not used: the command compiles as without it, answers the same, and writes the file anew', async () => {
    const dir = freshDir()
    const args = ['verify', 'signed.json', '--trust-beacon', beacon, '--trust-tsa', 'tsa.pem']
    const off = await orbitdraw(args, 'off')
    expect(outcome(await orbitdraw(args, dir))).toBe('miss')
    const [file] = await cacheFiles(dir)
    const path = join(dir, file!)
    const good = await readFile(path)
    const headerEnd = good.indexOf(10) + 1
    const header = good.subarray(0, headerEnd).toString('latin1')
    const code = good.subarray(headerEnd)
    const damaged = Buffer.from(code)
    for (let i = 0; i < damaged.length; i += 97) damaged[i] = damaged[i]! ^ 0x5a
    const withSums = (line: string, data: Buffer): Buffer => Buffer.concat([Buffer.from(line.replace(/ [0-9a-f]{8} [0-9]+\n$/, ` ${crc32(data).toString(16).padStart(8, '0')} ${data.length}\n`), 'latin1'), data])
    const variants: [string, Buffer, 'miss' | 'rejected', RegExp | undefined][] = [
      // A flipped bit in the code: the CRC-32 catches it (V8 checks no checksum in release builds).
      ['one bit of the code flipped', Buffer.concat([Buffer.from(header, 'latin1'), code.subarray(0, 1000), Buffer.from([code[1000]! ^ 1]), code.subarray(1001)]), 'miss', /is damaged \(its length or CRC-32 does not match\)/],
      ['the code cut short', good.subarray(0, good.length - 1), 'miss', /is damaged/],
      // With matching sums, V8's own checks refuse the damaged data.
      ['damaged code with matching sums', withSums(header, damaged), 'rejected', undefined],
      ['only the header', good.subarray(0, headerEnd), 'miss', /is damaged/],
      ['cut in the header', good.subarray(0, 20), 'miss', /is not this build's cache/],
      ['another build\'s header', withSums(header.replace(/ [0-9a-f]{64} /, ` ${'0'.repeat(64)} `), code), 'miss', /is not this build's cache/],
      ['another command\'s header', withSums(header.replace(/ verify /, ' inspect '), code), 'miss', /is not this build's cache/],
      ['random bytes', Buffer.alloc(4096, 7), 'miss', /is not this build's cache/],
    ]
    for (const [what, bytes, expected, note] of variants) {
      await writeFile(path, bytes, { mode: 0o600 })
      const r = await orbitdraw(args, dir)
      expect(outcome(r), what).toBe(expected)
      expect(answer(r), what).toEqual(answer(off))
      if (note !== undefined) expect(split(r).debug.join('\n'), what).toMatch(note)
      // Written anew: the next run compiles from it.
      expect(outcome(await orbitdraw(args, dir)), what).toBe('hit')
    }
  })

  it('a directory or file others could write, or a symbolic link, is not used: the command says so with what to do, writes nothing there, and answers the same', async () => {
    const args = ['verify', 'plain.json', '--allow-unsigned', '--allow-untimestamped']
    const off = await orbitdraw(args, 'off')
    const same = (r: RunResult, stderr: RegExp): void => {
      expect(outcome(r)).toBeUndefined()
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: off.code, stdout: off.stdout })
      expect(split(r).stderr).toMatch(stderr)
    }
    // A directory others can write.
    const open = freshDir()
    await mkdir(open)
    await chmod(open, 0o777)
    same(await orbitdraw(args, open), new RegExp(`^orbitdraw: not using the compile cache in ${open}: it can be written by its group and other users \\(mode 777\\); make it yours alone \\(chmod 700, or remove it and let orbitdraw create it\\) or set ORBITDRAW_COMPILE_CACHE=off\\n`))
    expect(await readdir(open)).toEqual([])
    // A symbolic link to a private directory.
    const real = freshDir()
    await mkdir(real, { mode: 0o700 })
    const link = freshDir()
    await symlink(real, link)
    same(await orbitdraw(args, link), /^orbitdraw: not using the compile cache in .*: it is a symbolic link; /)
    expect(await readdir(real)).toEqual([])
    // A cache file others can write, then one that is a symbolic link.
    const dir = freshDir()
    expect(outcome(await orbitdraw(args, dir))).toBe('miss')
    const [file] = await cacheFiles(dir)
    const path = join(dir, file!)
    await chmod(path, 0o666)
    same(await orbitdraw(args, dir), new RegExp(`^orbitdraw: not using the compile cache file ${path.replace(/[.]/g, '\\.')}: it can be written by its group and other users \\(mode 666\\); remove it, or set ORBITDRAW_COMPILE_CACHE=off\\n`))
    expect(((await stat(path)).mode & 0o777).toString(8)).toBe('666')
    await rm(path)
    await writeFile(join(dir, 'elsewhere'), 'x', { mode: 0o600 })
    await symlink(join(dir, 'elsewhere'), path)
    same(await orbitdraw(args, dir), /^orbitdraw: not using the compile cache file .*: it is a symbolic link; remove it, or set ORBITDRAW_COMPILE_CACHE=off\n/)
    expect((await lstat(path)).isSymbolicLink()).toBe(true)
  })

  it('a setting that cannot be used is named on standard error (printed safely); a directory that cannot be read or created costs only the speed-up', async () => {
    const args = ['--help']
    const off = await orbitdraw(args, 'off')
    const relative = await orbitdraw(args, 'cache\u001b[2J')
    expect({ code: relative.code, stdout: relative.stdout }).toEqual({ code: off.code, stdout: off.stdout })
    expect(split(relative).stderr).toBe(`orbitdraw: ORBITDRAW_COMPILE_CACHE must be an absolute directory path or 'off', not "cache\\u001b[2J": running without the compile cache\n`)
    const bidi = await orbitdraw(args, 'x\u202edesrever')
    expect(split(bidi).stderr).toContain('not "x\\u{202e}desrever"')
    // Under a regular file: lstat fails (ENOTDIR). Quiet, except with NODE_DEBUG.
    await writeFile(join(ws.dir, 'a-file'), 'x')
    const blocked = await orbitdraw(args, join(ws.dir, 'a-file', 'cache'))
    expect({ code: blocked.code, stdout: blocked.stdout, stderr: split(blocked).stderr }).toEqual({ code: off.code, stdout: off.stdout, stderr: split(off).stderr })
    expect(split(blocked).debug.join('\n')).toMatch(/compile cache not used: .*a-file\/cache cannot be read \(ENOTDIR\)/)
    expect(outcome(blocked)).toBeUndefined()
  })

  it('the default directory is $XDG_CACHE_HOME/orbitdraw, created with its parents', async () => {
    const xdg = join(freshDir(), 'xdg')
    const r = await orbitdraw(['--help'], '', { XDG_CACHE_HOME: xdg })
    expect(outcome(r)).toBe('miss')
    expect((await cacheFiles(join(xdg, 'orbitdraw'))).length).toBe(1)
    expect(outcome(await orbitdraw(['--help'], '', { XDG_CACHE_HOME: xdg }))).toBe('hit')
  })

  it('writing a cache file removes this module\'s files (and temporary files) not written for 30 days, and nothing else', async () => {
    const dir = freshDir()
    await mkdir(dir, { mode: 0o700 })
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000)
    const recent = new Date(Date.now() - 29 * 24 * 3600 * 1000)
    const files = { 'verify-0000000000000000-v8-1-x64.v8cache': old, 'draw-0000000000000000-v8-1-x64.v8cache.123.tmp': old, 'inspect-0000000000000000-v8-1-x64.v8cache': recent, 'notes.txt': old }
    for (const [name, time] of Object.entries(files)) {
      await writeFile(join(dir, name), 'x', { mode: 0o600 })
      await utimes(join(dir, name), time, time)
    }
    expect(outcome(await orbitdraw(['--help'], dir))).toBe('miss')
    const left = (await readdir(dir)).sort()
    expect(left.filter((f) => !f.startsWith('main-'))).toEqual(['inspect-0000000000000000-v8-1-x64.v8cache', 'notes.txt'])
    expect(left.filter((f) => f.startsWith('main-'))).toHaveLength(1)
  })
})
