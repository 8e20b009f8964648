/**
 * The command against hostile or broken servers (fuzzing pass 3): what reaches the terminal is a typed
 * error with its exit code, never a crash or a server's raw text.
 */
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { derInteger, derSequence, derUtf8String } from '../../src/core/timestamp/der-writer.js'
import { closedPort, json, names, run, useEmulatorWorkspace } from './helpers.js'

const ws = useEmulatorWorkspace({ files: { 'names.txt': names(5) } })

let tsa: Server
let tsaUrl: string
beforeAll(async () => {
  // An authority that refuses every request with a status text made to repaint a terminal.
  const reply = derSequence(derSequence(derInteger(2), derSequence(derUtf8String('\u001b[2J\u001b[H\u001b[32mVERIFIED\u001b[0m \u202eevil\r\nFAKE LINE'))))
  tsa = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/timestamp-reply' })
      res.end(Buffer.from(reply))
    })
  })
  await new Promise<void>((resolve) => tsa.listen(0, '127.0.0.1', resolve))
  tsaUrl = `http://127.0.0.1:${(tsa.address() as { port: number }).port}/tsa`
})
afterAll(async () => {
  tsa.closeAllConnections()
  await new Promise((resolve) => tsa.close(resolve))
})

describe('commit when no time-stamping authority gives a token', () => {
  it('an authority that is down: a network failure (exit 3, TIMESTAMP_UNAVAILABLE), not an internal error', async () => {
    const r = await run(['commit', '-p', 'names.txt', '--pick', '1', '--tsa', `http://127.0.0.1:${await closedPort()}/tsa`, '-o', 'c.json'], ws.opts)
    expect(r.stderr).not.toMatch(/unexpected error|TypeError|bug/)
    expect(r.code).toBe(3)
    expect(r.stderr).toMatch(/^orbitdraw: network failure: no time-stamping authority gave a valid token: .*TIMESTAMP_NETWORK_ERROR/)
    expect(r.stderr).toContain('[TIMESTAMP_UNAVAILABLE]')
  })

  it("an authority's rejection text reaches the terminal escaped, and --json keeps the code", async () => {
    const r = await run(['commit', '-p', 'names.txt', '--pick', '1', '--tsa', tsaUrl, '-o', 'c.json'], ws.opts)
    expect(r.code).toBe(3)
    expect(r.stderr).toContain('TIMESTAMP_REJECTED (PKIStatus rejection: \\u001b[2J')
    // eslint-disable-next-line no-control-regex
    expect(r.stderr).not.toMatch(/[\u001b\u202e\r]/)
    expect(r.stderr.split('\n').some((l) => l.startsWith('FAKE LINE'))).toBe(false)
    const j = await run(['commit', '-p', 'names.txt', '--pick', '1', '--tsa', tsaUrl, '-o', 'c.json', '--json'], ws.opts)
    expect(j.code).toBe(3)
    expect(json<{ error: { code: string } }>(j).error.code).toBe('TIMESTAMP_UNAVAILABLE')
  })
})
