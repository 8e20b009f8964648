/**
 * Builds the browser verifier, writes a sample proof next to it, checks that proof in Node with the
 * same `verify`, and prints how to open the page.
 *
 *   npx tsx examples/verify-in-browser/run.ts            # build, write, print, exit
 *   npx tsx examples/verify-in-browser/run.ts --serve    # ... then serve it on 127.0.0.1 until Ctrl-C
 *
 * The sample draw is made entirely in memory: a tiny beacon chain in the real block format, signed
 * by a throwaway Ed25519 IPNS key (so the page shows it as authenticated), a commitment to a future
 * block, and the draw once that block "exists".
 */
import { createReadStream } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { sha256 } from '@noble/hashes/sha2.js'
import { blockCid, encodeBlock, parseBlock, type BeaconBlock } from '../../src/beacon/index.js'
import { bytesToBase64, bytesToHex } from '../../src/core/formats.js'
import { commit, drawFromBlock, serializeProof, verify } from '../../src/core/index.js'
import { createIpnsRecord, generateBeaconKey } from '../../src/emulator/index.js'
import { ipnsNameOfKey } from '../../src/beacon/index.js'
import { buildVerifier, formatReport } from '../../scripts/build-verifier.js'

// 1. the page, built into this example's own folder (site/, not dist/: the package ships dist/)
const built = await buildVerifier({ outDir: join(dirname(fileURLToPath(import.meta.url)), 'site') })
const dir = dirname(built.htmlPath)
console.log(formatReport(built))

// 2. a sample draw: blocks 0..9, committed at block 6 to target block 8, head at block 9
const blocks: BeaconBlock[] = []
for (let seq = 0, previous: string | null = null; seq < 10; seq++) {
  const bytes = encodeBlock({
    previous,
    sequence: seq,
    timestamp: 1_767_225_600 + 60 * seq,
    ctrng: seq === 0 ? [] : [0, 1, 2].map((k) => bytesToHex(sha256(new TextEncoder().encode(`sample:${seq}:${k}`)))),
    ...(seq === 0 ? { metadata: { name: 'sample-beacon', public_key: '', version: '1.0', encoding: 'json', batch_size: 3, message: 'genesis', interval: 60 } } : {}),
  })
  const block = parseBlock(bytes, blockCid(bytes))
  blocks.push(block)
  previous = block.cid
}
const key = await generateBeaconKey('Ed25519')
const participants = ['Amara', 'Bruno', 'Chen', 'Dalia', 'Emil', 'Farah', 'Gustav', 'Hana', 'Ines', 'Jonas', 'Kwame', 'Lena']
const { commitment, cid } = commit({
  beacon: ipnsNameOfKey(key.publicKey),
  target: 8,
  after: { sequence: 6, block: blocks[6]!.cid },
  participants,
  draw: { kind: 'pick', count: 2 },
  label: 'Sample: two concert tickets',
})
const drawn = drawFromBlock(commitment, participants, blocks[8]!)
const carried = blocks.slice(6).reverse() // head (9) down to the block seen at commit time (6)
const record = await createIpnsRecord(key, { value: `/ipfs/${carried[0]!.cid}`, validity: new Date(Date.now() + 365 * 24 * 3600 * 1000), sequence: 1n })
const proof = { ...drawn, chain: { ipnsRecord: bytesToBase64(record), blocks: carried.map((b) => ({ cid: b.cid, bytes: bytesToBase64(b.bytes) })) } }
const proofPath = join(dir, 'sample-proof.json')
await writeFile(proofPath, serializeProof(proof))

// 3. the same verify, in Node. The sample beacon is made up here, so it is trusted explicitly: under
// the default policy (Orbitport's beacons only) this proof fails beacon-trusted, as it should.
const sampleBeacon = { name: commitment.beacon, label: 'sample beacon of this example' }
const result = await verify(proof, { trust: { beacons: [sampleBeacon] }, allowUntimestamped: true }) // the sample carries no time-stamp: a relaxed verdict
if ((await verify(proof)).ok) throw new Error('a made-up beacon must not verify under the default policy')
const winners = proof.outcome.kind === 'pick' ? proof.outcome.winners.map((w) => w.entry).join(', ') : ''
console.log(`\nsample proof ${relative(process.cwd(), proofPath)} (commitment ${cid})`)
console.log(`  Node verify: ${result.ok ? 'verified' : 'FAILED'}${result.authenticated ? ', authenticated' : ''}; winners: ${winners}`)
if (!result.ok || result.verdict !== 'verified-relaxed') {
  console.error(result.checks.filter((c) => !c.ok))
  process.exit(1)
}

// 4. how to open it
console.log(`
Open the verifier:
  - straight from disk (no server):  ${pathToFileURL(built.htmlPath).href}
    then drop ${relative(process.cwd(), proofPath)} on the page, or use "choose a file…": red (beacon-trusted),
    as for any unknown beacon, until you trust the sample beacon under "Advanced: trust settings":
      ${commitment.beacon}
    (then amber: verified under custom trust settings)
  - from a local server, with the proof linked (no npx serve needed):
      npx tsx examples/verify-in-browser/run.ts --serve
    which serves ${relative(process.cwd(), dir)}/ on 127.0.0.1 and prints .../?proof=sample-proof.json&trust-beacon=…
  - or host ${relative(process.cwd(), dir)}/index.html on any static host (it is one file).`)

if (process.argv.includes('--serve')) {
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.json': 'application/json' }
  const files: Record<string, string> = { '/': built.htmlPath, '/index.html': built.htmlPath, '/sample-proof.json': proofPath }
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://localhost').pathname]
    if (file === undefined) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': types[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' })
    createReadStream(file).pipe(res)
  })
  const port = Number(process.env.PORT ?? 0)
  server.listen(port, '127.0.0.1', () => {
    const { port: p } = server.address() as AddressInfo
    console.log(`\nServing on http://127.0.0.1:${p}/?proof=sample-proof.json&trust-beacon=${commitment.beacon}  (Ctrl-C to stop)\n(the page shows the beacon trusted by the link as an amber custom-trust verdict, never the green one)`)
  })
  process.on('SIGINT', () => server.close(() => process.exit(0)))
}
