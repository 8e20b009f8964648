import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GatewaySource } from '../../src/beacon/gateway.js'
import { BadResponseError } from '../../src/beacon/errors.js'
import { prefetchChain, prefetchFor } from '../../src/cli/chain-prefetch.js'
import { nodeFetch, type NodeFetch } from '../../src/net/node-fetch.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'

/** nodeFetch, counting the requests that reach the network. */
function counting(): { fetch: NodeFetch; blocks: () => number } {
  let blocks = 0
  return {
    fetch: (input, init) => {
      if (String(input).includes('/ipfs/')) blocks++
      return nodeFetch(input, init)
    },
    blocks: () => blocks,
  }
}

describe('the chain walk begun on a second thread (orbitdraw draw)', () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ beacon: { intervalMs: 3_600_000, keyType: 'Ed25519', initialBlocks: 30 } })
  })
  afterAll(async () => {
    await emu.stop()
  })

  it('answers the walk\'s block requests from the bytes it fetched, each still checked against its CID by the gateway source', async () => {
    const net = counting()
    const p = prefetchChain({ gateway: `${emu.url}/`, name: emu.beaconName, downTo: 10, fetch: net.fetch })
    await p.done
    const gw = new GatewaySource(emu.url, { fetch: p.fetch, timeoutMs: 10_000, now: Date.now })
    const record = await gw.record(emu.beaconName)
    let block = await gw.block(record.info.valueCid)
    const seqs = [block.sequence]
    while (block.sequence > 10) {
      block = await gw.block(block.previous!)
      seqs.push(block.sequence)
    }
    expect(seqs).toEqual(Array.from({ length: 21 }, (_, i) => 30 - i))
    // The head came from the network (the walk keys blocks by the CID a `previous` link names), the 20 below it from the walk.
    expect([p.served(), net.blocks()]).toEqual([20, 1])
    // A block is handed over once; asked again, it comes from the network.
    const head = await gw.block(record.info.valueCid)
    await gw.block(head.previous!)
    expect(net.blocks()).toBe(3)
  })

  it('reads the commitment file leniently: no walk for bytes that do not name a beacon, a target and an after block', async () => {
    const enc = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v))
    expect(prefetchFor(enc({ commitment: { beacon: emu.beaconName, target: 12 } }), emu.url, nodeFetch)).toBeUndefined()
    expect(prefetchFor(new TextEncoder().encode('not json'), emu.url, nodeFetch)).toBeUndefined()
    expect(prefetchFor(enc({ commitment: { beacon: '../../x', target: 12, after: { sequence: 9 } } }), emu.url, nodeFetch)).toBeUndefined()
    const p = prefetchFor(enc({ commitment: { beacon: emu.beaconName, target: 29, after: { sequence: 25 } } }), emu.url, nodeFetch)!
    await p.done
    const gw = new GatewaySource(emu.url, { fetch: p.fetch, timeoutMs: 10_000, now: Date.now })
    let block = await gw.block((await gw.record(emu.beaconName)).info.valueCid)
    while (block.sequence > 25) block = await gw.block(block.previous!)
    expect(p.served()).toBe(5)
  })
})

describe('a gateway that serves the walk other bytes than the CID names', () => {
  let server: Server
  let base = ''
  const cid = 'bafkreigeq2kff2vgcufqzpgy2g44mszkigducp3gpxzy6qv4prua52lnuy'
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/ipns/')) res.end(JSON.stringify({ previous: `/ipfs/${cid}`, data: { sequence: 8, timestamp: 1, ctrng: [] } }))
      else res.end(JSON.stringify({ previous: '', data: { sequence: 7, timestamp: 1, ctrng: [] } }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('gets its bytes refused by the gateway source (they do not hash to the CID), as from the network', async () => {
    const p = prefetchChain({ gateway: base, name: 'k51qzi5uqu5dlnmkf9643kyici72tgms82lx4evaragivrmczq5jsks3xnsu42', downTo: 0, fetch: nodeFetch })
    await p.done
    const gw = new GatewaySource(base, { fetch: p.fetch, timeoutMs: 10_000, now: Date.now })
    await expect(gw.block(cid)).rejects.toBeInstanceOf(BadResponseError)
    expect(p.served()).toBe(1)
  })
})
