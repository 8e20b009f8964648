import { generateKeyPair } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { createIPNSRecord, createIPNSRecordWithExpiration, marshalIPNSRecord } from 'ipns'
import { CID } from 'multiformats/cid'
import { beforeAll, describe, expect, it } from 'vitest'
import { blockCid, encodeBlock, parseBlock, type BeaconBlock } from '../../src/core/block.js'
import { checkChain, linkProblem, type ChainCheckInput } from '../../src/core/chain.js'
import { ipnsNameOfKey } from '../../src/core/ipns/key-format.js'

function makeChain(n: number, salt = 'a'): BeaconBlock[] {
  const out: BeaconBlock[] = []
  for (let s = 0; s < n; s++) {
    const prev = out[s - 1]
    const bytes = encodeBlock({
      previous: prev?.cid ?? null,
      sequence: s,
      timestamp: 1_700_000_000 + 60 * s,
      ctrng: s === 0 ? [] : [salt.repeat(64).slice(0, 64).replace(/[^0-9a-f]/g, '0'), (s % 16).toString(16).repeat(64), 'f'.repeat(64)],
      ...(s === 0 ? { metadata: { name: 't', version: '1.0' } } : {}),
    })
    out.push(parseBlock(bytes, blockCid(bytes)))
  }
  return out
}

let ed: PrivateKey
let name: string
const chain = makeChain(12)
const newestFirst = (from: number, to: number) => chain.slice(to, from + 1).reverse()

async function recordFor(block: BeaconBlock, key: PrivateKey = ed, seq = 5n): Promise<Uint8Array> {
  return marshalIPNSRecord(await createIPNSRecord(key, CID.parse(block.cid), seq, 3_600_000))
}

beforeAll(async () => {
  ed = await generateKeyPair('Ed25519')
  name = ipnsNameOfKey(ed.publicKey)
})

const byName = (r: { checks: { name: string; ok: boolean; detail: string }[] }) => Object.fromEntries(r.checks.map((c) => [c.name, c]))

describe('checkChain', () => {
  it('head..after with a valid record: every check passes, authenticated', async () => {
    const blocks = newestFirst(11, 5)
    const input: ChainCheckInput = { beacon: name, target: 8, after: { sequence: 5, block: chain[5]!.cid }, blocks, ipnsRecord: await recordFor(chain[11]!) }
    const r = await checkChain(input)
    expect(r.checks.map((c) => c.name)).toEqual(['chain-links', 'chain-target', 'after-block', 'ipns-record-signature', 'ipns-record-name', 'ipns-record-value'])
    expect(r.checks.every((c) => c.ok)).toBe(true)
    expect(r.authenticated).toBe(true)
    expect(byName(r)['chain-target']!.detail).toMatch(/3 block\(s\) below the head/)
  })

  it('target only, no record: integrity only, after not carried (ok, said so)', async () => {
    const r = await checkChain({ beacon: name, target: 8, after: { sequence: 5, block: chain[5]!.cid }, blocks: [chain[8]!] })
    expect(r.checks.map((c) => c.name)).toEqual(['chain-links', 'chain-target', 'after-block'])
    expect(r.checks.every((c) => c.ok)).toBe(true)
    expect(r.authenticated).toBe(false)
    expect(byName(r)['after-block']).toMatchObject({ ok: true, notChecked: true })
    expect(byName(r)['after-block']!.detail).toMatch(/^not checked: the chain does not carry block 5/)
    expect(r.notes.join(' ')).toMatch(/integrity/)
  })

  it('a missing block in the middle breaks chain-links (and so chain-target)', async () => {
    const blocks = [chain[11]!, chain[10]!, chain[8]!]
    const r = await checkChain({ beacon: name, target: 8, after: { sequence: 5, block: chain[5]!.cid }, blocks, ipnsRecord: await recordFor(chain[11]!) })
    const c = byName(r)
    expect(c['chain-links']!.ok).toBe(false)
    expect(c['chain-links']!.detail).toMatch(/blocks\[1\] \(sequence 10\) links to previous/)
    expect(c['chain-target']!.ok).toBe(false)
    expect(r.authenticated).toBe(false)
  })

  it('a block from another chain at the right position breaks chain-links', async () => {
    const other = makeChain(12, 'b')
    const blocks = [chain[11]!, chain[10]!, other[9]!, other[8]!]
    const r = await checkChain({ beacon: name, target: 8, after: { sequence: 5, block: chain[5]!.cid }, blocks })
    expect(byName(r)['chain-links']!.ok).toBe(false)
  })

  it('a correct link to a block with the wrong sequence is reported', () => {
    const bytes = encodeBlock({ previous: chain[3]!.cid, sequence: 7, timestamp: 1, ctrng: ['0'.repeat(64)] })
    const odd = parseBlock(bytes, blockCid(bytes))
    expect(linkProblem(odd, chain[3]!)).toMatch(/expected 6/)
    expect(linkProblem(chain[4]!, chain[3]!)).toBeUndefined()
  })

  it('the chain stops above the target / the head is below the target', async () => {
    const after = { sequence: 2, block: chain[2]!.cid }
    const r1 = await checkChain({ beacon: name, target: 6, after, blocks: newestFirst(11, 8) })
    expect(byName(r1)['chain-target']!.ok).toBe(false)
    expect(byName(r1)['chain-target']!.detail).toMatch(/stops at sequence 8 and never reaches the committed target 6/)
    const r2 = await checkChain({ beacon: name, target: 11, after, blocks: newestFirst(9, 7) })
    expect(byName(r2)['chain-target']!.detail).toMatch(/before the committed target 11/)
  })

  it('after-block: a different CID at after.sequence fails; after >= target fails', async () => {
    const blocks = newestFirst(9, 4)
    const r = await checkChain({ beacon: name, target: 7, after: { sequence: 4, block: chain[3]!.cid }, blocks })
    expect(byName(r)['after-block']!.ok).toBe(false)
    expect(byName(r)['after-block']!.detail).toMatch(/commitment says the latest block seen was/)
    const r2 = await checkChain({ beacon: name, target: 7, after: { sequence: 7, block: chain[7]!.cid }, blocks })
    expect(byName(r2)['after-block']!.ok).toBe(false)
  })

  it('extra blocks below what is needed are a note, not a failure', async () => {
    const r = await checkChain({ beacon: name, target: 8, after: { sequence: 6, block: chain[6]!.cid }, blocks: newestFirst(9, 3) })
    expect(r.checks.every((c) => c.ok)).toBe(true)
    expect(r.notes.join(' ')).toMatch(/3 block\(s\) below sequence 6/)
  })

  it('record value is not blocks[0]: ipns-record-value fails', async () => {
    const r = await checkChain({ beacon: name, target: 8, after: { sequence: 5, block: chain[5]!.cid }, blocks: newestFirst(10, 8), ipnsRecord: await recordFor(chain[11]!) })
    const c = byName(r)
    expect(c['ipns-record-signature']!.ok).toBe(true)
    expect(c['ipns-record-name']!.ok).toBe(true)
    expect(c['ipns-record-value']!.ok).toBe(false)
    expect(r.authenticated).toBe(false)
  })

  it('record by another Ed25519 key (no pubKey): the name key does not verify the signature', async () => {
    const other = await generateKeyPair('Ed25519')
    const r = await checkChain({ beacon: name, target: 8, after: { sequence: 5, block: chain[5]!.cid }, blocks: newestFirst(11, 8), ipnsRecord: await recordFor(chain[11]!, other) })
    expect(byName(r)['ipns-record-signature']!.ok).toBe(false)
    expect(r.authenticated).toBe(false)
  })

  it('record by another RSA key (pubKey embedded): signature ok, name fails', async () => {
    const rsa = await generateKeyPair('RSA', 2048)
    const rsaName = ipnsNameOfKey((await generateKeyPair('RSA', 2048)).publicKey)
    const r = await checkChain({ beacon: rsaName, target: 8, after: { sequence: 5, block: chain[5]!.cid }, blocks: newestFirst(11, 8), ipnsRecord: await recordFor(chain[11]!, rsa) })
    const c = byName(r)
    expect(c['ipns-record-signature']!.ok).toBe(true)
    expect(c['ipns-record-name']!.ok).toBe(false)
    expect(c['ipns-record-name']!.detail).toMatch(/not to the committed name/)
  })

  it('an expired record verifies; expiry is in the detail and the notes', async () => {
    const rec = marshalIPNSRecord(await createIPNSRecordWithExpiration(ed, CID.parse(chain[11]!.cid), 3n, '2021-01-01T00:00:00.000000000Z'))
    const r = await checkChain({ beacon: name, target: 8, after: { sequence: 5, block: chain[5]!.cid }, blocks: newestFirst(11, 8), ipnsRecord: rec, now: new Date('2026-01-01T00:00:00Z') })
    expect(r.authenticated).toBe(true)
    expect(byName(r)['ipns-record-signature']!.detail).toMatch(/expired at 2021-01-01T00:00:00.000000000Z.*does not affect a historical proof/)
    expect(r.notes.join(' ')).toMatch(/expired/)
  })

  it('a garbage record fails the three record checks; an empty chain fails links and target', async () => {
    const r = await checkChain({ beacon: name, target: 8, after: { sequence: 5, block: chain[5]!.cid }, blocks: [chain[8]!], ipnsRecord: new Uint8Array([1, 2, 3]) })
    expect(r.checks.slice(3).map((c) => c.ok)).toEqual([false, false, false])
    const e = await checkChain({ beacon: name, target: 8, after: { sequence: 5, block: chain[5]!.cid }, blocks: [] })
    expect(byName(e)['chain-links']!.ok).toBe(false)
    expect(byName(e)['chain-target']!.ok).toBe(false)
  })

  it('a genesis block in the middle of the chain breaks links', async () => {
    const r = await checkChain({ beacon: name, target: 0, after: { sequence: 0, block: chain[0]!.cid }, blocks: [chain[0]!, chain[0]!] })
    expect(byName(r)['chain-links']!.ok).toBe(false)
  })
})
