/**
 * The verifier page shipped with this orbitdraw: `dist/verifier/index.html`, found next to the running
 * code (`dist/cli/…` or the bundle in `dist/bin/…`, both one level below `dist/`). Read by
 * `orbitdraw verifier-page` and `orbitdraw --version`.
 *
 * @module
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { InvalidInputError } from '../core/errors.js'
import { pageDigest, type PageDigest } from '../verifier/page-digest.js'

/** The page file and its digests. */
export interface ShippedPage extends PageDigest {
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
  return { path, html, ...pageDigest(html) }
}
