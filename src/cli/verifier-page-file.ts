/**
 * The verifier page shipped with this orbitdraw: `dist/verifier/index.html`, found next to the running
 * code (`dist/cli/…` or the bundle in `dist/bin/…`, both one level below `dist/`). Read by
 * `orbitdraw verifier-page` and `orbitdraw --version`.
 *
 * @module
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
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
  /** Absolute path of the page file. */
  readonly path: string
  readonly html: Uint8Array
}

/**
 * Reads the shipped page. A page that is missing, or the unbuilt template (`src/verifier/index.html`,
 * when run from the sources), is refused with how to build it.
 *
 * @throws InvalidInputError `FILE_UNREADABLE` (not built).
 */
export async function readShippedPage(): Promise<ShippedPage> {
  const path = fileURLToPath(new URL('../verifier/index.html', import.meta.url))
  let html: Uint8Array
  try {
    html = new Uint8Array(await readFile(path))
  } catch (cause) {
    throw new InvalidInputError('FILE_UNREADABLE', `the verifier page is not built (${path}: ${(cause as NodeJS.ErrnoException).code ?? 'unreadable'})`, 'build it with "npm run build" (or "npm run build:verifier") in the orbitdraw checkout', { cause })
  }
  if (Buffer.from(html).includes('<!--SCRIPT-->')) throw new InvalidInputError('FILE_UNREADABLE', `${path} is the page's template, not the built page`, 'run the built CLI (dist/bin/orbitdraw.cjs) after "npm run build"')
  return { path, html, bytes: html.length, sha256: bytesToHex(sha256(html)), cid: blockCid(html) }
}
