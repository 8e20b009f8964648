/**
 * A small raffle service on node:http, using orbitdraw as a library.
 *
 *   POST /raffles                 {"participants": [...], "winners": 3, "label"?: "…", "delaySeconds"?: 30}
 *                                 → 201: the raffle is committed to a future beacon block
 *   GET  /raffles/:id             the raffle: status (open | drawn | failed), the published commitment
 *                                 and its CID, the target block, the participants, then the winners
 *   GET  /raffles/:id/commitment  the commitment JSON exactly as committed (its CID is its identity)
 *   GET  /raffles/:id/proof       the proof bundle (425 Too Early while open), with a Link header to
 *                                 the verifier page
 *   GET  /verifier/               the static browser verifier, when built (npm run build:verifier)
 *
 * The raffle is drawn automatically when its block is published. Everything served is public: the
 * participants list is part of a public raffle. Run it:
 *
 *   npx tsx examples/raffle-server/server.ts            # real beacon, public gateways, port 8080
 *   PORT=9000 ORBITDRAW_GATEWAYS=http://127.0.0.1:8787 ORBITDRAW_BEACON=k51… npx tsx examples/raffle-server/server.ts
 *   npx tsx examples/raffle-server/run.ts               # self-test on the emulator (what CI runs)
 */
import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { BeaconClient, commitTimestamped, draw, OrbitdrawError, serializeProof, type Commitment, type Proof, type TimestampOptions } from '../../src/index.js'

/** One raffle as stored (in memory: a real service would use a database). */
interface Raffle {
  id: string
  label: string
  participants: string[]
  commitment: Commitment
  commitmentJson: unknown
  commitmentCid: string
  estimatedTime: string
  status: 'open' | 'drawn' | 'failed'
  proof?: Proof
  error?: string
}

export interface RaffleServerOptions {
  /** The beacon client (gateways + beacon name). */
  client: BeaconClient
  /** Port on 127.0.0.1 (default 0: a free port). */
  port?: number
  /** Where the verifier page lives (default: this server's /verifier/). */
  verifierUrl?: string
  /** Longest accepted delay before the target block, in seconds (default one day). */
  maxDelaySeconds?: number
  /**
   * How to time-stamp each commitment (RFC 3161), so verifiers can see it existed before its block:
   * the authorities and the roots to check their answers against (default: the public authorities).
   */
  timestamp?: TimestampOptions
}

export interface RunningRaffleServer {
  url: string
  close(): Promise<void>
}

const MAX_BODY = 1 << 20
const VERIFIER_HTML = fileURLToPath(new URL('../../dist/verifier/index.html', import.meta.url))

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export async function startRaffleServer(options: RaffleServerOptions): Promise<RunningRaffleServer> {
  const raffles = new Map<string, Raffle>()
  const pending = new Set<Promise<void>>()
  const stop = new AbortController()
  let base = ''

  const links = (r: Raffle): Record<string, string> => {
    const proof = `${base}/raffles/${r.id}/proof`
    return {
      self: `${base}/raffles/${r.id}`,
      commitment: `${base}/raffles/${r.id}/commitment`,
      proof,
      verifier: `${options.verifierUrl ?? `${base}/verifier/`}?proof=${encodeURIComponent(proof)}`,
    }
  }

  const view = (r: Raffle): Record<string, unknown> => ({
    id: r.id,
    label: r.label,
    status: r.status,
    commitmentCid: r.commitmentCid,
    commitment: r.commitmentJson,
    beacon: r.commitment.beacon,
    targetBlock: r.commitment.target,
    estimatedTime: r.estimatedTime,
    participants: r.participants,
    ...(r.proof?.outcome.kind === 'pick' ? { winners: r.proof.outcome.winners } : {}),
    ...(r.error === undefined ? {} : { error: r.error }),
    links: links(r),
  })

  async function open(body: unknown): Promise<Raffle> {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
    if (!Array.isArray(b.participants) || !b.participants.every((p) => typeof p === 'string')) throw new HttpError(400, 'participants must be an array of strings')
    if (!Number.isSafeInteger(b.winners) || (b.winners as number) < 1) throw new HttpError(400, 'winners must be a positive integer')
    const delaySeconds = b.delaySeconds === undefined ? 30 : Number(b.delaySeconds)
    if (!Number.isFinite(delaySeconds) || delaySeconds < 0 || delaySeconds > (options.maxDelaySeconds ?? 86_400)) throw new HttpError(400, 'delaySeconds is out of range')
    const label = typeof b.label === 'string' ? b.label : ''
    const participants = b.participants as string[]
    // Plan a target, commit (which validates the entries: no duplicates, no stray whitespace… and the
    // draw) and time-stamp it now, before the target block exists; the tokens travel in the proof. A
    // time-stamp that comes too late for the planned block moves the target (nothing is published yet).
    const c = await commitTimestamped({ client: options.client, delaySeconds, participants, draw: { kind: 'pick', count: b.winners as number }, label, ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }), signal: stop.signal })
    const stamped = c.timestamps
    const raffle: Raffle = { id: randomUUID(), label, participants, commitment: c.commitment, commitmentJson: c.json, commitmentCid: c.cid, estimatedTime: c.plan.estimatedTime.toISOString(), status: 'open' }
    raffles.set(raffle.id, raffle)
    // Draw automatically once the block is out.
    const job = draw(c.commitment, participants, { client: options.client, signal: stop.signal, timestamps: stamped.tokens.map((t) => t.base64) }).then(
      (proof) => {
        raffle.proof = proof
        raffle.status = 'drawn'
      },
      (err: unknown) => {
        if (stop.signal.aborted) return
        raffle.status = 'failed'
        raffle.error = err instanceof OrbitdrawError ? `${err.code}: ${err.detail}` : String(err)
      },
    )
    pending.add(job)
    void job.finally(() => pending.delete(job))
    return raffle
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base)
    const parts = url.pathname.split('/').filter((p) => p !== '')
    res.setHeader('access-control-allow-origin', '*') // proofs and commitments are public: let any verifier page fetch them
    if (req.method === 'POST' && url.pathname === '/raffles') {
      const raffle = await open(await readJson(req))
      return send(res, 201, view(raffle), { location: `/raffles/${raffle.id}` })
    }
    if (req.method === 'GET' && url.pathname === '/raffles') return send(res, 200, [...raffles.values()].map((r) => ({ id: r.id, label: r.label, status: r.status, links: links(r) })))
    if (req.method === 'GET' && (url.pathname === '/verifier' || url.pathname === '/verifier/')) {
      if (!existsSync(VERIFIER_HTML)) throw new HttpError(404, 'the verifier page is not built; run npm run build:verifier')
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(readFileSync(VERIFIER_HTML))
      return
    }
    if (req.method === 'GET' && parts[0] === 'raffles' && parts.length >= 2 && parts.length <= 3) {
      const raffle = raffles.get(parts[1]!)
      if (raffle === undefined) throw new HttpError(404, 'no such raffle')
      if (parts.length === 2) return send(res, 200, view(raffle))
      if (parts[2] === 'commitment') return send(res, 200, raffle.commitmentJson)
      if (parts[2] === 'proof') {
        if (raffle.proof === undefined) {
          const status = raffle.status === 'failed' ? 502 : 425
          return send(res, status, { error: raffle.status === 'failed' ? `the draw failed: ${raffle.error}` : `not drawn yet: waiting for block ${raffle.commitment.target} (expected ${raffle.estimatedTime})`, status: raffle.status })
        }
        res.writeHead(200, { 'content-type': 'application/json', link: `<${links(raffle).verifier}>; rel="verifier"`, 'content-disposition': `inline; filename="raffle-${raffle.id}.proof.json"` })
        res.end(serializeProof(raffle.proof))
        return
      }
    }
    throw new HttpError(404, 'not found')
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof HttpError) return send(res, err.status, { error: err.message })
      if (err instanceof OrbitdrawError) return send(res, err.constructor.name === 'InvalidInputError' ? 400 : 502, { error: err.detail, hint: err.hint, code: err.code })
      send(res, 500, { error: 'internal error' })
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: base,
    async close() {
      stop.abort()
      await Promise.allSettled([...pending])
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(`${JSON.stringify(body, null, 2)}\n`)
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let size = 0
  const chunks: Buffer[] = []
  for await (const c of req) {
    size += (c as Buffer).length
    if (size > MAX_BODY) throw new HttpError(413, 'body too large')
    chunks.push(c as Buffer)
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown
  } catch {
    throw new HttpError(400, 'the body must be JSON')
  }
}

// Run as a program: serve until Ctrl-C.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const gateways = process.env.ORBITDRAW_GATEWAYS?.split(',').filter((g) => g !== '')
  const client = new BeaconClient({ ...(gateways?.length ? { gateways } : {}), ...(process.env.ORBITDRAW_BEACON ? { name: process.env.ORBITDRAW_BEACON } : {}) })
  const server = await startRaffleServer({ client, port: Number(process.env.PORT ?? 8080) })
  console.log(`raffle server on ${server.url} (beacon ${client.name})`)
  console.log(`  curl -s -X POST ${server.url}/raffles -H 'content-type: application/json' -d '{"participants":["ada","ben","cy"],"winners":1,"delaySeconds":60}'`)
  const quit = (): void => void server.close().then(() => process.exit(0))
  process.once('SIGINT', quit)
  process.once('SIGTERM', quit)
}
