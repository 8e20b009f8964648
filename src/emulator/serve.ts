/**
 * Serving an emulated beacon (plus any other services) on loopback, with extra gateways on demand:
 * the part `startEmulator` and `startBeaconEmulator` share.
 *
 * @module
 */
import type { FaultController } from './faults.js'
import { startHttpServer, type HttpServerOptions, type RouteHandler } from './http.js'

/**
 * What serving needs from a beacon (a `BeaconService` fits). Declared here, not imported, so this
 * module does not depend on `beacon.ts` (which depends on it).
 */
export interface ServableBeacon {
  /** Stops the publisher. */
  stop(): void
  /** A new gateway over the same chain, with its own faults. */
  createGateway(): { handler: RouteHandler; faults: FaultController }
}

/** A beacon being served. */
export interface ServedBeacon {
  /** Base URL of the main server. */
  readonly url: string
  /** Starts one more gateway (own port, own faults) serving the same beacon; stopped by `stop`. */
  addGateway(): Promise<{ url: string; faults: FaultController; close(): Promise<void> }>
  /** Stops the publisher and every server. Idempotent. */
  stop(): Promise<void>
}

/**
 * Serves `handlers` (which should include the beacon's) on one loopback server. If the server cannot
 * start, the beacon's publisher is stopped before the error is rethrown.
 */
export async function serveBeacon(beacon: ServableBeacon, handlers: readonly RouteHandler[], options: HttpServerOptions = {}): Promise<ServedBeacon> {
  let server: Awaited<ReturnType<typeof startHttpServer>>
  try {
    server = await startHttpServer(handlers, { port: options.port, host: options.host })
  } catch (err) {
    beacon.stop()
    throw err
  }
  const extra: { close(): Promise<void> }[] = []
  let stopped: Promise<void> | undefined
  return {
    url: server.url,
    addGateway: async () => {
      const gw = beacon.createGateway()
      const s = await startHttpServer([gw.handler], { host: options.host })
      extra.push(s)
      return { url: s.url, faults: gw.faults, close: () => s.close() }
    },
    stop: () => {
      stopped ??= (async () => {
        beacon.stop()
        await Promise.all([server.close(), ...extra.map((s) => s.close())])
      })()
      return stopped
    },
  }
}
