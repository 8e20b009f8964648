/**
 * The whole-run secret scan (test/setup/secret-scan.ts) must really fail a test file that leaks: run
 * vitest in a child process on a throwaway project whose only test prints a secret, then a token.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const VITEST = join(ROOT, 'node_modules/.bin/vitest')
const SETUP = join(ROOT, 'test/setup/secret-scan.ts')

function runProbe(body: string): { code: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'orbitdraw-scan-'))
  try {
    writeFileSync(join(dir, 'vitest.config.mjs'), `export default { test: { include: ['probe.test.ts'], setupFiles: [${JSON.stringify(SETUP)}] } }\n`)
    writeFileSync(join(dir, 'probe.test.ts'), `import { it } from 'vitest'\nit('probe', () => { ${body} })\n`)
    const r = spawnSync(VITEST, ['run', '--root', dir], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, CI: 'true' } })
    return { code: r.status, output: `${r.stdout}${r.stderr}` }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('the whole-run secret scan', () => {
  it('fails a file that logs a client secret, and one that writes an access token to stderr; passes a clean one', () => {
    const secret = runProbe(`console.log('config', { clientSecret: 'example-secret' })`)
    expect(secret.code).not.toBe(0)
    expect(secret.output).toMatch(/secret scan: this test file's output contains client secret exam…/)

    const token = runProbe(`process.stderr.write('authorization: Bearer emu_' + '0123abcd'.repeat(6) + '\\n')`)
    expect(token.code).not.toBe(0)
    expect(token.output).toMatch(/access token emu_0123…/)

    const clean = runProbe(`console.log('nothing to hide')`)
    expect(clean.code, clean.output).toBe(0)
  }, 120_000)
})
