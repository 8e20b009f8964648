#!/usr/bin/env node
/**
 * The `orbitdraw` command as installed (`package.json` `bin`: `dist/bin/orbitdraw.cjs`, built from this
 * file by `scripts/build-cli.ts`). It loads the CLI bundle beside it (`orbitdraw-cli.cjs`) through the
 * command's V8 code cache (`./compile-cache.ts`), then runs it as this process. It holds nothing else:
 * every check, message and exit code is the bundle's.
 *
 * `ORBITDRAW_LAUNCHER_BUILD` is written in by the build: the bundle's file name, its SHA-256 and the
 * command words (the cache keeps one file per command).
 *
 * @module
 */
import { debuglog } from 'node:util'
import { join } from 'node:path'
import { safeText } from '../safe-text.js'
import { cacheDirectory, commandKey, loadBundle } from './compile-cache.js'

/** What the build writes in (esbuild `define`). */
declare const ORBITDRAW_LAUNCHER_BUILD: {
  /** The bundle's file name, in this file's directory. */
  readonly bundle: string
  /** SHA-256 (hex) of the bundle. */
  readonly sha256: string
  /** The CLI's command words. */
  readonly commands: readonly string[]
}

const debug = debuglog('orbitdraw')
const { exports: cli } = loadBundle({
  file: join(import.meta.dirname, ORBITDRAW_LAUNCHER_BUILD.bundle),
  directory: cacheDirectory(process.env, process.platform),
  identity: { build: ORBITDRAW_LAUNCHER_BUILD.sha256, v8: process.versions.v8, arch: process.arch, command: commandKey(process.argv.slice(2), ORBITDRAW_LAUNCHER_BUILD.commands) },
  uid: process.getuid?.() ?? -1,
  warn: (message) => process.stderr.write(`orbitdraw: ${safeText(message)}\n`),
  debug: (message) => debug('%s', message),
  onExit: (write) => process.once('exit', write),
  now: () => Date.now(),
})
if (typeof cli.runAsProcess !== 'function') throw new Error(`${ORBITDRAW_LAUNCHER_BUILD.bundle} does not export runAsProcess: the package is damaged, reinstall it`)
;(cli.runAsProcess as () => void)()
