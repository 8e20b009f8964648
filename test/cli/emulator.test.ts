/**
 * `orbitdraw emulator`: spawn it, read its URL and beacon name from stdout, use it with the CLI and
 * with fetch, stop it with SIGINT (exit 0) and SIGTERM (exit 0).
 */
import type { ChildProcess } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { parseTrustAnchor } from '../../src/core/timestamp/anchor.js'
import { timestampCommitment } from '../../src/timestamp/client.js'
import { json, run, start } from './helpers.js'

const children: ChildProcess[] = []
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
})

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = ''
    const timer = setTimeout(() => reject(new Error(`no output from the emulator: ${buf}`)), 15_000)
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      buf += d
      if (buf.includes('\n')) {
        clearTimeout(timer)
        resolve(buf)
      }
    })
    child.once('exit', (code) => reject(new Error(`emulator exited early with ${code}: ${buf}`)))
  })
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode })
    else child.once('exit', (code, signal) => resolve({ code, signal }))
  })
}

describe('orbitdraw emulator', () => {
  it('--tsa-accuracy sets the accuracy its authority states in every token (0 to 3600 s)', async () => {
    const child = start(['emulator', '--interval', '250ms', '--key', 'ed25519', '--tsa-accuracy', '7', '--json'])
    children.push(child)
    const info = JSON.parse(await firstLine(child)) as { beaconName: string; tsaRootPem: string; env: Record<string, string> }
    const { cid } = commit({ beacon: info.beaconName, target: 10, after: { sequence: 1, block: 'bafkreihpdxmp4uivugpfjcl5vfkugmvqnigvxxwbmgzauidfp2gigoshfy' }, participants: ['a', 'b'], draw: { kind: 'pick', count: 1 } })
    const stamped = await timestampCommitment(cid, { authorities: [info.env.ORBITDRAW_TSA!], anchors: [parseTrustAnchor(info.tsaRootPem)] })
    expect(stamped.tokens[0]!.accuracySeconds).toBe(7)
    child.kill('SIGINT')
    expect(await exited(child)).toEqual({ code: 0, signal: null })
    const bad = await run(['emulator', '--tsa-accuracy', '-1'])
    expect(bad.code).toBe(2)
  })

  it('prints its URL and beacon name, serves the beacon and REST, and exits 0 on SIGINT', async () => {
    const child = start(['emulator', '--interval', '250ms', '--key', 'ed25519', '--json'])
    children.push(child)
    const info = JSON.parse(await firstLine(child)) as { url: string; beaconName: string; env: Record<string, string> }
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(info.beaconName).toMatch(/^k51/)
    expect(info.env).toMatchObject({ ORBITDRAW_GATEWAYS: info.url, ORBITDRAW_BEACON: info.beaconName, ORBITDRAW_TRUST_BEACONS: info.beaconName, ORBITPORT_CLIENT_ID: 'emulator-client' })

    // query it: with plain fetch (a trustless gateway route) and with the CLI using the printed env
    const res = await fetch(`${info.url}/ipns/${info.beaconName}?format=ipns-record`, { headers: { accept: 'application/vnd.ipfs.ipns-record' } })
    expect(res.status).toBe(200)
    const head = await run(['beacon', 'latest', '--json'], { env: info.env })
    expect(head.code, head.stderr).toBe(0)
    expect(json<{ authenticated: boolean }>(head).authenticated).toBe(true)
    const rnd = await run(['random', '--json'], { env: info.env })
    expect(rnd.code, rnd.stderr).toBe(0)

    child.kill('SIGINT')
    expect(await exited(child)).toEqual({ code: 0, signal: null })
  })

  it('human output names the env to export; SIGTERM also exits 0', async () => {
    const child = start(['emulator', '--interval', '500ms', '--key', 'ed25519'])
    children.push(child)
    let out = await firstLine(child)
    await new Promise((r) => setTimeout(r, 300))
    child.stdout!.on('data', (d: string) => (out += d))
    expect(out).toMatch(/orbitdraw emulator running at http:\/\/127\.0\.0\.1:\d+/)
    await new Promise((r) => setTimeout(r, 200))
    expect(out).toMatch(/export ORBITDRAW_GATEWAYS=http:\/\/127\.0\.0\.1:\d+/)
    expect(out).toMatch(/export ORBITDRAW_BEACON=k51/)
    expect(out).toMatch(/Press Ctrl-C to stop/)
    child.kill('SIGTERM')
    expect(await exited(child)).toEqual({ code: 0, signal: null })
  })
})

describe('orbitdraw emulator errors', () => {
  it('a port in use is a usage error (exit 2) naming the port', async () => {
    const { createServer } = await import('node:net')
    const srv = createServer()
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))
    const port = (srv.address() as { port: number }).port
    try {
      const r = await run(['emulator', '--port', String(port), '--key', 'ed25519'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`)
    } finally {
      srv.close()
    }
  })
})
