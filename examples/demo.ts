/**
 * orbitdraw's main job, end to end, in one command:
 *
 *   npm run demo                 # on the in-process emulator (no network, ~6 s)
 *   npm run demo -- --live       # the same flow on the real Orbitport beacon through public gateways
 *   npm run demo -- --out /tmp/proof.json
 *   npm run demo -- --drand      # a mixed draw (protocol v2): the block mixed with a drand round, so
 *                                # the outcome is unbiased unless both Orbitport and drand are dishonest
 *
 * 1. start the emulator (a beacon publishing a signed block every second, a trustless gateway and a
 *    time-stamping authority);
 * 2. commit to a draw among 20 sample participants, 3 ranked winners, on a block a few seconds ahead,
 *    and time-stamp the commitment (RFC 3161) with the emulator's authority;
 * 3. wait for that block with visible progress;
 * 4. draw: fetch the block with the beacon's signed head and the chain down to it, derive the winners;
 * 5. write the proof bundle to a file;
 * 6. verify it offline under the strict policy, trusting this run's emulator beacon and time-stamping root
 *    explicitly, and print every check and the winners;
 * 7. verify it again under the default policy (Orbitport's beacons only): it fails, and says why.
 *
 * `--live` (or ORBITDRAW_LIVE=1) is the one switch: real gateways and the real beacon name instead of
 * the emulator. Everything else is identical.
 */
import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { BeaconClient, commit, describeVerdict, draw, planTarget, serializeProof, timestampCommitment, verify, type VerifyOptions } from '../src/index.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES, parseTrustAnchor } from '../src/timestamp/index.js'
import { ORBITPORT_BEACONS } from '../src/beacon/index.js'
import { startEmulator, type RunningEmulator } from '../src/emulator/index.js'
import { DEFAULT_DRAND_CHAINS, DRAND_QUICKNET, planRound, roundTime } from '../src/drand/index.js'
import { DrandClient } from '../src/index.js'
import { progressLine } from '../src/cli/progress.js'

const { values: args } = parseArgs({ options: { live: { type: 'boolean' }, out: { type: 'string' }, interval: { type: 'string' }, drand: { type: 'boolean' } } })
const mixed = args.drand === true
const live = args.live === true || process.env.ORBITDRAW_LIVE === '1'
const proofPath = resolve(args.out ?? 'demo-proof.json')

const PARTICIPANTS = [
  'Amara Okafor', 'Bruno Silva', 'Chen Wei', 'Dalia Haddad', 'Emil Novak', 'Farah Khan', 'Gustav Berg', 'Hana Sato',
  'Ines Duarte', 'Jonas Weber', 'Kwame Mensah', 'Lena Fischer', 'Mateo Rossi', 'Nadia Petrova', 'Omar Aziz',
  'Priya Nair', 'Quinn Murphy', 'Rosa Jiménez', 'Sven Larsen', 'Tariq Saleh',
]

const step = (n: number, text: string): void => console.log(`\n${n}. ${text}`)
const stderrCtx = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t), env: process.env, signal: new AbortController().signal, isTTY: process.stderr.isTTY === true }

let emu: RunningEmulator | undefined
try {
  let client: BeaconClient
  if (live) {
    step(1, 'using the real Orbitport beacon through public IPFS gateways')
    client = new BeaconClient()
    console.log(`   beacon ${client.name}\n   gateways ${client.gateways.join(', ')}`)
  } else {
    step(1, 'starting the emulator (beacon + trustless gateway on a loopback port)')
    emu = await startEmulator({ beacon: { intervalMs: 1000, initialBlocks: 3 } })
    client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    console.log(`   ${emu.url}  beacon ${emu.beaconName}  (a signed block every second)`)
  }

  step(2, `committing: 3 ranked winners among ${PARTICIPANTS.length} participants`)
  const plan = await planTarget({ client, delaySeconds: live ? 120 : 8 })
  // --drand: the second source. The chain (drand's quicknet live, the emulator's own chain otherwise) and its
  // first round due a margin after the target block's expected time, time to time-stamp the block first.
  const drandChain = live ? DRAND_QUICKNET : emu!.drand.info
  const drand = mixed ? { chain: drandChain.hash, round: planRound(drandChain, plan.estimatedTime.getTime() / 1000, live ? 60 : 2) } : undefined
  const { commitment, cid, json } = commit({ ...plan, participants: PARTICIPANTS, draw: { kind: 'pick', count: 3 }, label: 'orbitdraw demo: three prizes', ...(drand === undefined ? {} : { drand }) })
  // Time-stamp the commitment now, before its target block exists (RFC 3161): on the emulator with its
  // own authority (whose root the organizer trusts knowingly), live with the public authorities.
  const anchors = live ? DEFAULT_TIMESTAMP_AUTHORITIES : [...DEFAULT_TIMESTAMP_AUTHORITIES, parseTrustAnchor(emu!.tsaRootPem)]
  const stamped = await timestampCommitment(cid, { anchors, ...(live ? {} : { authorities: [emu!.tsaUrl] }) })
  console.log(`   latest block seen    ${plan.after.sequence} (${plan.authenticated ? 'signed' : 'unsigned'} head)`)
  console.log(`   target block         ${plan.target}, expected ${plan.estimatedTime.toISOString()}`)
  if (drand !== undefined) console.log(`   drand round          ${drand.round} of ${drandChain.label ?? drandChain.hash}, due ${new Date(roundTime(drandChain, drand.round) * 1000).toISOString()} (void if it never appears)`)
  console.log(`   commitment CID       ${cid}`)
  for (const t of stamped.tokens) console.log(`   time-stamped         by ${t.authorityName} at ${t.time}`)
  console.log(`   (an organizer publishes this CID now, before block ${plan.target} exists: ${JSON.stringify(json).length} bytes of JSON)`)

  step(3, `waiting for block ${plan.target}`)
  const progress = progressLine(stderrCtx)
  let proof
  try {
    const drandOptions = mixed
      ? {
          drand: {
            client: new DrandClient({ chain: drandChain, ...(live ? {} : { urls: [emu!.url] }) }),
            // Block N is time-stamped as soon as it appears, before the round is public.
            timestamp: async (blockCid: string) => (await timestampCommitment(blockCid, { anchors, ...(live ? {} : { authorities: [emu!.tsaUrl] }) })).tokens.map((t) => t.base64),
            onWait: (s: number) => { progress.done(); console.log(`   block time-stamped; waiting for drand round ${drand!.round} (~${s} s)`) },
          },
        }
      : {}
    proof = await draw(commitment, PARTICIPANTS, { client, timestamps: stamped.tokens.map((t) => t.base64), onProgress: (p) => progress.update(p), ...drandOptions })
  } finally {
    progress.done()
  }

  step(4, 'drew from the block, with the beacon\'s signed head and the chain down to it')
  await writeFile(proofPath, serializeProof(proof))
  console.log(`   proof written to ${proofPath} (${proof.chain.blocks.length} blocks, ${proof.chain.ipnsRecord ? 'signed IPNS record' : 'NO signed record'})`)

  step(5, 'verifying the proof offline, as anyone can (orbitdraw verify demo-proof.json)')
  // A verifier's trust anchors are their own, never the proof's. On the live beacon the defaults
  // (Orbitport's beacons, the built-in time-stamping roots) apply; the emulator's beacon and its
  // time-stamping authority are trusted explicitly for this run only. The policy stays strict.
  const policy: VerifyOptions = live ? { now: new Date() } : { now: new Date(), trust: { beacons: [...ORBITPORT_BEACONS, { name: client.name, label: "this run's emulator beacon" }], timestampAuthorities: anchors, ...(mixed ? { drandChains: [...DEFAULT_DRAND_CHAINS, drandChain] } : {}) } }
  if (!live) console.log(`   trusting this run's emulator beacon ${client.name} and its time-stamping root explicitly\n   (the default trusts only Orbitport's beacons and the built-in time-stamping roots)`)
  const result = await verify(proof, policy)
  const verdict = describeVerdict(result)
  for (const c of result.checks) console.log(`   ${c.ok ? (c.relaxedBy ? '~' : '✓') : '✗'} ${c.name.padEnd(22)} ${c.detail}`)
  for (const n of result.notes) console.log(`     note: ${n}`)
  console.log(`\n${verdict.headline}`)
  for (const line of verdict.lines) console.log(`   ${line}`)
  console.log(`   "${commitment.label}"`)
  if (proof.outcome.kind === 'pick') for (const w of proof.outcome.winners) console.log(`   ${w.rank}. ${w.entry}`)
  process.exitCode = result.ok ? 0 : 1

  if (!live) {
    step(6, 'the same proof under the default policy, as a stranger who trusts only Orbitport would see it')
    const strangers = await verify(proof)
    const failed = strangers.checks.filter((c) => !c.ok)
    console.log(`   ${describeVerdict(strangers).headline}`)
    for (const c of failed) console.log(`   ✗ ${c.name}: ${c.detail}`)
    if (strangers.ok) throw new Error('an emulator proof must not verify under the default policy')
    console.log('   (expected: the default trusts only Orbitport\'s beacons and the built-in time-stamping roots, not this emulator)')
  }
  console.log(
    `\nDone: ${result.ok ? 'the proof VERIFIED under the trust this run chose' : 'the proof did NOT verify'}${live ? '' : ' (the emulator trusted explicitly)'}; it is in ${proofPath}.`,
  )
  if (!live) console.log('On the real beacon: npm run demo -- --live. The command line: npx orbitdraw --help (docs/getting-started.md).')
} catch (err) {
  console.error(`\ndemo failed: ${(err as Error).message}`)
  process.exitCode = live ? 3 : 70
} finally {
  await emu?.stop()
}
