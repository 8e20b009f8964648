/**
 * Valid proofs for the hardening suites: pure proofs (one block, no record) of every draw kind, and
 * network proofs from the emulator's `draw` (signed IPNS record, chain head → target → after) of
 * every draw kind on an RSA and an Ed25519 beacon, plus one record of a second (Ed25519) beacon.
 */
import { generateKeyPairFromSeed } from '@libp2p/crypto/keys'
import { BeaconClient } from '../../src/beacon/client.js'
import { draw } from '../../src/beacon/draw.js'
import { commit, type CommitOptions } from '../../src/core/commitment.js'
import { drawFromBlock, type Participants } from '../../src/core/draw.js'
import { startBeaconEmulator, type ServedBeaconEmulator } from '../../src/emulator/beacon.js'
import type { VerifyOptions } from '../../src/core/verify.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { ENGINE_ONLY, trustBeacon } from '../helpers/policy.js'

type J = any // eslint-disable-line @typescript-eslint/no-explicit-any

export const PEOPLE = Array.from({ length: 12 }, (_, i) => `entrant-${i} ${['Ada', 'Émile', '李雷', 'Zoë 🎉'][i % 4]}`)
export const WEIGHTED = PEOPLE.slice(0, 6).map((entry, i) => ({ entry, weight: [1, 5, 2, 9, 3, 4][i]! }))

/** The organizer secret of the private (salted) fixtures. */
export const SECRET = Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + 5) & 255)

/** The draw kinds covered, with their participants, disclosure and (for a salted list) secret. */
export const KINDS: { name: string; draw: CommitOptions['draw']; participants: Participants | undefined; disclosure: 'full' | 'winners'; secret?: Uint8Array }[] = [
  { name: 'public pick', draw: { kind: 'pick', count: 3 }, participants: PEOPLE, disclosure: 'full' },
  { name: 'private pick', draw: { kind: 'pick', count: 3 }, participants: PEOPLE, disclosure: 'winners', secret: SECRET },
  { name: 'salted shuffle (full)', draw: { kind: 'shuffle' }, participants: PEOPLE.slice(0, 5), disclosure: 'full', secret: SECRET },
  { name: 'shuffle', draw: { kind: 'shuffle' }, participants: PEOPLE.slice(0, 6), disclosure: 'full' },
  { name: 'range', draw: { kind: 'range', min: -3n, max: 2n ** 70n, count: 3, distinct: true }, participants: undefined, disclosure: 'full' },
  { name: 'weighted', draw: { kind: 'weighted', count: 2 }, participants: WEIGHTED, disclosure: 'full' },
]

/** A named valid proof (plain JSON) and what it carries. */
export interface Fixture {
  readonly name: string
  readonly kind: string
  readonly keyType: 'none' | 'RSA' | 'Ed25519'
  readonly proof: J
  /** The policy a verifier of this proof uses: the emulator's beacon trusted, or unsigned blocks allowed for pure proofs. */
  readonly policy: VerifyOptions
}

const clone = (x: unknown): J => JSON.parse(JSON.stringify(x))

/** Pure proofs of every kind (one block, no record), twice each with different labels. */
export function pureFixtures(): { main: Fixture[]; twins: Map<string, J> } {
  const chain = buildChain(8, 'hardening')
  const main: Fixture[] = []
  const twins = new Map<string, J>()
  for (const k of KINDS) {
    for (const label of ['pure', 'pure twin']) {
      const secret = k.secret === undefined ? {} : { secret: k.secret }
      const { commitment } = commit({ beacon: BEACON_NAME, target: 6, after: { sequence: 4, block: chain[4]!.cid }, participants: k.participants, draw: k.draw, label: `${label} ${k.name}`, ...(k.secret === undefined ? {} : { private: secret as { secret: Uint8Array } }) })
      const proof = clone(drawFromBlock(commitment, k.participants, chain[6]!, { disclosure: k.disclosure, ...secret }))
      if (label === 'pure') main.push({ name: `pure ${k.name}`, kind: k.name, keyType: 'none', proof, policy: ENGINE_ONLY })
      else twins.set(k.name, proof)
    }
  }
  return { main, twins }
}

/** Network proofs of every kind on an RSA and an Ed25519 emulated beacon, and a second beacon's record. */
export async function networkFixtures(): Promise<{ fixtures: Fixture[]; otherBeaconRecord: string; stop: () => Promise<void> }> {
  const emus: ServedBeaconEmulator[] = []
  try {
    const fixtures: Fixture[] = []
    for (const keyType of ['RSA', 'Ed25519'] as const) {
      const emu = await startBeaconEmulator({ keyType, intervalMs: 0, initialBlocks: 3, ...(keyType === 'Ed25519' ? { privateKey: await generateKeyPairFromSeed('Ed25519', new Uint8Array(32).fill(7)) } : {}) })
      emus.push(emu)
      const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName, intervalMs: 1000 })
      const head = await client.latest()
      const after = { sequence: head.block.sequence, block: head.block.cid }
      for (let i = 0; i < 3; i++) await emu.publishNow()
      for (const k of KINDS) {
        const secret = k.secret === undefined ? {} : { secret: k.secret }
        const { commitment } = commit({ beacon: emu.beaconName, target: after.sequence + 2, after, participants: k.participants, draw: k.draw, label: `${keyType} ${k.name}`, ...(k.secret === undefined ? {} : { private: secret as { secret: Uint8Array } }) })
        const proof = clone(await draw(commitment, k.participants, { client, disclosure: k.disclosure, untimestamped: true, ...secret }))
        fixtures.push({ name: `${keyType} ${k.name}`, kind: k.name, keyType, proof, policy: trustBeacon(emu.beaconName) })
      }
    }
    const other = await startBeaconEmulator({ keyType: 'Ed25519', intervalMs: 0, initialBlocks: 1, privateKey: await generateKeyPairFromSeed('Ed25519', new Uint8Array(32).fill(9)) })
    emus.push(other)
    const otherBeaconRecord = Buffer.from(other.beacon.record()).toString('base64')
    return { fixtures, otherBeaconRecord, stop: async () => void (await Promise.all(emus.map((e) => e.stop()))) }
  } catch (err) {
    await Promise.all(emus.map((e) => e.stop()))
    throw err
  }
}
