/**
 * What the tarball ships (`npm pack --dry-run`, scripts skipped: the file list only), and the `prepare`
 * script that builds `dist/` on a git install or a pack, so neither can ship a stale one.
 */
import { readFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLI_FILE } from '../../scripts/build-cli.js'
import { reachableDeclarations } from '../../scripts/prune-declarations.js'
import { ROOT, runCommand } from '../cli/helpers.js'

describe('the published package', () => {
  it('ships every JSON Schema in docs/, the user changelog, and no screenshots or source maps', { timeout: 60_000 }, async () => {
    const r = await runCommand('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { timeoutMs: 50_000 })
    expect(r.code, r.stderr).toBe(0)
    const files = (JSON.parse(r.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path)
    const schemas = (await readdir(join(ROOT, 'docs'))).filter((f) => f.endsWith('.schema.json'))
    expect(schemas.length).toBeGreaterThanOrEqual(5)
    for (const s of schemas) expect(files).toContain(`docs/${s}`)
    expect(files).toContain('CHANGELOG.md')
    // SECURITY.md (the reporting policy) ships; docs/ does not, except the schemas and the roots: the
    // README links the docs, which npm shows from the repository (npm's "files" matches a name without a
    // slash in any folder and without case, so "SECURITY.md" once shipped docs/security.md as well).
    expect(files).toContain('SECURITY.md')
    expect(files.filter((f) => f.startsWith('docs/') && !f.endsWith('.schema.json') && !f.startsWith('docs/roots/'))).toEqual([])
    expect(files.filter((f) => f.endsWith('.png') || f.endsWith('.map'))).toEqual([])
    // The command: bin, the verify bundle, and the tsc output every other command runs from (no .d.ts:
    // the build deletes the declarations no export reaches, scripts/prune-declarations.ts).
    expect(files).toContain('dist/bin/orbitdraw.cjs')
    expect(files).toContain(`dist/bin/${CLI_FILE}`)
    expect(files).toContain('dist/cli/main.js')
    expect(files.filter((f) => f.startsWith('dist/cli/') && f.endsWith('.d.ts'))).toEqual([])
    // The verifier page as Brotli, with its digest: `orbitdraw verifier-page` expands it byte for byte
    // (test/cli/verifier-page-file.test.ts); the page itself (about 630 kB) is not shipped twice.
    expect(files.filter((f) => f.startsWith('dist/verifier/')).sort()).toEqual(['dist/verifier/index.html.br', 'dist/verifier/page-hash.json'])
    expect(files.filter((f) => f.endsWith('.d.ts')).sort()).toEqual([...reachableDeclarations()].map((f) => relative(ROOT, f)).sort())
  })

  it('prepare builds (a git install or a pack never ships a stale dist); the tests still build first', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
    expect(scripts.prepare).toBe('npm run build')
    expect(scripts.pretest).toBe('npm run build')
  })
})
