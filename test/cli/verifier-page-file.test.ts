/**
 * The verifier page as the package ships it (issue 25, tarball size): `dist/verifier/index.html.br`, the
 * built page compressed with Brotli, which `orbitdraw verifier-page` and `--version` expand. The
 * expansion is the built page byte for byte (so its SHA-256 and CID are the published ones), and a copy
 * that is not the page the build hashed (truncated, altered, another build's, not Brotli at all) is
 * refused with a typed error instead of being written.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { PAGE_BROTLI_FILE, PAGE_HASH_FILE } from '../../scripts/build-verifier.js'
import { expandShippedPage, readShippedPage } from '../../src/cli/verifier-page-file.js'
import { InvalidInputError } from '../../src/core/errors.js'
import { ROOT } from './helpers.js'

const DIR = join(ROOT, 'dist', 'verifier')
const built = async (): Promise<{ html: Buffer; br: Buffer; digest: { bytes: number; sha256: string; cid: string } }> => ({
  html: await readFile(join(DIR, 'index.html')),
  br: await readFile(join(DIR, PAGE_BROTLI_FILE)),
  digest: JSON.parse(await readFile(join(DIR, PAGE_HASH_FILE), 'utf8')) as { bytes: number; sha256: string; cid: string },
})

describe('the shipped verifier page (Brotli)', () => {
  it('expands to the built page byte for byte, with the published SHA-256 and CID, in well under half the bytes', async () => {
    const { html, br, digest } = await built()
    expect(br.length).toBeLessThan(html.length / 3)
    const expanded = await expandShippedPage(br, digest, 'index.html.br')
    expect(Buffer.from(expanded).equals(html)).toBe(true)
    expect(createHash('sha256').update(expanded).digest('hex')).toBe(digest.sha256)
    // readShippedPage, as the command runs it: from the sources next to dist/ it finds src/verifier/,
    // which holds no built page, and says so.
    await expect(readShippedPage()).rejects.toMatchObject({ code: 'FILE_UNREADABLE', message: expect.stringMatching(/not built/) as unknown })
  })

  it('refuses a copy that is truncated, altered, from another page, or not Brotli', async () => {
    const { br, digest } = await built()
    const refuse = async (bytes: Uint8Array, expected: { bytes: number; sha256: string }, message: RegExp): Promise<void> => {
      const err = await expandShippedPage(bytes, expected, 'x.br').then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(err).toBeInstanceOf(InvalidInputError)
      expect(err).toMatchObject({ code: 'FILE_UNREADABLE', message: expect.stringMatching(message) as unknown })
    }
    await refuse(br.subarray(0, br.length - 100), digest, /not the Brotli-compressed verifier page/)
    await refuse(new TextEncoder().encode('<!doctype html>'), digest, /not the Brotli-compressed verifier page/)
    const other = brotliCompressSync(Buffer.from('<!doctype html><title>not the page</title>'))
    await refuse(other, digest, /not the page the build hashed/)
    await refuse(br, { bytes: digest.bytes, sha256: '0'.repeat(64) }, /not the page the build hashed/)
    // Larger than one page (1 MiB) expanded: stopped at the bound, never expanded in full.
    await refuse(brotliCompressSync(Buffer.alloc(2 * 1024 * 1024, 0x61)), digest, /not the Brotli-compressed verifier page/)
  })
})
