/**
 * A block whose timestamp is past any JavaScript date (a beacon may write any whole number up to
 * 2^53 − 1; an unsigned head is any gateway's choice): `beacon` prints it, it does not crash (fuzzing pass 3).
 */
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blockJson, blockLines, blockTimeIso } from '../../src/cli/common.js'
import { blockCid, parseBlock } from '../../src/core/block.js'
import { main } from '../../src/cli/main.js'
import { expectedAt, formatInspection, type Inspection } from '../../src/cli/commands/inspect.js'
import type { CliContext } from '../../src/cli/command.js'

const BYTES = new TextEncoder().encode(`{"previous":"","data":{"sequence":0,"timestamp":9007199254740991,"ctrng":["${'ab'.repeat(32)}"]}}`)
const NAME = 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8'

let gateway: Server
let url: string
beforeAll(async () => {
  // No IPNS record; the unsigned head is that block.
  gateway = createServer((req, res) => {
    if (req.url?.startsWith('/ipns/') === true && !req.url.includes('format=ipns-record')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(Buffer.from(BYTES))
    } else {
      res.writeHead(404)
      res.end()
    }
  })
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(gateway.address() as { port: number }).port}`
})
afterAll(async () => {
  gateway.closeAllConnections()
  await new Promise((resolve) => gateway.close(resolve))
})

function ctx(): CliContext & { stdout: string; stderr: string } {
  const c: CliContext & { stdout: string; stderr: string } = {
    stdout: '',
    stderr: '',
    out: (t) => void (c.stdout += t),
    err: (t) => void (c.stderr += t),
    env: { ORBITDRAW_GATEWAYS: url, ORBITDRAW_BEACON: NAME },
    signal: new AbortController().signal,
    isTTY: false,
  }
  return c
}

describe('a block timestamp past any date', () => {
  it('is shown as its seconds, and as time: null in JSON', () => {
    const b = parseBlock(BYTES, blockCid(BYTES))
    expect(blockTimeIso(b.timestamp)).toBeNull()
    expect(blockLines(b)[1]).toBe('  time      9007199254740991 s after 1970 (past any date)')
    expect(blockJson(b)).toMatchObject({ timestamp: 9007199254740991, time: null })
    expect(blockTimeIso(1_700_000_000)).toBe('2023-11-14T22:13:20.000Z')
  })

  it('orbitdraw beacon latest --allow-unsigned-head: exit 0, not an internal error', async () => {
    const text = ctx()
    expect(await main(['beacon', 'latest', '--allow-unsigned-head'], text)).toBe(0)
    expect(text.stdout).toContain('9007199254740991 s after 1970')
    const json = ctx()
    expect(await main(['beacon', 'latest', '--allow-unsigned-head', '--json'], json)).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({ block: { timestamp: 9007199254740991, time: null } })
  })

  it('inspect --online: a target block due past any date at an absurd interval is said so, not a crash', () => {
    // A head dated 2^40 s after the block before it gives an interval of about 1.1e15 ms: the target's
    // time, a few blocks on, is past what a Date holds, and toISOString threw a RangeError (exit 70).
    expect(expectedAt(1_700_000_000_000, 8, 2 ** 40 * 1000)).toBeNull()
    expect(expectedAt(1_700_000_000_000, 2, 60_000)).toBe('2023-11-14T22:15:20.000Z')
    const facts: Inspection = {
      ok: true, kind: 'commitment', cid: 'bafy', label: '', beacon: NAME, target: 10, after: { sequence: 1, block: 'bafyafter' },
      draw: {}, drawText: 'pick 1 of 3', participants: null, timestamps: [], expected: { latest: 2, published: false, time: null },
    }
    expect(formatInspection(facts)).toContain("  expected       past any date at the beacon's estimated block interval (the latest block is 2)")
  })
})
