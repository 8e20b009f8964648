/**
 * The emulated beacon's trustless gateway routes: `/ipfs/<cid>` (raw block or JSON), `/ipns/<name>` (the
 * head block) and `/ipns/<name>?format=ipns-record` (the signed record), with conditional requests and
 * the faults the beacon service takes for each route. Apart from the publisher (`beacon.ts`): one gateway
 * per fault controller, over the same beacon.
 *
 * @module
 */
import type { ServerResponse } from 'node:http'
import type { BeaconBlock } from '../core/block.js'
import { bytesToHex } from '../core/bytes.js'
import { parseIpnsName } from '../core/ipns/index.js'
import type { BeaconRoute, FaultController, FaultSpec } from './faults.js'
import { sendBody, sendError, wants } from './gateway-responses.js'
import type { RouteHandler } from './http.js'

const IMMUTABLE = 'public, max-age=29030400, immutable'

/** What a gateway needs of the beacon it serves. */
export interface GatewayBeacon {
  /** The beacon's IPNS name, and its multihash in hex. */
  readonly name: string
  readonly nameKey: string
  /** Record TTL in ms (the `cache-control` of the IPNS routes). */
  readonly ttlMs: number
  /** A stored block by CID (any version or base), `'invalid'` when the text is not a CID. */
  block(cid: string): BeaconBlock | undefined | 'invalid'
  /** Counts the request, applies latency, then answers a fault that replaces the response; `answered` says whether it did. */
  preamble(faults: FaultController, route: BeaconRoute, res: ServerResponse, url: URL): Promise<{ answered: boolean; fault: FaultSpec | undefined }>
  /** The record and head block to serve on the IPNS routes, after stale/fork faults. */
  headFor(fault: FaultSpec | undefined): Promise<{ record: Uint8Array; block: BeaconBlock }>
}

/** The gateway's route handler for `beacon`, with `faults` as its own fault controller. */
export function gatewayHandler(beacon: GatewayBeacon, faults: FaultController): RouteHandler {
  return async (req, res, url) => {
    const path = url.pathname
    const isIpfs = path.startsWith('/ipfs/')
    const isIpns = path.startsWith('/ipns/')
    if (!isIpfs && !isIpns) return false
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, 405, `method ${req.method} not allowed`, { allow: 'GET, HEAD' })
      return true
    }
    const segments = path.split('/').filter((s) => s !== '')
    const id = decodeURIComponent(segments[1] ?? '')
    const format = wants(url, req)

    if (isIpfs) {
      const pre = await beacon.preamble(faults, 'block', res, url)
      if (pre.answered) return true
      const block = beacon.block(id)
      if (block === 'invalid') {
        sendError(res, 400, `invalid CID ${JSON.stringify(id.slice(0, 80))}`)
        return true
      }
      if (block === undefined) {
        sendError(res, 404, `block ${id} not found`)
        return true
      }
      if (segments.length > 2) {
        sendError(res, 404, 'a raw block has no paths inside it')
        return true
      }
      if (format !== undefined && format !== 'raw') {
        sendError(res, 406, `format ${format} is not supported by this gateway for /ipfs/ (use raw)`)
        return true
      }
      // The block's bytes either way: as a raw block (its own ETag, a file name) or as JSON.
      const raw = format === 'raw'
      if (raw && req.headers['if-none-match'] === `"${block.cid}.raw"`) {
        res.writeHead(304, { etag: `"${block.cid}.raw"`, 'cache-control': IMMUTABLE })
        res.end()
        return true
      }
      sendBody(req, res, block.bytes, {
        ...blockHeaders(block.cid, raw, IMMUTABLE, `/ipfs/${id}`),
        ...(raw ? { 'content-disposition': `attachment; filename="${block.cid}.bin"` } : {}),
      }, pre.fault)
      return true
    }

    // /ipns/<name>
    let nk: string
    try {
      nk = bytesToHex(parseIpnsName(id).multihash)
    } catch {
      sendError(res, 400, `invalid IPNS name ${JSON.stringify(id.slice(0, 80))}`)
      return true
    }
    if (nk !== beacon.nameKey) {
      sendError(res, 404, `no IPNS record for ${id}`)
      return true
    }
    if (segments.length > 2) {
      sendError(res, 404, 'the head is a raw block and has no paths inside it')
      return true
    }
    const ttlSeconds = Math.max(0, Math.floor(beacon.ttlMs / 1000))
    if (format === 'ipns-record') {
      const pre = await beacon.preamble(faults, 'ipns-record', res, url)
      if (pre.answered) return true
      const h = await beacon.headFor(pre.fault)
      sendBody(req, res, h.record, {
        'content-type': 'application/vnd.ipfs.ipns-record',
        'cache-control': `public, max-age=${ttlSeconds}`,
        'x-ipfs-path': `/ipns/${id}`,
        'content-disposition': `attachment; filename="${beacon.name}.ipns-record"`,
      }, pre.fault)
      return true
    }
    const pre = await beacon.preamble(faults, 'ipns-json', res, url)
    if (pre.answered) return true
    const h = await beacon.headFor(pre.fault)
    if (format !== undefined && format !== 'raw') {
      sendError(res, 406, `format ${format} is not supported by this gateway for /ipns/ (use ipns-record or raw)`)
      return true
    }
    sendBody(req, res, h.block.bytes, blockHeaders(h.block.cid, format === 'raw', `public, max-age=${ttlSeconds}`, `/ipns/${id}`), pre.fault)
    return true
  }
}

/** The headers of a block's bytes, served as a raw block or as JSON (an ETag for each). */
function blockHeaders(cid: string, raw: boolean, cacheControl: string, path: string): Record<string, string> {
  return {
    'content-type': raw ? 'application/vnd.ipld.raw' : 'application/json',
    'cache-control': cacheControl,
    etag: raw ? `"${cid}.raw"` : `"${cid}"`,
    'x-ipfs-path': path,
    'x-ipfs-roots': cid,
  }
}
