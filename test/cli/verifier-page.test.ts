/**
 * `orbitdraw verifier-page` and `orbitdraw --version` through the real binary (issue 26, item 4): the
 * page written is byte for byte the built one, and the SHA-256 and CID printed are the file's own and
 * the build's published ones.
 */
import { createHash } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, run, useWorkspace } from './helpers.js'

const ws = useWorkspace()
const built = async (): Promise<{ bytes: Buffer; digest: { bytes: number; sha256: string; cid: string } }> => ({
  bytes: await readFile(join(ROOT, 'dist', 'verifier', 'index.html')),
  digest: JSON.parse(await readFile(join(ROOT, 'dist', 'verifier', 'page-hash.json'), 'utf8')) as { bytes: number; sha256: string; cid: string },
})

describe('orbitdraw verifier-page', () => {
  it('writes the built page and prints its SHA-256 and CID, which are the file\'s own', async () => {
    const { bytes, digest } = await built()
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    expect(digest.sha256).toBe(sha256)
    const r = await run(['verifier-page'], { cwd: ws.dir })
    expect(r.code, r.stderr).toBe(0)
    const written = await readFile(join(ws.dir, 'orbitdraw-verifier.html'))
    expect(written.equals(bytes)).toBe(true)
    expect(r.stdout).toContain(`SHA-256  ${sha256}`)
    expect(r.stdout).toContain(`CID      ${digest.cid}`)
    expect(r.stdout).toContain('sha256sum')
    // --json, to another file
    const j = await run(['verifier-page', '-o', 'site.html', '--json'], { cwd: ws.dir })
    expect(j.code, j.stderr).toBe(0)
    expect(JSON.parse(j.stdout)).toEqual({ file: 'site.html', bytes: bytes.length, sha256, cid: digest.cid })
    // to standard output: the page there, the hashes on standard error
    const o = await run(['verifier-page', '-o', '-'], { cwd: ws.dir })
    expect(o.code).toBe(0)
    expect(createHash('sha256').update(o.stdout, 'utf8').digest('hex')).toBe(sha256)
    expect(o.stderr).toContain(sha256)
  })

  it('refuses to overwrite a file without --force, and an extra argument (exit 2)', async () => {
    await writeFile(join(ws.dir, 'taken.html'), 'mine')
    const r = await run(['verifier-page', '-o', 'taken.html'], { cwd: ws.dir })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/already exists; pass --force/)
    expect(await readFile(join(ws.dir, 'taken.html'), 'utf8')).toBe('mine')
    const f = await run(['verifier-page', '-o', 'taken.html', '--force'], { cwd: ws.dir })
    expect(f.code).toBe(0)
    expect((await readFile(join(ws.dir, 'taken.html'))).equals((await built()).bytes)).toBe(true)
    expect((await run(['verifier-page', 'page.html'], { cwd: ws.dir })).code).toBe(2)
  })

  it('--version names the page\'s SHA-256', async () => {
    const { digest } = await built()
    const v = await run(['--version'])
    expect(v.code).toBe(0)
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+\n/)
    expect(v.stdout).toContain(`verifier page sha256 ${digest.sha256} (cid ${digest.cid}`)
  })
})
