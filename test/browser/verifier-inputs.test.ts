/**
 * The browser verifier in real headless Chromium, part 3: one input after another. A proof dropped,
 * picked, pasted or linked while another is being verified replaces it: the earlier run is stopped and
 * its verdict is never shown (not while the new input is read or verified, not later over an error), and
 * of two files picked in a row the last one's verdict is the one shown. A file that cannot be read gets
 * a named error, never a silent wait. Found by driving the built page with one input after another
 * (before: a dropped proof's verdict stayed on screen while the next one verified, and arrived later over
 * an empty paste's error; of two files picked in a row the first one read last was shown). A picked
 * file's bytes are moved to the worker, not copied, and *Apply and re-verify* reads the file again
 * (before: the page kept a copy of each file while its verdict was shown, 250 MB for a 250 MB file).
 */
import type { Worker } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { type Proof } from '../../src/core/proof.js'
import { makeBigProof, makeProof, tamperOutcome } from './fixtures.js'
import { loadProof, waitForVerdict } from './harness.js'
import { useVerifierPage } from './page-fixture.js'

describe('browser verifier (headless Chromium): one input after another', () => {
  let plain: Proof
  let big: string
  beforeAll(async () => {
    plain = await makeProof()
    big = new TextDecoder().decode(makeBigProof(20_000_000).bytes)
  })
  const web = useVerifierPage({ name: 'inputs', files: () => ({ '/big.json': big, '/tampered.json': JSON.stringify(tamperOutcome(plain)) }) })
  const state = (): Promise<string | undefined> => web.page.evaluate(() => document.body.dataset.state)
  /** Fetches the served files into the page as File objects (`window.files[name]`), as a person would pick them. */
  const stage = (...names: string[]): Promise<void> =>
    web.page.evaluate(async (list) => {
      const w = window as unknown as { files: Record<string, File> }
      w.files = {}
      for (const n of list) w.files[n] = new File([await (await fetch(`/${n}`)).blob()], n, { type: 'application/json' })
    }, names)
  /** Picks the staged files one after another, in one task (as fast as a person can drop twice, or faster). */
  const pick = (...names: string[]): Promise<void> =>
    web.page.evaluate((list) => {
      const input = document.getElementById('file') as HTMLInputElement
      for (const n of list) {
        const dt = new DataTransfer()
        dt.items.add((window as unknown as { files: Record<string, File> }).files[n]!)
        input.files = dt.files
        input.dispatchEvent(new Event('change'))
      }
    }, names)

  it('a proof loaded while another is verified: the earlier verdict is cleared, its run stopped, and it never comes back over the new input', async () => {
    const workers: Worker[] = []
    web.page.on('worker', (w) => workers.push(w))
    await web.page.goto(`${web.url}?allow-unsigned=1&allow-untimestamped=1`)
    await loadProof(web.page, plain, 'file', 'first.json')
    expect(await state()).toBe('custom')
    await stage('big.json')
    const before = workers.length
    await pick('big.json')
    await web.page.waitForFunction(() => document.body.dataset.state === 'verifying')
    // the first proof's verdict is not on screen while another proof is verified
    expect(await web.page.locator('#verdict').count()).toBe(0)
    expect(await web.page.locator('#result').isHidden()).toBe(true)
    await expect.poll(() => workers.length).toBe(before + 1)
    const running = workers[before]!
    const closed = new Promise<'stopped'>((resolve) => running.once('close', () => resolve('stopped')))
    // an empty paste is an input too: its error replaces the run in progress, which must not conclude later
    await web.page.locator('#paste-box summary').click()
    await web.page.locator('#paste').fill('  ')
    await web.page.locator('#verify-paste').click()
    expect(await state()).toBe('error')
    const overwritten = web.page.waitForFunction(() => document.body.dataset.state !== 'error', null, { timeout: 60_000 }).then(() => 'overwritten' as const)
    expect(await Promise.race([closed, overwritten])).toBe('stopped')
    expect(await state()).toBe('error')
    expect(await web.page.locator('#verdict-title').textContent()).toBe('Could not load the proof')
  }, 120_000)

  it('two files picked in a row: the last one is verified and shown, the first one read last is dropped', async () => {
    const workers: Worker[] = []
    web.page.on('worker', (w) => workers.push(w))
    await web.page.goto(`${web.url}?allow-unsigned=1&allow-untimestamped=1`)
    await stage('big.json', 'tampered.json')
    const before = workers.length
    await web.page.evaluate(() => {
      document.body.dataset.state = 'loading'
    })
    await pick('big.json', 'tampered.json')
    await waitForVerdict(web.page)
    // the 20 MB file is read after the small one; reading it must not start a run over the last pick
    await web.page.waitForTimeout(1500)
    expect(workers.length - before).toBe(1)
    expect(await state()).toBe('failed')
    expect(await web.page.locator('#checks li[data-ok="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check')))).toContain('outcome')
    expect(await web.page.locator('#outcome').textContent()).toContain('claimed by the proof')
  }, 120_000)

  it('a file that cannot be read (a dropped folder, a file gone since it was picked): a named error, not a silent wait', async () => {
    await web.page.goto(web.url)
    await stage('tampered.json')
    await web.page.evaluate(() => {
      document.body.dataset.state = 'loading'
      File.prototype.arrayBuffer = () => Promise.reject(new DOMException('A requested file or directory could not be found', 'NotReadableError'))
    })
    await pick('tampered.json')
    await waitForVerdict(web.page)
    expect(await state()).toBe('error')
    expect(await web.page.locator('#verdict').textContent()).toContain('Could not read tampered.json')
  })

  it("a picked file's bytes are moved to the worker, not kept: Apply and re-verify reads the file again", async () => {
    await web.page.goto(`${web.url}?allow-unsigned=1&allow-untimestamped=1`)
    await stage('big.json')
    await web.page.evaluate(() => {
      document.body.dataset.state = 'loading'
    })
    await pick('big.json')
    await waitForVerdict(web.page)
    expect(await state()).toBe('custom')
    // what the page's own heap holds in ArrayBuffers once the 20 MB proof is shown (the File itself is a
    // handle; the worker that read the bytes has ended). Before: the page's copy, 20 MB.
    const cdp = await web.page.context().newCDPSession(web.page)
    await cdp.send('HeapProfiler.collectGarbage')
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number }
    expect(typeof heap.backingStorageSize).toBe('number')
    expect(heap.backingStorageSize).toBeLessThan(5_000_000)
    await cdp.detach()
    // re-verifying reads the same File again (counted), and checks it as the first time
    await web.page.evaluate(() => {
      const w = window as unknown as { reads: number }
      w.reads = 0
      const read = File.prototype.arrayBuffer
      File.prototype.arrayBuffer = function (this: File) {
        w.reads++
        return read.call(this)
      }
      document.body.dataset.state = 'loading'
    })
    await web.page.locator('#apply-trust').click()
    await waitForVerdict(web.page)
    expect(await state()).toBe('custom')
    expect(await web.page.evaluate(() => (window as unknown as { reads: number }).reads)).toBe(1)
    expect(await web.page.locator('#source').textContent()).toContain('big.json')
    // a file changed or removed since it was picked cannot be read again: named, never checked from a stale copy
    await web.page.evaluate(() => {
      document.body.dataset.state = 'loading'
      File.prototype.arrayBuffer = () => Promise.reject(new DOMException('The requested file could not be read', 'NotReadableError'))
    })
    await web.page.locator('#apply-trust').click()
    await waitForVerdict(web.page)
    expect(await state()).toBe('error')
    expect(await web.page.locator('#verdict').textContent()).toContain('Could not read big.json')
  }, 120_000)
})
