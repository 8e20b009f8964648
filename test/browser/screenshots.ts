/**
 * Writes docs/verifier-screenshot.png (1280 px) and docs/verifier-screenshot-390.png (a 390 px phone)
 * (a valid proof signed by a test beacon, trusted through the page's `trust-beacon` link parameter,
 * its test time-stamping root trusted in the panel: the amber custom-trust verdict) and
 * docs/verifier-failed-screenshot.png (the same proof under the strict default policy: red,
 * `beacon-trusted`) from the built page in Debian's headless chromium. A green strict verdict needs
 * a proof from Orbitport's own beacon.
 *
 *   npx tsx test/browser/screenshots.ts
 */
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildVerifier, formatReport } from '../../scripts/build-verifier.js'
import { makeProof, tamperBlock, tamperOutcome, TEST_TSA } from './fixtures.js'
import { launchChromium, loadProof, serveDir } from './harness.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

const built = await buildVerifier()
console.log(formatReport(built))
const server = await serveDir(dirname(built.htmlPath))
const browser = await launchChromium()
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' })
  const proof = await makeProof({ signed: true })
  const trusted = `?trust-beacon=${(proof.commitment as { beacon: string }).beacon}`
  const shots: [string, unknown, number?, string?][] = [
    [join(ROOT, 'docs', 'verifier-screenshot.png'), proof, undefined, trusted],
    [join(ROOT, 'docs', 'verifier-screenshot-390.png'), proof, 390, trusted],
    [join(ROOT, 'docs', 'verifier-failed-screenshot.png'), proof],
  ]
  // --extra DIR: more views for design review (not committed)
  const extra = process.argv.indexOf('--extra')
  if (extra > 0) {
    const dir = process.argv[extra + 1] ?? '/tmp'
    const plain = await makeProof()
    shots.push(
      [join(dir, 'unsigned-allowed.png'), plain, undefined, '?allow-unsigned=1'],
      [join(dir, 'outcome-tampered.png'), tamperOutcome(proof), undefined, trusted],
      [join(dir, 'block-tampered.png'), tamperBlock(proof), undefined, trusted],
      [join(dir, 'narrow.png'), proof, 420, trusted],
      [join(dir, 'garbage.png'), '{"type":"orbitdraw-proof","version":1}'],
    )
  }
  for (const [out, p, width, query] of shots) {
    await page.setViewportSize({ width: width ?? 1280, height: 900 })
    await page.goto(`${server.url}${query ?? ''}`)
    if (query === trusted) {
      await page.locator('#trust-tsa').fill(TEST_TSA.rootPem)
      await page.locator('#trust summary').click() // closed again: the verdict is the picture
    }
    await loadProof(page, p, 'file')
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: out, fullPage: true })
    console.log(`wrote ${out}`)
  }
} finally {
  await browser.close()
  await server.close()
}
