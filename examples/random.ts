/**
 * Fetching cosmic random values from the Orbitport REST endpoint, against the in-process emulator.
 *
 *   npx tsx examples/random.ts
 *
 * Shows: the client-credentials token, several `src` orders, a satellite outage with the `derived`
 * fallback, signature verification (good, and a wrong key rejected), a fallback to the public beacon,
 * and reproducing the server's `derived` values locally from a seed.
 *
 * Against production you would only change the client options: drop `baseUrl`/`authUrl`/`fetch`
 * and read the credentials from the environment (never ship them to a browser).
 */
// In your project: `from 'orbitdraw'` and `from 'orbitdraw/emulator'`.
import { BeaconClient, OrbitportClient } from '../src/index.js'
import { beaconFallbackFrom, derivedValues, SignatureError } from '../src/rest/index.js'
import { bytesToHex } from '../src/core/formats.js'
import { createRestService, startEmulator } from '../src/emulator/index.js'

// The whole service on one loopback origin: token + cTRNG endpoints and the beacon with its gateway.
const emulator = await startEmulator({ rest: { clientId: 'example-client', clientSecret: 'example-secret' }, beacon: { intervalMs: 0, initialBlocks: 2, keyType: 'Ed25519' } })
const service = emulator.rest
const server = { url: emulator.url }

try {
  const client = new OrbitportClient({
    clientId: 'example-client',
    clientSecret: 'example-secret',
    baseUrl: server.url, // production default: https://op.spacecomputer.io
    authUrl: server.url, // production default: https://auth.spacecomputer.io
    verify: { publicKey: service.publicKey }, // P-256, DER, SHA-256 over the 32 data bytes
  })
  console.log(`client: ${client}`) // the secret is never printed

  console.log('\n1. source orders')
  for (const src of [undefined, ['satellite', 'derived'], ['derived', 'satellite'], 'derived'] as const) {
    const v = await client.random(src === undefined ? {} : { src })
    console.log(`  src=${JSON.stringify(src ?? '(server default)').padEnd(26)} -> ${v.source.padEnd(9)} ${v.hex}  signature verified: ${v.signatureVerified}`)
  }

  console.log('\n2. satellite outage: the server falls back to its derived source')
  service.setSatelliteOutage(true)
  const d = await client.random()
  console.log(`  default order -> ${d.source} ${d.hex}`)
  try {
    await new OrbitportClient({ clientId: 'example-client', clientSecret: 'example-secret', baseUrl: server.url, authUrl: server.url, retry: { retries: 0 } }).random({ src: 'satellite' })
  } catch (err) {
    console.log(`  satellite only -> ${(err as Error).name}: ${(err as Error).message}`)
  }
  service.setSatelliteOutage(false)

  console.log('\n3. the derived source is reproducible: re-derive the emulator derived values locally')
  const local = derivedValues(service.derivedSeed, 0, 3).map(bytesToHex)
  console.log(`  seed ${bytesToHex(service.derivedSeed)}`)
  local.forEach((hex, i) => console.log(`  m/${i}' -> ${hex}`))
  if (!local.includes(d.hex)) throw new Error('the derived value was not reproduced locally')
  console.log('  the value served during the outage is among them: reproduced')

  console.log('\n4. a wrong public key: the value is rejected, not returned')
  const wrong = new OrbitportClient({
    clientId: 'example-client',
    clientSecret: 'example-secret',
    baseUrl: server.url,
    authUrl: server.url,
    verify: { publicKey: createRestService().publicKey },
  })
  try {
    await wrong.random()
    throw new Error('a bad signature was accepted')
  } catch (err) {
    if (!(err instanceof SignatureError)) throw err
    console.log(`  ${err.code}: ${err.detail}`)
  }

  console.log('\n5. the endpoint is down: fall back to the public beacon (clearly labelled)')
  // The beacon's latest block, verified like any other: signed IPNS head, bytes checked against the CID.
  const beacon = new BeaconClient({ gateways: [emulator.url], name: emulator.beaconName })
  const withBeacon = new OrbitportClient({ clientId: 'example-client', clientSecret: 'example-secret', baseUrl: server.url, authUrl: server.url, beaconFallback: beaconFallbackFrom(beacon), retry: { retries: 1, baseDelayMs: 10 } })
  service.inject500('satellite ground station offline')
  const b = await withBeacon.random()
  console.log(`  ${b.source} block ${b.beacon!.sequence} value #${b.beacon!.index}: ${b.hex}`)
  if (b.beacon!.sequence !== emulator.beacon.head().sequence) throw new Error('the fallback did not use the beacon head')
  console.log(`  because: ${b.fallbackReason!.code}: ${b.fallbackReason!.message}`)
  service.inject500(null)

  console.log(`\nemulator counters: ${JSON.stringify(service.stats())}`)
} finally {
  await emulator.stop()
}
