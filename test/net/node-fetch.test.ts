import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blockCid } from '../../src/core/block.js'
import { GatewaySource } from '../../src/beacon/gateway.js'
import { readBodyLimited } from '../../src/net/body.js'
import { fetchNoSteer } from '../../src/net/redirect.js'
import { nodeFetch } from '../../src/net/node-fetch.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'

/** A local server whose answers the tests choose by path. */
let server: Server
let base: string
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = []

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  const path = req.url ?? ''
  if (path === '/hello') {
    res.writeHead(200, { 'content-type': 'text/plain', 'x-two': 'a' })
    res.end('hello')
  } else if (path === '/multi') {
    res.setHeader('x-two', ['a', 'b'])
    res.end('m')
  } else if (path === '/redirect') {
    res.writeHead(302, { location: '/hello' })
    res.end()
  } else if (path === '/gzip') {
    res.writeHead(200, { 'content-encoding': 'gzip' })
    res.end(gzipSync(Buffer.from('zipped text')))
  } else if (path === '/odd-encoding') {
    res.writeHead(200, { 'content-encoding': 'zstd-unknown' })
    res.end('x')
  } else if (path === '/echo') {
    res.writeHead(201, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ method: req.method, body }))
  } else if (path === '/slow-head') {
    setTimeout(() => res.end('late'), 5000).unref()
  } else if (path === '/slow-body') {
    res.writeHead(200, { 'content-length': '10' })
    res.write('12345')
  } else if (path === '/big') {
    res.writeHead(200)
    res.end(Buffer.alloc(100_000, 1))
  } else {
    res.writeHead(404)
    res.end('no')
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      route(req, res, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const manual = { redirect: 'manual' } as const

describe('nodeFetch', () => {
  it('answers a GET like fetch: status, ok, headers without case, the body as text, its headers sent', async () => {
    const res = await nodeFetch(`${base}/hello`, { ...manual, headers: { Accept: 'application/vnd.ipld.raw' } })
    expect([res.status, res.ok, res.headers.get('Content-Type'), res.headers.get('x-missing')]).toEqual([200, true, 'text/plain', null])
    expect(await res.text()).toBe('hello')
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/hello', headers: { accept: 'application/vnd.ipld.raw' } })
    // No encoding is asked for: an answer is the bytes as served.
    expect(seen.at(-1)!.headers['accept-encoding']).toBeUndefined()
  })

  it('joins a repeated header as fetch does, and reads a 404 as not ok', async () => {
    expect((await nodeFetch(`${base}/multi`, manual)).headers.get('x-two')).toBe('a, b')
    const res = await nodeFetch(`${base}/nothing`, manual)
    expect([res.status, res.ok]).toEqual([404, false])
    await res.body?.cancel()
  })

  it('returns a redirect unfollowed (redirect: manual), and fetchNoSteer follows it within the origin', async () => {
    const res = await nodeFetch(`${base}/redirect`, manual)
    expect([res.status, res.headers.get('location')]).toEqual([302, '/hello'])
    await res.body?.cancel()
    const followed = await fetchNoSteer(nodeFetch, `${base}/redirect`, {}, {}, () => new Error('refused'))
    expect(await followed.text()).toBe('hello')
  })

  it('decodes a gzip answer served without being asked for, and fails on an encoding it does not know', async () => {
    expect(await (await nodeFetch(`${base}/gzip`, manual)).text()).toBe('zipped text')
    await expect(nodeFetch(`${base}/odd-encoding`, manual)).rejects.toThrow(/unsupported content-encoding zstd-unknown/)
  })

  it('POSTs a byte body with its length (the time-stamping request) and reads JSON', async () => {
    const res = await nodeFetch(`${base}/echo`, { ...manual, method: 'POST', headers: { 'content-type': 'application/timestamp-query' }, body: new TextEncoder().encode('query') })
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ method: 'POST', body: 'query' })
    expect(seen.at(-1)!.headers).toMatchObject({ 'content-length': '5', 'content-type': 'application/timestamp-query' })
  })

  it('reads the body through getReader() under readBodyLimited, which stops a body over its limit', async () => {
    const ok = await readBodyLimited(await nodeFetch(`${base}/hello`, manual), 5, () => new Error('too large'))
    expect(new TextDecoder().decode(ok)).toBe('hello')
    await expect(readBodyLimited(await nodeFetch(`${base}/big`, manual), 1000, () => new Error('too large'))).rejects.toThrow('too large')
  })

  it('an abort before the answer rejects the request; an abort mid-body fails the read', async () => {
    const early = new AbortController()
    const pending = nodeFetch(`${base}/slow-head`, { ...manual, signal: early.signal })
    setTimeout(() => early.abort(new Error('stop')), 50)
    await expect(pending).rejects.toThrow()
    const late = new AbortController()
    const res = await nodeFetch(`${base}/slow-body`, { ...manual, signal: late.signal })
    const reading = res.arrayBuffer()
    setTimeout(() => late.abort(new Error('stop')), 50)
    await expect(reading).rejects.toThrow()
    const already = new AbortController()
    already.abort(new Error('before'))
    await expect(nodeFetch(`${base}/hello`, { ...manual, signal: already.signal })).rejects.toThrow('before')
  })

  it('leaves every other request to the global fetch (here: a redirect fetch would follow)', async () => {
    const res = await nodeFetch(`${base}/redirect`)
    expect([res.status, res.redirected, await res.text()]).toEqual([200, true, 'hello'])
  })
})

describe('nodeFetch under the gateway source (against the emulator)', () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ beacon: { intervalMs: 60_000, keyType: 'Ed25519', initialBlocks: 3 } })
  })
  afterAll(async () => {
    await emu.stop()
  })

  it('reads the signed head and the chain below it, every block checked against its CID', async () => {
    const gw = new GatewaySource(emu.url, { fetch: nodeFetch, timeoutMs: 10_000, now: Date.now })
    const record = await gw.record(emu.beaconName)
    let block = await gw.block(record.info.valueCid)
    const seqs = [block.sequence]
    while (block.previous !== null) {
      block = await gw.block(block.previous)
      expect(blockCid(block.bytes)).toBe(block.cid)
      seqs.push(block.sequence)
    }
    expect(seqs).toEqual([3, 2, 1, 0])
  })
})
