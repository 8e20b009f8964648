/**
 * The build's declaration pruner (`scripts/prune-declarations.ts`) on a small `dist/` of its own: it
 * keeps what an entry of `package.json` `exports` reaches (with the TSDoc), removes the declarations
 * and files nothing public names, and stops the build when what is left does not compile.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { pruneDeclarations } from '../../scripts/prune-declarations.js'

let root: string

function write(files: Record<string, string>): void {
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'fixture', type: 'module', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } }))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, 'dist', path)), { recursive: true })
    writeFileSync(join(root, 'dist', path), text)
  }
}
const read = (path: string): string => readFileSync(join(root, 'dist', path), 'utf8')

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'orbitdraw-prune-'))
})
afterEach(() => {
  rmSync(root, { recursive: true, force: true })
})

describe('pruneDeclarations', () => {
  it('keeps what the entries reach, with its TSDoc, and removes the internals and the files only they named', () => {
    write({
      'index.d.ts': "export { a, type B } from './mod.js';\nexport type { E } from './e.js';\n",
      'mod.d.ts': [
        "import type { D } from './other.js';",
        "import type { F } from './f.js';",
        "export { onlyInternal } from './internal.js';",
        '/** B, public. */',
        'export interface B {\n    readonly f: F;\n}',
        '/** a, public. */',
        'export declare function a(b: B): Hidden;',
        'declare const hidden: {\n    x: number;\n};',
        '/** Named by a, so kept though no entry exports it. */',
        'export type Hidden = typeof hidden;',
        '/** c, internal. */',
        'export declare function c(d: D): void;',
        '/** internalShape, internal. */',
        'export declare const internalShape: {\n    y: string;\n};',
        '',
      ].join('\n'),
      'other.d.ts': 'export interface D {\n    z: string;\n}\n',
      'f.d.ts': 'export type F = string;\n',
      'internal.d.ts': 'export declare const onlyInternal: number;\n',
      'e.d.ts': '/** E, public. */\nexport type E = number;\n/** unusedE, internal. */\nexport declare function unusedE(): void;\n',
    })
    const r = pruneDeclarations(root)
    const mod = read('mod.d.ts')
    for (const kept of ['/** B, public. */', 'export interface B', '/** a, public. */', 'export declare function a(b: B): Hidden;', 'declare const hidden', 'export type Hidden', "import type { F } from './f.js';"]) expect(mod).toContain(kept)
    for (const gone of ['c, internal', 'function c', 'internalShape', './other.js', 'onlyInternal']) expect(mod).not.toContain(gone)
    expect(read('e.d.ts')).toBe('/** E, public. */\nexport type E = number;\n')
    expect(read('f.d.ts')).toBe('export type F = string;\n')
    expect(existsSync(join(root, 'dist', 'other.d.ts'))).toBe(false)
    expect(existsSync(join(root, 'dist', 'internal.d.ts'))).toBe(false)
    // c, internalShape, unusedE, and D and onlyInternal (emptied in pass 1, then their files deleted)
    expect(r).toMatchObject({ kept: 4, removed: 2, statements: 5 })
  })

  it('leaves a file whose every declaration went a module (another file re-exports it whole), its @module TSDoc kept', () => {
    write({
      'index.d.ts': "export type { A } from './a.js';\n",
      'a.d.ts': "export * from './z.js';\nexport type A = string;\n",
      'z.d.ts': '/**\n * z, the module.\n * @module\n */\n/** Internal. */\nexport declare const zInternal: number;\n',
    })
    pruneDeclarations(root)
    expect(read('a.d.ts')).toBe("export * from './z.js';\nexport type A = string;\n")
    // The file's @module TSDoc stays; the declaration's own goes with it.
    expect(read('z.d.ts')).toBe('/**\n * z, the module.\n * @module\n */\nexport {};\n')
  })

  it('stops the build when the declarations left do not compile', () => {
    write({ 'index.d.ts': 'export declare function g(): Missing;\n' })
    expect(() => pruneDeclarations(root)).toThrow(/do not compile[\s\S]*Cannot find name 'Missing'/)
  })
})
