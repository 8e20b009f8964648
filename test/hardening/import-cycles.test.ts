import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findImportCycles } from '../../scripts/import-cycles.js'

// None known: the last one (verdict.ts reading verify.ts's result type while verify.ts formatted times
// with verdict.ts) was opened by moving formatUnixTime to core/unix-time.ts.
const KNOWN = new Set<string>()

const key = (cycle: string[]): string => [...new Set(cycle)].sort().join('|')

describe('import cycles in src/', () => {
  it('there is none (the core, the emulator and both edges are cycle-free)', () => {
    const cycles = findImportCycles(resolve('src'))
    const fresh = cycles.filter((c) => !KNOWN.has(key(c)))
    expect(fresh.map((c) => c.join(' -> '))).toEqual([])
  })

  const dir = mkdtempSync(join(tmpdir(), 'orbitdraw-cycles-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('the finder sees value, type-only, re-export and dynamic-import cycles, and not acyclic imports', () => {
    mkdirSync(join(dir, 'a'))
    writeFileSync(join(dir, 'a/x.ts'), "import { y } from './y.js'\nexport const x = y\n")
    writeFileSync(join(dir, 'a/y.ts'), "import type { X } from './z.js'\nexport const y = 1 as unknown as X\n")
    writeFileSync(join(dir, 'a/z.ts'), "export * from './x.js'\nexport type X = number\n")
    writeFileSync(join(dir, 'p.ts'), "export const p = () => import('./q.js')\n")
    writeFileSync(join(dir, 'q.ts'), "import { p } from './p.js'\nexport const q = p\n")
    writeFileSync(join(dir, 'leaf.ts'), "import { q } from './q.js'\nimport { x } from './a/x.js'\nexport const l = [q, x]\n")
    const cycles = findImportCycles(dir).map(key).sort()
    expect(cycles).toEqual(['a/x.ts|a/y.ts|a/z.ts', 'p.ts|q.ts'])
  })
})
