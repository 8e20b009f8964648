/**
 * The command's V8 code cache: the launcher (`./launch.ts`, shipped as `dist/bin/orbitdraw.cjs`) compiles
 * the CLI bundle (`dist/bin/orbitdraw-cli.cjs`) with the code V8 made for it in an earlier run of the
 * same command, instead of parsing and compiling the 740 KiB file and every function it calls again.
 * A strict `orbitdraw verify` starts about 45 ms sooner with it (docs/performance.md, Start-up).
 *
 * This is what Node 22's `module.enableCompileCache()` does, which Node 20 lacks. It is written here
 * rather than taken from `v8-compile-cache` (the package that did it for older Node versions), because
 * a code cache is code: whoever can write the cache can make the next run do anything, including print
 * VERIFIED for a forgery. `v8-compile-cache` keeps its cache under the shared temporary directory with
 * no owner check. Here:
 *
 * - **Where.** The cache lives only in a directory that is yours alone: `ORBITDRAW_COMPILE_CACHE` when
 *   set to an absolute path, else `$XDG_CACHE_HOME/orbitdraw`, `~/.cache/orbitdraw`, or
 *   `~/Library/Caches/orbitdraw` on macOS. The directory is created with mode 0700. It is used only
 *   when it is a real directory (not a symbolic link) owned by the user running the command, that no
 *   group or other user can write. Each cache file must be a regular file, opened without following a
 *   symbolic link, with the same owner and mode rules (checked on the open file). So only you, or root,
 *   can change what runs: the same people who can change the installed command itself.
 * - **Which code.** A file holds the code of one build of the bundle (its SHA-256, computed at build
 *   time), for one V8 version and CPU architecture, for one command (`verify`, `verify --help`, ...: a
 *   file holds the functions its command's first run compiled). Its first line names all four, which
 *   must match exactly, and the CRC-32 and length of the code, which must match it. V8 itself refuses
 *   data from another V8 version, other V8 flags or a source of another length. A file refused by any
 *   of these is written anew.
 * - **Writing.** On a miss, the code is serialized when the process exits (after the command's output),
 *   into a temporary file opened exclusively with mode 0600, then renamed over the cache file: a reader
 *   never sees half a file. Files of this form not written for 30 days are removed then.
 * - **Failures.** A directory or file that fails the checks is not used, and the command says so on
 *   standard error with what to do. A cache that cannot be created or written (read-only home, full
 *   disk) only costs the speed-up: it is reported with `NODE_DEBUG=orbitdraw`. `ORBITDRAW_COMPILE_CACHE=off`
 *   turns the cache off. On Windows, where owner and mode cannot be checked this way, it is off.
 *
 * The cache never changes what the command does: `test/cli/compile-cache.test.ts` runs the commands
 * with and without it and compares their output byte for byte.
 *
 * @module
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync, type Stats } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, isAbsolute, join } from 'node:path'
import { Script } from 'node:vm'
import { crc32 } from 'node:zlib'

/** The environment variable that turns the cache off (`off`) or names its directory (an absolute path). */
export const COMPILE_CACHE_ENV = 'ORBITDRAW_COMPILE_CACHE'

/** Values of {@link COMPILE_CACHE_ENV} that turn the cache off. */
const OFF = new Set(['off', '0', 'false', 'no'])

/** Cache files not written for this long are removed when another is written. */
const STALE_MS = 30 * 24 * 3600 * 1000
/** A cache file larger than this is not read (the bundle's cache is about 0.4 to 0.8 MB). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024
const SUFFIX = '.v8cache'
const FORMAT = 'orbitdraw-v8-code-cache 1'

/** Where the cache is, or why there is none. */
export type CacheDirectory =
  | { readonly dir: string }
  | { readonly off: string }
  /** A setting that cannot be used: the text says what is wrong and what to do. */
  | { readonly warning: string }

/**
 * Where the cache lives for this environment and platform (see the module comment). Pure: it reads only
 * its arguments.
 */
export function cacheDirectory(env: Readonly<Record<string, string | undefined>>, platform: string): CacheDirectory {
  const setting = env[COMPILE_CACHE_ENV]
  if (setting !== undefined && setting !== '') {
    if (OFF.has(setting.toLowerCase())) return { off: `${COMPILE_CACHE_ENV}=${setting}` }
    if (!isAbsolute(setting)) return { warning: `${COMPILE_CACHE_ENV} must be an absolute directory path or 'off', not ${JSON.stringify(setting)}: running without the compile cache` }
    if (platform === 'win32') return { off: 'Windows (owner and mode cannot be checked)' }
    return { dir: setting }
  }
  if (platform === 'win32') return { off: 'Windows (owner and mode cannot be checked)' }
  const home = env.HOME
  if (platform === 'darwin') return home !== undefined && isAbsolute(home) ? { dir: join(home, 'Library', 'Caches', 'orbitdraw') } : { off: 'no absolute HOME' }
  const xdg = env.XDG_CACHE_HOME
  // The XDG base directory rules: a relative XDG_CACHE_HOME is invalid and ignored.
  if (xdg !== undefined && isAbsolute(xdg)) return { dir: join(xdg, 'orbitdraw') }
  return home !== undefined && isAbsolute(home) ? { dir: join(home, '.cache', 'orbitdraw') } : { off: 'no absolute HOME' }
}

/** What one cache file holds: the code of one build, for one V8 and architecture, for one command. */
export interface CacheIdentity {
  /** SHA-256 (hex) of the bundle, computed when it was built. */
  readonly build: string
  /** `process.versions.v8`. */
  readonly v8: string
  /** `process.arch`. */
  readonly arch: string
  /** {@link commandKey} of the command line. */
  readonly command: string
}

/**
 * The part of a command line that decides which code runs: the command word when it is one of
 * `commands` (else `main`: help, version, a mistyped command), and `-help` after it when the line asks
 * for help (`orbitdraw verify --help` runs none of the verifier).
 */
export function commandKey(argv: readonly string[], commands: readonly string[]): string {
  const word = argv[0]
  if (word === undefined || !commands.includes(word)) return 'main'
  return argv.includes('--help') || argv.includes('-h') ? `${word}-help` : word
}

/** The cache file's name in its directory. */
export function cacheFileName(id: CacheIdentity): string {
  const safe = (s: string): string => s.replace(/[^0-9A-Za-z.-]/g, '_')
  return `${safe(id.command)}-${id.build.slice(0, 16)}-v8-${safe(id.v8)}-${safe(id.arch)}${SUFFIX}`
}

/**
 * The start of a cache file's first line: it must match exactly, or the file is not used. The line goes
 * on with the CRC-32 (8 hex digits) and the length in bytes of the code that follows it, then `\n`.
 */
export function cacheHeader(id: CacheIdentity): string {
  return `${FORMAT} ${id.build} ${id.v8} ${id.arch} ${id.command} `
}

/**
 * The first line of a cache file holding `data`. The CRC-32 is there because V8 checks no checksum of
 * a code cache in release builds (`--verify-snapshot-checksum` is off): it checks its version, the
 * flags, the source's length and the data's length, so a flipped bit in the code itself would reach
 * the deserializer. Node 22's own compile cache checks a CRC-32 for the same reason.
 */
export function cacheFirstLine(id: CacheIdentity, data: Uint8Array): string {
  return `${cacheHeader(id)}${crc32(data).toString(16).padStart(8, '0')} ${data.length}\n`
}

/** What {@link ownershipProblem} looks at: an `lstat` or `fstat` result. */
export type OwnedEntry = Pick<Stats, 'uid' | 'mode' | 'isDirectory' | 'isFile' | 'isSymbolicLink'>

/**
 * Why `entry` must not be trusted as a cache directory or file of user `uid`, or `undefined` when it
 * can: it is not a symbolic link, is of the right type, belongs to `uid`, and no group or other user
 * can write it. Pure.
 */
export function ownershipProblem(entry: OwnedEntry, uid: number, kind: 'directory' | 'file'): string | undefined {
  if (entry.isSymbolicLink()) return 'is a symbolic link'
  if (kind === 'directory' ? !entry.isDirectory() : !entry.isFile()) return `is not a ${kind === 'directory' ? 'directory' : 'regular file'}`
  if (entry.uid !== uid) return `belongs to user ${entry.uid}, not to you (user ${uid})`
  const writers = [(entry.mode & 0o020) !== 0 ? 'its group' : '', (entry.mode & 0o002) !== 0 ? 'other users' : ''].filter((w) => w !== '')
  if (writers.length > 0) return `can be written by ${writers.join(' and ')} (mode ${(entry.mode & 0o777).toString(8).padStart(3, '0')})`
  return undefined
}

/** How the bundle was loaded. */
export type CacheOutcome =
  /** Compiled from the cached code. */
  | 'hit'
  /** No cache file: compiled, and the code is written at exit. */
  | 'miss'
  /** V8 refused the cached code (another V8 build or flags): compiled, and written again at exit. */
  | 'rejected'
  /** Loaded by Node's own loader, without the cache. */
  | 'off'

/** Options of {@link loadBundle}. */
export interface LoadBundleOptions {
  /** Absolute path of the CommonJS bundle. */
  readonly file: string
  /** Where the cache is, from {@link cacheDirectory}. */
  readonly directory: CacheDirectory
  /** What the cache file must hold. */
  readonly identity: CacheIdentity
  /** `process.getuid()`. */
  readonly uid: number
  /** Told when the cache cannot be used for a reason the user must fix (one line, without "orbitdraw: "). */
  readonly warn: (message: string) => void
  /** Told everything else (reported with `NODE_DEBUG=orbitdraw`). */
  readonly debug: (message: string) => void
  /** Called with a function to run when the process exits (`process.once('exit', ...)`). */
  readonly onExit: (write: () => void) => void
  /** The current time, to find stale files (`Date.now()`). */
  readonly now: () => number
}

/** What {@link loadBundle} returns. */
export interface LoadedBundle {
  /** The bundle's `module.exports`. */
  readonly exports: Record<string, unknown>
  readonly outcome: CacheOutcome
}

/**
 * Loads the CommonJS bundle `file` as Node's `require` would, through the compile cache when
 * `directory` allows it (see the module comment). Only the cache's own steps fall back to `require`
 * when they fail; an error thrown by the bundle's code propagates.
 */
export function loadBundle(options: LoadBundleOptions): LoadedBundle {
  const { file, directory, debug } = options
  const requireFromFile = createRequire(file)
  const plain = (why: string): LoadedBundle => {
    debug(`compile cache not used: ${why}`)
    return { exports: requireFromFile(file) as Record<string, unknown>, outcome: 'off' }
  }
  if ('off' in directory) return plain(directory.off)
  if ('warning' in directory) {
    options.warn(directory.warning)
    return plain(directory.warning)
  }
  const dir = directory.dir
  let source: string
  let cached: Buffer | undefined
  const path = join(dir, cacheFileName(options.identity))
  const header = cacheHeader(options.identity)
  const identity = options.identity
  try {
    const problem = privateDirectoryProblem(dir, options.uid)
    if (problem !== undefined) {
      if (problem.warn) options.warn(`not using the compile cache in ${dir}: it ${problem.text}; make it yours alone (chmod 700, or remove it and let orbitdraw create it) or set ${COMPILE_CACHE_ENV}=off`)
      return plain(`${dir} ${problem.text}`)
    }
    const read = readCacheFile(path, header, options.uid)
    if (read.problem !== undefined) {
      options.warn(`not using the compile cache file ${path}: it ${read.problem}; remove it, or set ${COMPILE_CACHE_ENV}=off`)
      return plain(`${path} ${read.problem}`)
    }
    cached = read.data
    if (read.note !== undefined) debug(read.note)
    source = readFileSync(file, 'utf8')
  } catch (err) {
    return plain(`${(err as Error).message}`)
  }
  // The CommonJS wrapper Node uses; a #! line becomes a comment of the same length (V8 accepts #! only
  // at the start of a script).
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source.startsWith('#!') ? `//${source.slice(2)}` : source}\n});`
  const script = new Script(wrapped, { filename: file, cachedData: cached })
  const outcome: CacheOutcome = cached === undefined ? 'miss' : script.cachedDataRejected === true ? 'rejected' : 'hit'
  debug(`compile cache ${outcome}: ${path}`)
  if (outcome !== 'hit') options.onExit(() => writeCacheFile(dir, path, identity, script, options))
  const mod = { exports: {} as Record<string, unknown>, id: file, filename: file, loaded: false }
  const fn = script.runInThisContext() as (...args: unknown[]) => void
  fn.call(mod.exports, mod.exports, requireFromFile, mod, file, dirname(file))
  mod.loaded = true
  return { exports: mod.exports, outcome }
}

/** The directory's problem (`warn`: the user must act), after creating it when missing. */
function privateDirectoryProblem(dir: string, uid: number): { text: string; warn: boolean } | undefined {
  let entry: Stats
  try {
    entry = lstatSync(dir)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return { text: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, warn: false }
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      entry = lstatSync(dir)
    } catch (err2) {
      return { text: `cannot be created (${(err2 as NodeJS.ErrnoException).code ?? 'error'})`, warn: false }
    }
  }
  const problem = ownershipProblem(entry, uid, 'directory')
  return problem === undefined ? undefined : { text: problem, warn: true }
}

/** Reads the cache file: its data after the header, or nothing (with why), or a problem to warn of. */
function readCacheFile(path: string, header: string, uid: number): { data?: Buffer; note?: string; problem?: string } {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { note: `no cache file ${path}` }
    if (code === 'ELOOP') return { problem: 'is a symbolic link' }
    return { note: `cannot open ${path} (${code ?? 'error'})` }
  }
  try {
    const entry = fstatSync(fd)
    const problem = ownershipProblem(entry, uid, 'file')
    if (problem !== undefined) return { problem }
    if (entry.size > MAX_CACHE_BYTES) return { note: `${path} is over ${MAX_CACHE_BYTES} bytes: not read` }
    const buf = readFileSync(fd)
    const headerBytes = Buffer.byteLength(header)
    if (buf.length <= headerBytes || buf.toString('latin1', 0, headerBytes) !== header) return { note: `${path} is not this build's cache: written anew` }
    const end = buf.indexOf(10, headerBytes)
    const sums = /^([0-9a-f]{8}) ([0-9]{1,9})$/.exec(buf.toString('latin1', headerBytes, end < 0 ? headerBytes : end))
    const data = buf.subarray(end + 1)
    if (end < 0 || sums === null || Number(sums[2]) !== data.length || crc32(data) !== Number.parseInt(sums[1]!, 16)) return { note: `${path} is damaged (its length or CRC-32 does not match): written anew` }
    return { data }
  } finally {
    closeSync(fd)
  }
}

/** At exit: the compiled code into a private temporary file, renamed over the cache file; stale files removed. */
function writeCacheFile(dir: string, path: string, identity: CacheIdentity, script: Script, options: LoadBundleOptions): void {
  const tmp = `${path}.${process.pid}.tmp`
  try {
    const data = script.createCachedData()
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600)
    try {
      writeFileSync(fd, Buffer.concat([Buffer.from(cacheFirstLine(identity, data), 'latin1'), data]))
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, path)
    options.debug(`compile cache written: ${path} (${data.length} bytes of code)`)
  } catch (err) {
    options.debug(`compile cache not written: ${(err as Error).message}`)
    try {
      unlinkSync(tmp)
    } catch {
      // Not created, or already gone.
    }
    return
  }
  removeStaleFiles(dir, path, options)
}

/** Removes this module's files (`*.v8cache`, and temporary files left by a killed process) not written for 30 days. */
function removeStaleFiles(dir: string, keep: string, options: LoadBundleOptions): void {
  try {
    const limit = options.now() - STALE_MS
    for (const name of readdirSync(dir)) {
      if (!/\.v8cache(\.[0-9]+\.tmp)?$/.test(name)) continue
      const path = join(dir, name)
      if (path === keep) continue
      const entry = lstatSync(path)
      if (entry.isFile() && entry.mtimeMs < limit) {
        unlinkSync(path)
        options.debug(`compile cache: removed ${path}, not written for 30 days`)
      }
    }
  } catch (err) {
    options.debug(`compile cache: stale files not removed: ${(err as Error).message}`)
  }
}
