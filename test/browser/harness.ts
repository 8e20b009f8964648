/**
 * Shared pieces of the browser-verifier test and the screenshot script: a static file server on a
 * free loopback port, Debian's chromium through playwright-core (never a downloaded browser), and
 * loading a proof into the page the way a person would.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

/** Where CI's `apt-get install chromium` puts the browser. */
export const CHROMIUM = process.env.ORBITDRAW_CHROMIUM ?? '/usr/bin/chromium'

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.json': 'application/json', '.js': 'text/javascript', '.css': 'text/css' }

/** A static server for `root` on 127.0.0.1, port chosen by the OS. `extra` serves in-memory files. */
export async function serveDir(root: string, extra: Record<string, string> = {}): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
      if (extra[path] !== undefined) {
        res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'access-control-allow-origin': '*' })
        res.end(extra[path])
        return
      }
      const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path))
      if (!file.startsWith(normalize(root) + sep)) {
        res.writeHead(403).end()
        return
      }
      try {
        const body = await readFile(file)
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
        res.end(body)
      } catch {
        res.writeHead(404).end('not found')
      }
    })()
  })
  await new Promise<void>((ok, fail) => {
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => ok())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    server,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections()
        server.close(() => ok())
      }),
  }
}

/**
 * A host name that resolves to 127.0.0.1 inside the launched browser but is not "localhost": a page
 * served from it over http is an insecure context (no Web Crypto), like a page on plain-http hosting.
 */
export const INSECURE_HOST = 'insecure.test'

/** Launches Debian's chromium headless. Throws a clear error when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}. The browser-verifier test needs Debian's chromium: run "apt-get install chromium" (CI does), or set ORBITDRAW_CHROMIUM to a Chromium binary. It never downloads a browser.`)
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', `--host-resolver-rules=MAP ${INSECURE_HOST} 127.0.0.1`, '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
}

/** The page states that end a verification. */
export const FINAL_STATES = ['verified', 'custom', 'failed', 'error', 'cancelled', 'commitment'] as const

/** Waits until the page shows a verdict (or an error, or a cancelled run). */
export async function waitForVerdict(page: Page): Promise<void> {
  await page.waitForFunction((states) => states.includes(document.body.dataset.state ?? ''), FINAL_STATES as readonly string[])
}

/**
 * Loads a proof through the paste box or the file picker and waits for the verdict. Bytes
 * (`Uint8Array`) go through the file picker exactly as given.
 */
export async function loadProof(page: Page, proof: unknown, via: 'paste' | 'file', name = 'proof.json'): Promise<void> {
  const text = proof instanceof Uint8Array ? '' : typeof proof === 'string' ? proof : `${JSON.stringify(proof, null, 2)}\n`
  await page.evaluate(() => {
    document.body.dataset.state = 'loading'
  })
  if (via === 'paste') {
    if (proof instanceof Uint8Array) throw new Error('bytes are loaded through the file picker, not pasted')
    await page.locator('#paste-box summary').click()
    await page.locator('#paste').fill(text)
    await page.locator('#verify-paste').click()
  } else {
    await page.locator('#file').setInputFiles({ name, mimeType: 'application/json', buffer: proof instanceof Uint8Array ? Buffer.from(proof) : Buffer.from(text) })
  }
  await waitForVerdict(page)
}

/**
 * Tampers with a panel-like proof (parsed JSON): its first member becomes the first participant who was
 * not drawn (index and entry together, so only the draw's replay can tell). Returns that participant's index.
 */
export function swapFirstMemberForOutsider(proof: { outcome: { members: { index: number; entry: string }[] }; participants: { entries: string[] } }): number {
  const taken = new Set(proof.outcome.members.map((m) => m.index))
  const other = proof.participants.entries.findIndex((_, i) => !taken.has(i))
  proof.outcome.members[0] = { ...proof.outcome.members[0]!, index: other, entry: proof.participants.entries[other]! }
  return other
}
