/**
 * What `import … from 'orbitdraw'` means inside a documentation snippet run by
 * `test/package/doc-snippets.test.ts`: the real package entry, with its three doors to the outside world
 * pointed at the test's emulator (read from `SNIPPET_*` variables), and every proof `draw` makes and every
 * verdict `verify` gives written to `SNIPPET_OUT` for the test to judge.
 *
 * - `new BeaconClient()` reads the emulator's beacon through its gateway (a caller's own options win);
 * - `timestampCommitment(cid)` asks the emulator's time-stamping authority (and trusts its root);
 * - `verify(proof, options)` adds the emulator's beacon and time-stamping root to the caller's trust anchors
 *   (as a verifier of an emulator draw would), and changes nothing else: the policy stays the caller's.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as real from '../../src/index.js'
import { ORBITPORT_BEACONS } from '../../src/beacon/index.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES, parseTrustAnchor } from '../../src/timestamp/index.js'

export * from '../../src/index.js'

function env(name: string): string {
  const v = process.env[name]
  if (v === undefined || v === '') throw new Error(`doc-snippet shim: ${name} is not set`)
  return v
}

const anchor = parseTrustAnchor(readFileSync(env('SNIPPET_TSA_ROOT'), 'utf8'))
let recorded = 0
function record(kind: string, value: unknown): void {
  mkdirSync(env('SNIPPET_OUT'), { recursive: true })
  writeFileSync(join(env('SNIPPET_OUT'), `${String(recorded++).padStart(2, '0')}.${kind}.json`), kind === 'proof' ? real.serializeProof(value as real.Proof) : JSON.stringify(value))
}

export class BeaconClient extends real.BeaconClient {
  constructor(options: ConstructorParameters<typeof real.BeaconClient>[0] = {}) {
    super({ gateways: [env('SNIPPET_GATEWAY')], name: env('SNIPPET_BEACON'), ...options })
  }
}

export function timestampCommitment(cid: string, options: real.TimestampOptions = {}): Promise<real.TimestampResult> {
  return real.timestampCommitment(cid, { authorities: [env('SNIPPET_TSA_URL')], anchors: [...DEFAULT_TIMESTAMP_AUTHORITIES, anchor], ...options })
}

export async function draw(...args: Parameters<typeof real.draw>): Promise<real.Proof> {
  const proof = await real.draw(...args)
  record('proof', proof)
  return proof
}

export async function verify(proof: unknown, options: real.NodeVerifyOptions = {}): ReturnType<typeof real.verify> {
  const trust = options.trust ?? {}
  const result = await real.verify(proof, {
    ...options,
    trust: {
      ...trust,
      beacons: [...(trust.beacons ?? ORBITPORT_BEACONS), { name: env('SNIPPET_BEACON'), label: 'the test emulator beacon' }],
      timestampAuthorities: [...(trust.timestampAuthorities ?? DEFAULT_TIMESTAMP_AUTHORITIES), anchor],
    },
  })
  record('verdict', { verdict: result.verdict, failed: result.checks.filter((c) => !c.ok).map((c) => c.name) })
  return result
}
