/**
 * The verifier page citizens can check (issue 26, item 4): the build is reproducible (two builds, the
 * same bytes), its digest file states the page's real SHA-256 and CID, and docs/verifier.md publishes
 * the hash of the page this commit builds.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CID } from 'multiformats/cid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildVerifier, docsHashBlock, docsPublishedHash, PAGE_HASH_FILE, type BuildVerifierResult } from '../../scripts/build-verifier.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

describe('the verifier page is reproducible and its hash is published', () => {
  const dirs: string[] = []
  const builds: { result: BuildVerifierResult; bytes: Buffer }[] = []
  beforeAll(async () => {
    for (const name of ['a', 'b']) {
      const dir = await mkdtemp(join(tmpdir(), `orbitdraw-page-${name}-`))
      dirs.push(dir)
      const result = await buildVerifier({ outDir: join(dir, name === 'a' ? 'out' : 'elsewhere/deeper') })
      builds.push({ result, bytes: await readFile(result.htmlPath) })
    }
  }, 120_000)
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true })
  })

  it('two builds (into different directories) give the same bytes', () => {
    expect(builds[0]!.bytes.length).toBeGreaterThan(100_000)
    expect(builds[1]!.bytes.equals(builds[0]!.bytes)).toBe(true)
  })

  it('the digest is the SHA-256 and raw CIDv1 of the file, written beside it', async () => {
    const { result, bytes } = builds[0]!
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    expect(result.digest).toEqual({ bytes: bytes.length, sha256, cid: result.digest.cid })
    const cid = CID.parse(result.digest.cid)
    expect(cid.version).toBe(1)
    expect(cid.code).toBe(0x55) // raw
    expect(cid.multihash.code).toBe(0x12) // sha2-256
    expect(Buffer.from(cid.multihash.digest).toString('hex')).toBe(sha256)
    const file = JSON.parse(await readFile(join(dirname(result.htmlPath), PAGE_HASH_FILE), 'utf8')) as unknown
    expect(file).toEqual({ file: 'index.html', ...result.digest })
  })

  it('docs/verifier.md publishes the hash of the page this commit builds', async () => {
    const docs = await readFile(join(ROOT, 'docs', 'verifier.md'), 'utf8')
    const published = docsPublishedHash(docs)
    const built = builds[0]!.result.digest
    expect(published, 'docs/verifier.md has no verifier-page-hash block').toBeDefined()
    expect(published, 'the page changed: run "npm run build:verifier -- --update-docs" and commit docs/verifier.md').toEqual({ sha256: built.sha256, cid: built.cid })
    expect(docs).toContain(docsHashBlock(built))
  })
})
