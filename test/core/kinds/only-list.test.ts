/**
 * The registry is the only list of kinds: no source file outside src/core/kinds/ branches on a
 * built-in kind's name (that is how "adding a kind = its module + the registry line" stays true).
 */
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { DEFAULT_DRAW_KINDS } from '../../../src/core/kinds/registry.js'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

async function sources(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(...(await sources(p)))
    else if (e.name.endsWith('.ts')) out.push(p)
  }
  return out
}

describe('draw kinds: the registry is the only list', () => {
  it('no source outside src/core/kinds compares or switches on a built-in kind name', async () => {
    const names = DEFAULT_DRAW_KINDS.names.join('|')
    const branch = new RegExp(`(?:kind\\s*[!=]==?\\s*['"](?:${names})['"]|['"](?:${names})['"]\\s*[!=]==?\\s*\\S*kind|case\\s+['"](?:${names})['"])`)
    const offenders: string[] = []
    for (const file of await sources(join(ROOT, 'src'))) {
      const rel = relative(ROOT, file).split('\\').join('/')
      if (rel.startsWith('src/core/kinds/')) continue
      const text = await readFile(file, 'utf8')
      text.split('\n').forEach((line, i) => {
        if (branch.test(line)) offenders.push(`${rel}:${i + 1}: ${line.trim()}`)
      })
    }
    expect(offenders).toEqual([])
  })

  it('the pattern does catch a branch on a kind (so the test can fail)', () => {
    const names = DEFAULT_DRAW_KINDS.names.join('|')
    const branch = new RegExp(`(?:kind\\s*[!=]==?\\s*['"](?:${names})['"]|['"](?:${names})['"]\\s*[!=]==?\\s*\\S*kind|case\\s+['"](?:${names})['"])`)
    for (const line of ["if (d.kind === 'range') {", "commitment.draw.kind !== 'pick'", "    case 'weighted':", "'shuffle' === o.kind"]) expect(branch.test(line), line).toBe(true)
    expect(branch.test("draw: { kind: 'pick', count: 3 }")).toBe(false)
  })
})
