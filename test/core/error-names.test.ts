// Every error class of the library states its own name (src/core/errors.ts): `error.name` must not depend on
// the bundler keeping class names. The CLI's verify bundle is minified without esbuild's `keepNames`
// (scripts/build-cli.ts), which renames classes; this test bundles the package's entries the same way and
// finds every exported error class under its export name, in the bundle as in the sources.
import { build } from 'esbuild'
import { mkdtemp, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InvalidInputError, OrbitdrawError } from '../../src/core/errors.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** The package's entries (`package.json` `exports`), as their sources. */
async function entrySources(): Promise<string[]> {
  const pkg = (await import(pathToFileURL(join(ROOT, 'package.json')).href, { with: { type: 'json' } })) as { default: { exports: Record<string, { default: string }> } }
  return Object.values(pkg.default.exports).map((e) => join(ROOT, e.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')))
}

type Namespaces = Record<string, Record<string, unknown>>

/** `[export name, class name]` of every exported subclass of `base` (and `base` itself) in `namespaces`. */
function errorClasses(namespaces: Namespaces, base: unknown): [string, string][] {
  const found = new Map<string, string>()
  for (const ns of Object.values(namespaces)) {
    for (const [name, value] of Object.entries(ns)) {
      if (typeof value === 'function' && (value === base || value.prototype instanceof (base as typeof Error))) found.set(name, value.name)
    }
  }
  return [...found].sort((a, b) => a[0].localeCompare(b[0]))
}

describe('error class names', () => {
  let dir: string
  let bundled: Namespaces
  let sources: Namespaces

  beforeAll(async () => {
    const entries = await entrySources()
    const stdin = entries.map((e, i) => `export * as e${i} from ${JSON.stringify(e)}`).join('\n')
    // Written inside node_modules so that the packages left external resolve from the bundle.
    dir = await mkdtemp(join(ROOT, 'node_modules', '.error-names-'))
    const out = join(dir, 'bundle.mjs')
    await build({ stdin: { contents: stdin, resolveDir: ROOT, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', target: 'node20.19', minify: true, packages: 'external', outfile: out, logLevel: 'error' })
    bundled = (await import(pathToFileURL(out).href)) as Namespaces
    sources = Object.fromEntries(await Promise.all(entries.map(async (e, i) => [`e${i}`, (await import(pathToFileURL(e).href)) as Record<string, unknown>] as const)))
  }, 120_000)
  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  })

  it('every exported error class is named as it is exported, in the sources and in a minified bundle without keepNames', () => {
    const inSources = errorClasses(sources, OrbitdrawError)
    const base = Object.values(bundled).map((ns) => ns.OrbitdrawError).find((v) => v !== undefined)
    const inBundle = errorClasses(bundled, base)
    expect(inSources.length).toBeGreaterThanOrEqual(40)
    expect(inSources).toEqual(inSources.map(([name]) => [name, name]))
    expect(inBundle).toEqual(inSources)
  })

  it('an error made in the bundle carries its class name (`new.target.name`) in name, toJSON and its stack', () => {
    const Bundled = Object.values(bundled).map((ns) => ns.InvalidInputError).find((v) => v !== undefined) as typeof InvalidInputError
    const e = new Bundled('INVALID_OPTION', 'k must be a whole number', 'give one')
    expect(e.name).toBe('InvalidInputError')
    expect(e.toJSON()).toEqual(new InvalidInputError('INVALID_OPTION', 'k must be a whole number', 'give one').toJSON())
    expect(e.stack).toMatch(/^InvalidInputError: k must be a whole number — give one\n/)
    expect(Object.keys(e)).toEqual(Object.keys(new InvalidInputError('INVALID_OPTION', 'x', 'y')))
  })

  it("a user's subclass keeps its own name, and the classes' name property is the one `class` defines (read-only, not enumerable)", () => {
    class QuotaError extends InvalidInputError {}
    expect(new QuotaError('INVALID_OPTION', 'x', 'y').name).toBe('QuotaError')
    expect(Object.getOwnPropertyDescriptor(InvalidInputError, 'name')).toEqual({ value: 'InvalidInputError', writable: false, enumerable: false, configurable: true })
    expect(Object.keys(InvalidInputError)).toEqual([])
  })
})
