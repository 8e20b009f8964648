/**
 * `scripts/eager-inits.ts`, the post-build step of the command's bundle: every esbuild `__esm` module init
 * becomes a parenthesized function, and the code means the same. Checked on a real esbuild CommonJS
 * bundle of a small module graph with lazy imports, run before and after.
 */
import { build } from 'esbuild'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eagerModuleInits } from '../../scripts/eager-inits.js'

let dir = ''
let bundle = ''

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orbitdraw-eager-'))
  await writeFile(join(dir, 'a.js'), "export const a = () => 'a' + (this === undefined)\nexport let count = 0\ncount++\n")
  await writeFile(join(dir, 'b.js'), "import { a } from './a.js'\nexport const b = () => a() + 'b'\nexport const re = /}\"(){/.source + '}(){' + `${'('}`\n")
  await writeFile(join(dir, 'main.js'), "export async function run() { const { b, re } = await import('./b.js'); const { count } = await import('./a.js'); return [b(), re, count] }\n")
  const r = await build({ entryPoints: [join(dir, 'main.js')], bundle: true, format: 'cjs', platform: 'node', write: false, minifyWhitespace: true, minifySyntax: true, banner: { js: '#!/usr/bin/env node' } })
  bundle = r.outputFiles[0]!.text
})
afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

/** Runs a CommonJS bundle in a fresh context and returns what its `run()` resolves to. */
async function runBundle(code: string): Promise<unknown> {
  const module = { exports: {} as { run: () => Promise<unknown> } }
  runInNewContext(code.replace(/^#!.*\n/, ''), { module, exports: module.exports, require })
  return module.exports.run()
}

describe('eagerModuleInits', () => {
  it('rewrites each lazy module init as a parenthesized function, keeps the #! line, and the bundle gives the same answers', async () => {
    const methods = (code: string): number => (code.match(/__esm\(\{"[^"]+"\(\)\{/g) ?? []).length
    expect(methods(bundle)).toBe(2)
    const r = eagerModuleInits(bundle)
    expect(r.rewritten).toBe(2)
    expect(methods(r.code)).toBe(0)
    expect(r.code.match(/__esm\(\{"[^"]+":\(function\(\)\{/g)).toHaveLength(2)
    expect(r.code.startsWith('#!/usr/bin/env node\n')).toBe(true)
    expect(await runBundle(r.code)).toEqual(await runBundle(bundle))
    expect(await runBundle(r.code)).toEqual(['atrueb', '}"(){}(){(', 1])
  })

  it('counts the import() expressions left in the file (the launcher compiles it with node:vm, where they throw)', () => {
    expect(eagerModuleInits(bundle).dynamicImports).toBe(0)
    const withImport = eagerModuleInits(`${bundle}\nasync function late(){return import("node:fs")}`)
    expect(withImport.dynamicImports).toBe(1)
  })

  it('refuses code with no esbuild module init (the step would silently do nothing)', () => {
    expect(() => eagerModuleInits('"use strict";var x=1;')).toThrow(/no esbuild __esm module init/)
  })
})
