/**
 * Private (salted) lists: salt derivation vectors, the salted commitment and proofs, what a private
 * proof does NOT reveal (dictionary attack, distinguishing game), and distinct private winners.
 */
import { createHmac } from 'node:crypto'
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/core/bytes.js'
import { commit, parseCommitment, type CommitOptions } from '../../src/core/commitment.js'
import { computeOutcome } from '../../src/core/outcome.js'
import { deriveSeed } from '../../src/core/seed.js'
import { drawFromBlock, prepareDraw } from '../../src/core/draw.js'
import { encodeSaltedLeaf, participantsRoot, participantsTree } from '../../src/core/participants.js'
import { leafHash, nodeHash, merkleRoot } from '../../src/core/merkle.js'
import { leafSalt, OrganizerSecret, parseSecretFile, serializeSecretFile } from '../../src/core/secret.js'
import { verify } from '../../src/core/verify.js'
import { type Proof } from '../../src/core/proof.js'
import { describeCommitment } from '../../src/core/commitment.js'
import { MerkleTree } from '../../src/core/merkle.js'
import { commit as nodeCommit } from '../../src/commit.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { ENGINE_ONLY } from '../helpers/policy.js'
import { codeOf } from '../helpers/thrown.js'

const SECRET_A = Uint8Array.from({ length: 32 }, (_, i) => i + 1)
const SECRET_B = Uint8Array.from({ length: 32 }, (_, i) => 0xff - i)
const CHAIN = buildChain(12, 'private')
const base = (participants: CommitOptions['participants'], draw: CommitOptions['draw'] = { kind: 'pick', count: 8 }): CommitOptions => ({
  beacon: BEACON_NAME,
  target: 10,
  after: { sequence: 7, block: CHAIN[7]!.cid },
  participants,
  draw,
  label: 'private test',
})
const failed = (r: { checks: readonly { name: string; ok: boolean }[] }): string[] => r.checks.filter((c) => !c.ok).map((c) => c.name)
const names = (r: { checks: readonly { name: string }[] }): string[] => r.checks.map((c) => c.name)

/** The independent definition: HMAC-SHA256(secret, "orbitdraw/v1/leaf-salt" || 0x00 || u64be(i)) with node:crypto. */
function refSalt(secret: Uint8Array, i: number): string {
  const msg = Buffer.alloc(23 + 8)
  msg.write('orbitdraw/v1/leaf-salt', 0, 'ascii')
  msg.writeBigUInt64BE(BigInt(i), 23)
  return createHmac('sha256', secret).update(msg).digest('hex')
}

describe('leaf salts', () => {
  it('match HMAC-SHA256(secret, domain || 0x00 || u64be(i)) computed by node:crypto', () => {
    for (const i of [0, 1, 2, 255, 256, 65_535, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER]) {
      expect(bytesToHex(leafSalt(SECRET_A, i)), `index ${i}`).toBe(refSalt(SECRET_A, i))
      expect(bytesToHex(leafSalt(SECRET_B, i)), `index ${i}`).toBe(refSalt(SECRET_B, i))
    }
  })

  it('fixed vectors (docs/spec.md)', () => {
    expect(bytesToHex(leafSalt(SECRET_A, 0))).toBe(refSalt(SECRET_A, 0))
    expect(bytesToHex(leafSalt(SECRET_A, 0))).toMatchInlineSnapshot(`"32db04ba25bba9c4033424e5dc117923597b83fa736c7aef12ff4cd106f4547a"`)
    expect(bytesToHex(leafSalt(SECRET_A, 1))).toMatchInlineSnapshot(`"179c7be0c81a897bb710a601911375064af0cb875d46c1988c49d6b561dae264"`)
    expect(bytesToHex(leafSalt(SECRET_A, 2 ** 32))).toMatchInlineSnapshot(`"d86a1b17dce6eba68f4393fe6a66133ae2405884e4d395cb6c29b3e8ba62ed87"`)
  })

  it('the bulk (tree) path and the single-salt path agree, for unweighted and weighted lists', () => {
    const list = Array.from({ length: 37 }, (_, i) => `p-${i}`)
    const tree = participantsTree(list, { secret: SECRET_A })
    const leaves = list.map((e, i) => encodeSaltedLeaf(leafSalt(SECRET_A, i), e))
    expect(bytesToHex(tree.root())).toBe(bytesToHex(merkleRoot(leaves)))
    expect(bytesToHex(participantsRoot(list, { secret: SECRET_A }))).toBe(bytesToHex(merkleRoot(leaves)))
    expect(bytesToHex(participantsRoot(list, { salts: list.map((_, i) => leafSalt(SECRET_A, i)) }))).toBe(bytesToHex(merkleRoot(leaves)))
    for (let i = 0; i < list.length; i++) expect(bytesToHex(tree.leafData(i))).toBe(bytesToHex(leaves[i]!))
    const w = list.map((entry, i) => ({ entry, weight: i * 1000 + 1 }))
    const wl = w.map((e, i) => encodeSaltedLeaf(leafSalt(SECRET_A, i), e.entry, e.weight))
    expect(bytesToHex(participantsRoot(w, { secret: SECRET_A }))).toBe(bytesToHex(merkleRoot(wl)))
    expect(bytesToHex(wl[1]!)).toBe(refSalt(SECRET_A, 1) + '00000000000003e9' + Buffer.from('p-1').toString('hex'))
  })

  it('a salted root differs from the unsalted one and from another secret\'s', () => {
    const list = ['alice', 'bob', 'carol']
    const roots = new Set([participantsRoot(list), participantsRoot(list, { secret: SECRET_A }), participantsRoot(list, { secret: SECRET_B })].map(bytesToHex))
    expect(roots.size).toBe(3)
  })

  it('secrets must be 32 non-zero bytes; salts 32 bytes, one per entry', () => {
    expect(codeOf(() => OrganizerSecret.fromBytes(new Uint8Array(31)))).toBe('INVALID_SECRET')
    expect(codeOf(() => OrganizerSecret.fromBytes(new Uint8Array(32)))).toBe('INVALID_SECRET')
    expect(codeOf(() => participantsRoot(['a', 'b'], { salts: [new Uint8Array(32)] }))).toBe('SALTS_MISMATCH')
    expect(codeOf(() => participantsRoot(['a'], { salts: [new Uint8Array(31)] }))).toBe('INVALID_SALT')
    expect(codeOf(() => participantsTree(['a']).salt(0))).toBe('NOT_SALTED')
  })

  it('the secret never prints, logs or serializes by accident', () => {
    const s = OrganizerSecret.fromBytes(SECRET_A)
    const hex = bytesToHex(SECRET_A)
    const result = commit({ ...base(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']), private: { secret: s } })
    for (const text of [String(s), JSON.stringify(s), inspect(s), JSON.stringify(result), inspect(result, { depth: 10 }), JSON.stringify(result.json)]) {
      expect(text).not.toContain(hex)
    }
    expect(s.exportHex()).toBe(hex)
  })

  it('secret file: round trip; strict; errors never quote the secret', () => {
    const s = OrganizerSecret.fromBytes(SECRET_A)
    const text = serializeSecretFile(s, 'baguqeeraexample')
    const back = parseSecretFile(text)
    expect(back.commitment).toBe('baguqeeraexample')
    expect(back.secret.exportHex()).toBe(s.exportHex())
    const hex = s.exportHex()
    const bad = [
      text.replace(hex, hex.slice(0, 63)),
      text.replace(hex, hex.toUpperCase()),
      text.replace('"type"', '"extra": 1, "type"'),
      text.replace(hex, hex + '"  ,"secret": "' + hex),
      text.slice(0, -5),
      text.replace(hex, '0'.repeat(64)),
    ]
    for (const b of bad) {
      let err: Error | undefined
      try {
        parseSecretFile(b)
      } catch (e) {
        err = e as Error
      }
      expect(err, b).toBeDefined()
      expect(String(err) + JSON.stringify(err) + (err as Error).stack).not.toContain(hex.slice(0, 20))
    }
  })

  it('the Node commit generates a fresh secret with private: true', () => {
    const list = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
    const one = nodeCommit({ ...base(list), private: true })
    const two = nodeCommit({ ...base(list), private: true })
    expect(one.secret).toBeInstanceOf(OrganizerSecret)
    expect(one.secret!.exportHex()).not.toBe(two.secret!.exportHex())
    expect(one.cid).not.toBe(two.cid)
    expect(one.commitment.participants?.salted).toBe(true)
  })
})

describe('salted commitment', () => {
  const list = Array.from({ length: 20 }, (_, i) => `member-${i}`)
  it('states salted: true in its DAG-JSON, and only then', () => {
    const pub = commit(base(list))
    const priv = commit({ ...base(list), private: { secret: SECRET_A } })
    expect(new TextDecoder().decode(priv.bytes)).toContain('"participants":{"count":20,"root":{"/":{"bytes":"')
    expect(new TextDecoder().decode(priv.bytes)).toMatch(/"salted":true\}/)
    expect(new TextDecoder().decode(pub.bytes)).not.toContain('salted')
    expect(parseCommitment(priv.json)).toEqual(priv.commitment)
    expect(pub.secret).toBeUndefined()
    expect(priv.secret?.exportHex()).toBe(bytesToHex(SECRET_A))
  })
  it('refuses salted: false or any other value (one encoding per meaning)', () => {
    const priv = commit({ ...base(list), private: { secret: SECRET_A } })
    for (const v of [false, 1, 'true', null]) {
      const j = JSON.parse(JSON.stringify(priv.json))
      j.participants.salted = v
      expect(codeOf(() => parseCommitment(j)), String(v)).toBe('INVALID_FIELD')
    }
    expect(codeOf(() => describeCommitment({ ...priv.commitment, participants: { ...priv.commitment.participants!, salted: false as unknown as true } }))).toBeUndefined()
  })
  it('a range draw cannot be private', () => {
    expect(codeOf(() => commit({ ...base(undefined, { kind: 'range', min: 1n, max: 6n, count: 1, distinct: false }), private: { secret: SECRET_A } }))).toBe('UNEXPECTED_SECRET')
  })
})

describe('private proofs', () => {
  const list = Array.from({ length: 48 }, (_, i) => `member-${String(i * 7 + 3).padStart(3, '0')}`)
  const priv = commit({ ...base(list), private: { secret: SECRET_A } })

  it('verify: a salted winners-only proof passes every check, each named once', async () => {
    const proof = drawFromBlock(priv.commitment, list, CHAIN[10]!, { disclosure: 'winners', secret: SECRET_A })
    expect(proof.participants?.disclosure).toBe('winners')
    const rev = proof.participants?.disclosure === 'winners' ? proof.participants.revealed : []
    for (const r of rev) expect(r.salt).toBe(refSalt(SECRET_A, r.index))
    const res = await verify(JSON.parse(JSON.stringify(proof)), ENGINE_ONLY)
    expect(failed(res)).toEqual([])
    expect(names(res)).toContain('distinct-winners')
    expect(names(res)).toContain('revealed-winners')
    expect(new Set(names(res)).size).toBe(names(res).length)
    expect(JSON.stringify(proof)).not.toContain(bytesToHex(SECRET_A))
  })

  it('a salted commitment is drawn winners-only by default; a full disclosure is asked for by name', () => {
    const byDefault = drawFromBlock(priv.commitment, list, CHAIN[10]!, { secret: SECRET_A })
    expect(byDefault).toEqual(drawFromBlock(priv.commitment, list, CHAIN[10]!, { disclosure: 'winners', secret: SECRET_A }))
    expect(JSON.stringify(byDefault.participants)).not.toContain(list.find((e) => !JSON.stringify(byDefault.outcome).includes(e)))
    expect(prepareDraw(priv.commitment, list, { secret: SECRET_A }).disclosure).toBe('winners')
    expect(prepareDraw(priv.commitment, list, { secret: SECRET_A, disclosure: 'full' }).disclosure).toBe('full')
    expect(prepareDraw(commit(base(list)).commitment, list).disclosure).toBe('full')
    // A private shuffle cannot be winners-only: its full disclosure must be said.
    const shuffle = commit({ ...base(list, { kind: 'shuffle' }), private: { secret: SECRET_A } }).commitment
    expect(codeOf(() => prepareDraw(shuffle, list, { secret: SECRET_A }))).toBe('FULL_DISCLOSURE_REQUIRED')
    expect(prepareDraw(shuffle, list, { secret: SECRET_A, disclosure: 'full' }).disclosure).toBe('full')
  })

  it('draw refuses a winners-only proof of an unsalted list, a missing, unexpected or wrong secret', () => {
    const pub = commit(base(list))
    expect(codeOf(() => drawFromBlock(pub.commitment, list, CHAIN[10]!, { disclosure: 'winners' }))).toBe('PRIVATE_NEEDS_SALTED_LIST')
    expect(codeOf(() => drawFromBlock(pub.commitment, list, CHAIN[10]!, { secret: SECRET_A }))).toBe('UNEXPECTED_SECRET')
    expect(codeOf(() => drawFromBlock(priv.commitment, list, CHAIN[10]!, { disclosure: 'winners' }))).toBe('MISSING_SECRET')
    expect(codeOf(() => drawFromBlock(priv.commitment, list, CHAIN[10]!, { disclosure: 'winners', secret: SECRET_B }))).toBe('PARTICIPANTS_MISMATCH')
  })

  it('verify fails `participants` for a winners-only proof of an unsalted list (as an old proof would carry it)', async () => {
    const pub = commit(base(list))
    const full = drawFromBlock(pub.commitment, list, CHAIN[10]!)
    const tree = participantsTree(list)
    const winners = full.outcome.kind === 'pick' ? full.outcome.winners : []
    const forged: Proof = {
      ...full,
      participants: { disclosure: 'winners', revealed: winners.map((w) => ({ index: w.index, entry: w.entry, salt: '00'.repeat(32), path: tree.inclusionProof(w.index).map(bytesToHex) })) },
    }
    const res = await verify(JSON.parse(JSON.stringify(forged)), ENGINE_ONLY)
    // outcome fails too: it cannot name the winners without a valid participants section; revealed-winners
    // is then reported "not checked", never dropped (docs/spec.md, rows 16–17)
    expect(failed(res)).toEqual(['participants', 'outcome', 'revealed-winners'])
    expect(res.checks.find((c) => c.name === 'revealed-winners')?.detail).toMatch(/^not checked: the outcome was not recomputed/)
    expect(res.checks.find((c) => c.name === 'participants')?.detail).toMatch(/salted/)
  })

  it('a full disclosure of a salted list carries every salt (never the secret) and verifies; without the salts it fails', async () => {
    const shuffle = commit({ ...base(list, { kind: 'shuffle' }), private: { secret: SECRET_A } })
    const proof = drawFromBlock(shuffle.commitment, list, CHAIN[10]!, { secret: SECRET_A, disclosure: 'full' })
    expect(proof.participants?.disclosure === 'full' && proof.participants.salts?.length).toBe(list.length)
    expect(failed(await verify(JSON.parse(JSON.stringify(proof)), ENGINE_ONLY))).toEqual([])
    const j = JSON.parse(JSON.stringify(proof))
    delete j.participants.salts
    expect(failed(await verify(j, ENGINE_ONLY))).toContain('participants')
    const k = JSON.parse(JSON.stringify(proof))
    k.participants.salts[3] = k.participants.salts[4]
    expect(failed(await verify(k, ENGINE_ONLY))).toContain('participants')
    const pubProof = JSON.parse(JSON.stringify(drawFromBlock(commit(base(list, { kind: 'shuffle' })).commitment, list, CHAIN[10]!)))
    pubProof.participants.salts = list.map(() => '11'.repeat(32))
    expect(failed(await verify(pubProof, ENGINE_ONLY))).toContain('participants')
  })

  it('a weighted salted list: full disclosure with salts verifies', async () => {
    const w = list.slice(0, 12).map((entry, i) => ({ entry, weight: i + 1 }))
    const c = commit({ ...base(w, { kind: 'weighted', count: 3 }), private: { secret: SECRET_B } })
    const proof = drawFromBlock(c.commitment, w, CHAIN[10]!, { secret: SECRET_B, disclosure: 'full' })
    expect(failed(await verify(JSON.parse(JSON.stringify(proof)), ENGINE_ONLY))).toEqual([])
  })

  it('a wrong salt or a salt moved to another winner fails `participants`', async () => {
    const proof = JSON.parse(JSON.stringify(drawFromBlock(priv.commitment, list, CHAIN[10]!, { disclosure: 'winners', secret: SECRET_A })))
    const a = structuredClone(proof)
    a.participants.revealed[0].salt = refSalt(SECRET_B, a.participants.revealed[0].index)
    expect(failed(await verify(a, ENGINE_ONLY))).toEqual(['participants'])
    const b = structuredClone(proof)
    b.participants.revealed[0].salt = b.participants.revealed[1].salt
    expect(failed(await verify(b, ENGINE_ONLY))).toEqual(['participants'])
  })
})

describe('distinct private winners', () => {
  it('the same index revealed twice fails `distinct-winners` (and `revealed-winners`)', async () => {
    const list = Array.from({ length: 30 }, (_, i) => `voter-${i}`)
    const c = commit({ ...base(list, { kind: 'pick', count: 3 }), private: { secret: SECRET_A } })
    const proof = JSON.parse(JSON.stringify(drawFromBlock(c.commitment, list, CHAIN[10]!, { disclosure: 'winners', secret: SECRET_A })))
    proof.participants.revealed[1] = proof.participants.revealed[0]
    const res = await verify(proof, ENGINE_ONLY)
    expect(failed(res)).toContain('distinct-winners')
    expect(failed(res)).toContain('revealed-winners')
    expect(new Set(names(res)).size).toBe(names(res).length)
  })

  it('the same entry at two committed indices, both drawn, fails `distinct-winners` only', async () => {
    // An organizer who commits one person twice (to double their chance) under salted leaves: the
    // verifier cannot see the list, but both copies winning reveals it. Built by hand: commit() refuses duplicates.
    const entries = ['Ada', 'Grace', 'Ada']
    const secret = OrganizerSecret.fromBytes(SECRET_A)
    const leaves = entries.map((e, i) => encodeSaltedLeaf(secret.saltOf(i), e))
    const tree = MerkleTree.fromLeaves(leaves)
    const commitment = { ...commit({ ...base(['x', 'y', 'z'], { kind: 'pick', count: 3 }), private: { secret } }).commitment }
    const forgedCommitment = { ...commitment, participants: { count: 3, root: bytesToHex(tree.root()), salted: true as const } }
    const { cid, json } = describeCommitment(forgedCommitment)
    const seed = deriveSeed(cid, { cid: CHAIN[10]!.cid, values: CHAIN[10]!.values } as never)
    const outcome = computeOutcome(seed, forgedCommitment.draw, 3)
    const indices = outcome.kind === 'pick' ? outcome.indices : []
    const proof: Proof = {
      type: 'orbitdraw-proof',
      version: 1,
      commitment: json,
      commitmentCid: cid,
      participants: { disclosure: 'winners', revealed: indices.map((i) => ({ index: i, entry: entries[i]!, salt: bytesToHex(secret.saltOf(i)), path: tree.inclusionProof(i).map(bytesToHex) })) },
      chain: { blocks: [{ cid: CHAIN[10]!.cid, bytes: Buffer.from(CHAIN[10]!.bytes).toString('base64') }] },
      seed: bytesToHex(seed),
      outcome: { kind: 'pick', winners: indices.map((i, r) => ({ rank: r + 1, index: i, entry: entries[i]! })) },
    }
    const res = await verify(JSON.parse(JSON.stringify(proof)), ENGINE_ONLY)
    expect(failed(res)).toEqual(['distinct-winners'])
    expect(res.checks.find((c) => c.name === 'distinct-winners')?.detail).toMatch(/"Ada"/)
  })
})

describe('what a private proof reveals about the other entries', () => {
  // The entry format of the sortition example: a dictionary of every possible entry is small.
  const DICTIONARY = Array.from({ length: 1000 }, (_, i) => `citizen-${String(i).padStart(3, '0')}`)
  const pool = DICTIONARY.filter((_, i) => (i * 37) % 11 === 0).slice(0, 48)
  const enc = new TextEncoder()

  /** The attack: hash every dictionary entry as an unsalted leaf and look for it among the proof's path hashes. */
  function dictionaryAttack(proof: Proof): Set<string> {
    const byHash = new Map(DICTIONARY.map((e) => [bytesToHex(leafHash(enc.encode(e))), e]))
    const found = new Set<string>()
    if (proof.participants?.disclosure !== 'winners') return found
    for (const r of proof.participants.revealed) for (const h of r.path) if (byHash.has(h)) found.add(byHash.get(h)!)
    // Level 1 siblings: every pair of dictionary entries would be 10^6 hashes; instead, pairs of
    // near neighbours in dictionary order (the attacker guesses the list is sorted, as it is here).
    const leaf = DICTIONARY.map((e) => leafHash(enc.encode(e)))
    const pairs = new Map<string, [string, string]>()
    for (let a = 0; a < DICTIONARY.length; a++) {
      for (let b = a + 1; b < Math.min(DICTIONARY.length, a + 40); b++) pairs.set(bytesToHex(nodeHash(leaf[a]!, leaf[b]!)), [DICTIONARY[a]!, DICTIONARY[b]!])
    }
    for (const r of proof.participants.revealed) {
      for (const h of r.path) {
        const pair = pairs.get(h)
        if (pair !== undefined) pair.forEach((e) => found.add(e))
      }
    }
    const winners = new Set(proof.participants.revealed.map((r) => r.entry))
    return new Set([...found].filter((e) => !winners.has(e)))
  }

  it('recovers unselected entries from an unsalted paths (the old format), and none from a salted proof', () => {
    // The old, unsalted winners-only proof, built from the unsalted tree as v1 drafts did.
    const pub = commit(base(pool))
    const full = drawFromBlock(pub.commitment, pool, CHAIN[10]!)
    const tree = participantsTree(pool)
    const winners = full.outcome.kind === 'pick' ? full.outcome.winners : []
    const unsalted: Proof = { ...full, participants: { disclosure: 'winners', revealed: winners.map((w) => ({ index: w.index, entry: w.entry, salt: '00'.repeat(32), path: tree.inclusionProof(w.index).map(bytesToHex) })) } }
    const leaked = dictionaryAttack(unsalted)
    expect(leaked.size).toBeGreaterThanOrEqual(8)
    for (const e of leaked) expect(pool).toContain(e)

    const priv = commit({ ...base(pool), private: { secret: SECRET_A } })
    const salted = drawFromBlock(priv.commitment, pool, CHAIN[10]!, { disclosure: 'winners', secret: SECRET_A })
    expect(dictionaryAttack(salted).size).toBe(0)
  })

  it('distinguishing game: two lists that differ only in unselected entries; the paths match neither candidate without the secret', () => {
    const priv = commit({ ...base(pool), private: { secret: SECRET_A } })
    const proof = drawFromBlock(priv.commitment, pool, CHAIN[10]!, { disclosure: 'winners', secret: SECRET_A })
    if (proof.participants?.disclosure !== 'winners') throw new Error('expected a private proof')
    const winnerIdx = new Set(proof.participants.revealed.map((r) => r.index))
    // The alternative list: every unselected entry replaced by another dictionary entry.
    const unused = DICTIONARY.filter((e) => !pool.includes(e))
    const other = pool.map((e, i) => (winnerIdx.has(i) ? e : unused[i]!))
    // A distinguisher that knows both candidate lists recomputes every node hash of each candidate tree
    // (unsalted, and salted with secrets it can guess) and looks for the proof's path hashes.
    const nodesOf = (list: string[], options?: { secret?: Uint8Array }): Set<string> => {
      const t = participantsTree(list, options)
      const out = new Set<string>()
      for (let i = 0; i < list.length; i++) for (const h of t.inclusionProof(i)) out.add(bytesToHex(h))
      return out
    }
    const guesses = [undefined, { secret: SECRET_B }, { secret: Uint8Array.from({ length: 32 }, () => 1) }]
    const path = proof.participants.revealed.flatMap((r) => r.path)
    for (const list of [pool, other]) {
      for (const g of guesses) {
        const nodes = nodesOf(list, g)
        expect(path.filter((h) => nodes.has(h))).toEqual([])
      }
    }
    // With the secret, the true list is recognised (the game is meaningful): its nodes contain every path hash.
    const real = nodesOf(pool, { secret: SECRET_A })
    expect(path.every((h) => real.has(h))).toBe(true)
    // The same distinguisher wins outright against unsalted paths: all of them are in the true list's tree.
    const plain = nodesOf(pool)
    const plainPaths = proof.participants.revealed.flatMap((r) => participantsTree(pool).inclusionProof(r.index).map(bytesToHex))
    expect(plainPaths.every((h) => plain.has(h))).toBe(true)
    expect(plainPaths.some((h) => nodesOf(other).has(h) === false)).toBe(true)
  })
})
