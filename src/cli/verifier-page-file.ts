/**
 * The verifier page shipped with this orbitdraw: `dist/verifier/index.html.br`, the page compressed with
 * Brotli (the package ships it instead of the page itself, about 630 kB: `package.json` `files`), found next to the
 * running code (`dist/cli/…` or the bundle in `dist/bin/…`, both one level below `dist/`) and expanded
 * here byte for byte: its SHA-256 is checked against the build's `dist/verifier/page-hash.json`, the
 * value docs/verifier.md publishes. Read by `orbitdraw verifier-page` and `orbitdraw --version`.
 *
 * @module
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { brotliDecompress } from 'node:zlib'
import { sha256 } from '@noble/hashes/sha2.js'
import { blockCid } from '../core/block.js'
import { bytesToHex } from '../core/bytes.js'
import { InvalidInputError } from '../core/errors.js'

/**
 * The page file and its digests, as `src/verifier/page-digest.ts` computes them for the build
 * (`dist/verifier/` holds only the page, so that module is not importable from here;
 * test/cli/verifier-page.test.ts checks both give the same values).
 */
export interface ShippedPage {
  readonly bytes: number
  /** SHA-256 of the file, hex. */
  readonly sha256: string
  /** CIDv1, raw, sha2-256 (`bafkrei…`). */
  readonly cid: string
  /** Absolute path of the page's compressed file (`index.html.br`). */
  readonly path: string
  readonly html: Uint8Array
}

/** The page's largest size (as `src/verifier/page-digest.ts`'s `MAX_PAGE_BYTES`: one raw IPFS block). */
const MAX_PAGE_BYTES = 1024 * 1024

const expand = promisify(brotliDecompress)

/**
 * Expands the page's Brotli copy and checks it against the build's digest (`page-hash.json`): a
 * truncated or altered copy, or one from another build, is refused rather than written.
 *
 * @param compressed - the bytes of `index.html.br`.
 * @param expected - `page-hash.json`'s `bytes` and `sha256`.
 * @param path - the compressed file's path, for the messages.
 * @throws InvalidInputError `FILE_UNREADABLE` (not Brotli, larger than a page, or not the page the build hashed).
 */
export async function expandShippedPage(compressed: Uint8Array, expected: { readonly bytes: number; readonly sha256: string }, path: string): Promise<Uint8Array> {
  const hint = 'reinstall orbitdraw (or run "npm run build" in the orbitdraw checkout)'
  let html: Uint8Array
  try {
    // Bounded: the output never grows past one page (a hostile file cannot fill memory).
    html = new Uint8Array(await expand(compressed, { maxOutputLength: MAX_PAGE_BYTES }))
  } catch (cause) {
    throw new InvalidInputError('FILE_UNREADABLE', `${path} is not the Brotli-compressed verifier page (${(cause as NodeJS.ErrnoException).code ?? 'unreadable'})`, hint, { cause })
  }
  const digest = bytesToHex(sha256(html))
  if (html.length !== expected.bytes || digest !== expected.sha256) throw new InvalidInputError('FILE_UNREADABLE', `${path} expands to ${html.length} bytes with SHA-256 ${digest}, not the page the build hashed (${expected.bytes} bytes, ${expected.sha256})`, hint)
  return html
}

/**
 * Reads the shipped page: expands `index.html.br`, checked against `page-hash.json` (both beside the
 * build's page). A page that is missing (run from the sources, or not built) is refused with how to
 * build it.
 *
 * @throws InvalidInputError `FILE_UNREADABLE` (not built, or a copy that is not the page the build hashed).
 */
export async function readShippedPage(): Promise<ShippedPage> {
  const path = fileURLToPath(new URL('../verifier/index.html.br', import.meta.url))
  const hashPath = fileURLToPath(new URL('../verifier/page-hash.json', import.meta.url))
  let compressed: Uint8Array
  let expected: { bytes: number; sha256: string }
  try {
    compressed = new Uint8Array(await readFile(path))
    expected = JSON.parse(await readFile(hashPath, 'utf8')) as { bytes: number; sha256: string }
  } catch (cause) {
    throw new InvalidInputError('FILE_UNREADABLE', `the verifier page is not built (${path}: ${(cause as NodeJS.ErrnoException).code ?? 'unreadable'})`, 'build it with "npm run build" (or "npm run build:verifier") in the orbitdraw checkout', { cause })
  }
  const html = await expandShippedPage(compressed, expected, path)
  return { path, html, bytes: html.length, sha256: bytesToHex(sha256(html)), cid: blockCid(html) }
}
