/**
 * Checks test/vectors/blocks.json and test/vectors/draws.json byte-exactly against the code, and
 * re-derives every intermediate value independently of src/core: CIDs built by hand, the seed hash
 * from its definition, the stream from Node's own ChaCha20, and the outcome from a literal
 * re-implementation of the draw rules. Regenerate with `npx tsx scripts/make-draw-vectors.ts`.
 */
import { createCipheriv, createHash, createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ENGINE_ONLY } from '../helpers/policy.js'
import { referencePanel } from './sortition/reference.js'
import { commit, commitmentCid, encodeCommitment, parseCommitment, type Commitment } from '../../src/core/commitment.js'
import { deriveSeed, SEED_DOMAIN_V1 } from '../../src/core/seed.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { encodeBlock, parseBlock } from '../../src/core/block.js'
import { OrbitdrawError } from '../../src/core/errors.js'
import { streamFromSeed } from '../../src/core/random/stream.js'
import { verify } from '../../src/core/verify.js'
import { type WeightedEntry } from '../../src/core/participants.js'

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'vectors')
type J = any // eslint-disable-line @typescript-eslint/no-explicit-any
const BLOCKS: J = JSON.parse(readFileSync(join(DIR, 'blocks.json'), 'utf8'))
const DRAWS: J = JSON.parse(readFileSync(join(DIR, 'draws.json'), 'utf8'))

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s)
const sha256 = (b: Uint8Array): Buffer => createHash('sha256').update(b).digest()
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

// ---- independent reference pieces ----

function base32(bytes: Uint8Array): string {
  const A = 'abcdefghijklmnopqrstuvwxyz234567'
  let bits = 0
  let v = 0
  let out = ''
  for (const x of bytes) {
    v = ((v << 8) | x) & 0xffff
    bits += 8
    while (bits >= 5) {
      out += A[(v >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return bits > 0 ? out + A[(v << (5 - bits)) & 31] : out
}
/** Binary CIDv1 = version 1, codec varint, multihash (0x12 = sha2-256, 0x20 = 32 bytes, digest). */
const cidBytes = (codec: number[], content: Uint8Array): Uint8Array => new Uint8Array([0x01, ...codec, 0x12, 0x20, ...sha256(content)])
const RAW = [0x55]
const DAG_JSON = [0xa9, 0x02] // varint(0x0129)
const cidString = (bytes: Uint8Array): string => `b${base32(bytes)}`

function u(value: number, width: number): Buffer {
  const b = Buffer.alloc(width)
  b.writeUIntBE(value, 0, width)
  return b
}

/** The seed from its definition (docs/spec.md (Core protocol)). */
function referenceSeed(commitmentText: string, blockText: string, ctrng: readonly string[]): string {
  const c = cidBytes(DAG_JSON, utf8(commitmentText))
  const b = cidBytes(RAW, utf8(blockText))
  const parts = [Buffer.from(SEED_DOMAIN_V1, 'ascii'), Buffer.from([0]), u(c.length, 2), c, u(b.length, 2), b, u(ctrng.length, 4), ...ctrng.map((h) => Buffer.from(h, 'hex'))]
  return hex(sha256(Buffer.concat(parts)))
}

/** RFC 8439 ChaCha20 keystream, key = seed, nonce = 0, counter from 0 (OpenSSL IV = counter LE ‖ nonce). */
function keystream(seed: Uint8Array, n: number): Buffer {
  const c = createCipheriv('chacha20', Buffer.from(seed), Buffer.alloc(16))
  return c.update(Buffer.alloc(n))
}

/** Rejection sampling from the spec: b = bitlen(n - 1), L = ceil(b / 8), low b bits of L big-endian bytes, accept < n. */
class RefStream {
  private pos = 0
  private readonly ks: Buffer
  constructor(seed: Uint8Array) {
    this.ks = keystream(seed, 1 << 18)
  }
  /** The raw keystream, for the sortition reference (test/core/sortition/reference.ts reads bytes). */
  nextBytes(n: number): Uint8Array {
    const out = Uint8Array.from(this.ks.subarray(this.pos, this.pos + n))
    this.pos += n
    return out
  }
  get consumed(): number {
    return this.pos
  }
  uniform(n: bigint): bigint {
    if (n === 1n) return 0n
    const b = (n - 1n).toString(2).length
    const L = Math.ceil(b / 8)
    for (;;) {
      const bytes = this.ks.subarray(this.pos, this.pos + L)
      this.pos += L
      const x = BigInt(`0x${hex(bytes)}`) & ((1n << BigInt(b)) - 1n)
      if (x < n) return x
    }
  }
}

/**
 * The sortition kinds, literally: the pool rebuilt from the committed entries (`id|feature=value|…`,
 * ids replaced by their zero-padded committed index, so the reference's id order is the committed
 * order), the spec-literal panel replay of test/core/sortition/reference.ts on Node's ChaCha20, the
 * quota table counted by hand, and the selection probabilities by enumerating every valid panel.
 */
function referenceSortition(s: RefStream, c: Commitment, entries: string[]): J {
  const d = c.draw as J
  const pad = String(entries.length).length
  const values = entries.map((e) => e.split('|').slice(1).map((kv) => kv.slice(kv.indexOf('=') + 1)))
  const row = (i: number): J => ({ rank: 0, index: i, entry: entries[i] })
  const ranked = (idx: number[]): J[] => idx.map((i, r) => ({ ...row(i), rank: r + 1 }))
  const table = (members: number[]): J[] =>
    d.features.flatMap((f: J, fi: number) => f.values.map((v: string, j: number) => ({ feature: f.name, value: v, min: f.min[j], max: f.max[j], selected: members.filter((m) => values[m]![fi] === v).length })))
  if (d.kind === 'panel-lottery') {
    const total = d.weights.reduce((a: bigint, w: number) => a + BigInt(w), 0n)
    let r = s.uniform(total)
    let p = 0
    while (r >= BigInt(d.weights[p])) r -= BigInt(d.weights[p++])
    return { kind: 'panel-lottery', panel: p, members: ranked(d.panels[p]), quotas: table(d.panels[p]) }
  }
  const header = ['id', ...d.features.map((f: J) => f.name)]
  const rows = values.map((v, i) => [`p${String(i).padStart(pad, '0')}`, ...v])
  const quotas = d.features.flatMap((f: J) => f.values.map((v: string, j: number) => [f.name, v, f.min[j], f.max[j]]))
  const r = referencePanel(header, rows, quotas, d.k, [...d.exact], s, d.alternates)
  const members = r.members.map((id) => Number(id.slice(1))).sort((a, b) => a - b)
  const out: J = { kind: 'panel', members: ranked(members), alternates: ranked(r.alternates.map((id) => Number(id.slice(1)))), rounds: r.rounds, quotas: table(members) }
  if (d.exact.length === d.features.length) {
    // Every size-k subset meeting every quota, by brute force (the vectors' exact pools are tiny).
    const n = entries.length
    const meets = (m: number[]): boolean => table(m).every((q: J) => q.selected >= q.min && q.selected <= q.max)
    const onPanels = new Array<bigint>(n).fill(0n)
    let total = 0n
    const cur: number[] = []
    const rec = (start: number): void => {
      if (cur.length === d.k) {
        if (meets(cur)) {
          total++
          for (const m of cur) onPanels[m]!++
        }
        return
      }
      for (let i = start; i < n; i++) {
        cur.push(i)
        rec(i + 1)
        cur.pop()
      }
    }
    rec(0)
    const names: string[] = d.features.map((f: J) => f.name)
    const typeOf = (i: number): string => names.map((nm, fi) => `${nm}=${values[i]![fi]}`).join('|')
    const order = d.exact.map((nm: string) => names.indexOf(nm))
    const key = (i: number): number[] => order.map((fi: number) => d.features[fi].values.indexOf(values[i]![fi]))
    const firsts = [...new Map(entries.map((_, i) => [typeOf(i), i])).values()].sort((a, b) => {
      const x = key(a)
      const y = key(b)
      const j = x.findIndex((v, t) => v !== y[t])
      return j < 0 ? 0 : x[j]! - y[j]!
    })
    const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b))
    out.probabilities = firsts.map((i) => {
      const same = entries.map((_, j) => j).filter((j) => typeOf(j) === typeOf(i))
      let num = same.reduce((a, j) => a + onPanels[j]!, 0n)
      let den = total * BigInt(same.length)
      const g = gcd(num, den)
      num /= g
      den /= g
      const scaled = ((num * 10n ** 12n) / den).toString().padStart(13, '0')
      return { type: typeOf(i), respondents: same.length, probability: `${num}/${den}`, decimal: `${scaled.slice(0, -12)}.${scaled.slice(-12)}` }
    })
  }
  return out
}

/** The draw rules, literally (no sparse maps, no fast paths). */
function referenceOutcome(seed: Uint8Array, c: Commitment, participants: J[] | undefined): J {
  const s = new RefStream(seed)
  const name = (i: number): string => (typeof participants![i] === 'string' ? participants![i] : participants![i].entry)
  const ranked = (idx: number[]): J[] => idx.map((index, r) => ({ rank: r + 1, index, entry: name(index) }))
  const d = c.draw
  if (d.kind === 'shuffle' || d.kind === 'pick' || d.kind === 'tiebreak') {
    const n = participants!.length
    const a = Array.from({ length: n }, (_, i) => i)
    const steps = d.kind === 'pick' ? d.count : n - 1
    for (let i = 0; i < steps; i++) {
      const j = i + Number(s.uniform(BigInt(n - i)))
      ;[a[i], a[j]] = [a[j]!, a[i]!]
    }
    if (d.kind === 'tiebreak') {
      // the shuffle, then a stable insertion sort by score, highest first (docs/spec.md, Tie-break)
      const out: number[] = []
      for (const x of a) {
        let at = out.length
        while (at > 0 && d.scores[out[at - 1]!]! < d.scores[x]!) at--
        out.splice(at, 0, x)
      }
      return { kind: 'tiebreak', ranking: ranked(out) }
    }
    return d.kind === 'shuffle' ? { kind: 'shuffle', ranking: ranked(a) } : { kind: 'pick', winners: ranked(a.slice(0, d.count)) }
  }
  if (d.kind === 'range') {
    const width = d.max - d.min + 1n
    const values: bigint[] = []
    const moved = new Map<bigint, bigint>() // position → value, for a virtual array [0, width)
    for (let i = 0n; i < BigInt(d.count); i++) {
      if (!d.distinct) {
        values.push(d.min + s.uniform(width))
        continue
      }
      const j = i + s.uniform(width - i)
      const vi = moved.get(i) ?? i
      const vj = moved.get(j) ?? j
      moved.set(i, vj)
      moved.set(j, vi)
      values.push(d.min + vj)
    }
    return { kind: 'range', values: values.map(String) }
  }
  if (d.kind === 'panel' || d.kind === 'panel-lottery') return referenceSortition(s, c, participants as string[])
  if (d.kind === 'panel-replacement') throw new Error('the draw vectors have no panel-replacement (test/core/kinds/panel-replacement.test.ts)')
  if (d.kind === 'stages' || d.kind === 'preference-lottery') throw new Error('the allocation kinds have their own vectors (test/core/allocation/vectors.test.ts)')
  if (d.kind === 'reroll' || d.kind === 'weighted-reroll') throw new Error('the re-roll kinds have their own vectors (test/core/kinds/reroll-vectors.test.ts)')
  const left = (participants as WeightedEntry[]).map((e, i) => ({ i, w: BigInt(e.weight) }))
  const winners: number[] = []
  for (let k = 0; k < d.count; k++) {
    const total = left.reduce((a, e) => a + e.w, 0n)
    const r = s.uniform(total)
    let run = 0n
    const at = left.findIndex((e) => (run += e.w) > r)
    winners.push(left[at]!.i)
    left.splice(at, 1)
  }
  return { kind: 'weighted', winners: ranked(winners) }
}

// ---- blocks.json ----

describe('blocks.json', () => {
  it('has the genesis block, regular blocks, an empty-ctrng block and malformed ones', () => {
    expect(BLOCKS.blocks.map((b: J) => b.name)).toEqual(expect.arrayContaining(['genesis', 'block-1', 'empty-ctrng']))
    expect(BLOCKS.malformed.length).toBeGreaterThan(3)
  })

  it.each(BLOCKS.blocks.map((b: J) => [b.name, b]) as [string, J][])('%s', (_name, v: J) => {
    const bytes = utf8(v.text)
    expect(hex(sha256(bytes))).toBe(v.sha256)
    expect(v.cid).toBe(cidString(cidBytes(RAW, bytes)))
    expect(v.cid).toMatch(/^bafkrei/)
    expect(v.cidV0).toMatch(/^Qm/)
    for (const cid of [v.cid, v.cidV0]) {
      const b = parseBlock(bytes, cid)
      expect(b.cid).toBe(v.cid)
      expect({ previous: b.previous, sequence: b.sequence, timestamp: b.timestamp, ctrng: b.ctrng, ...(b.metadata === undefined ? {} : { metadata: b.metadata }) }).toEqual(v.parsed)
    }
    // the text is what the publisher writes: Go-compact JSON, keys in publisher order
    const p = v.parsed
    expect(new TextDecoder().decode(encodeBlock({ previous: p.previous, sequence: p.sequence, timestamp: p.timestamp, ctrng: p.ctrng, ...(p.metadata ? { metadata: p.metadata } : {}) }))).toBe(v.text)
    if (p.previous !== null) expect(v.text.startsWith(`{"previous":"/ipfs/${p.previous}","data":{"sequence":${p.sequence},`)).toBe(true)
  })

  it('consecutive blocks link by CID', () => {
    const byName = new Map<string, J>(BLOCKS.blocks.map((b: J) => [b.name, b]) as [string, J][])
    for (let i = 1; byName.has(`block-${i}`); i++) {
      expect(byName.get(`block-${i}`).parsed.previous).toBe(byName.get(i === 1 ? 'genesis' : `block-${i - 1}`).cid)
    }
  })

  it.each(BLOCKS.malformed.map((m: J) => [m.name, m]) as [string, J][])('malformed: %s', (_name, m: J) => {
    let err: unknown
    try {
      parseBlock(utf8(m.text), m.cid)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(OrbitdrawError)
    expect((err as OrbitdrawError).code).toBe(m.error.code)
    if (m.error.path !== undefined) expect((err as OrbitdrawError).path).toBe(m.error.path)
  })
})

// ---- draws.json ----

describe('draws.json', () => {
  it('covers the edge cases', () => {
    const names: string[] = DRAWS.cases.map((c: J) => c.name)
    for (const n of ['n1-pick', 'n2-pick', 'pick-3-of-10', 'pick-3-of-10-private', 'shuffle-5-salted', 'shuffle-10', 'range-d6-x5', 'range-distinct-6-of-49', 'range-width-2^53+1', 'range-width-2^32-1', 'range-width-2^32', 'weighted', 'non-ascii-shuffle', 'tiebreak-8', 'panel-4-of-16-exact', 'panel-6-of-30-rejection', 'panel-6-of-30-private', 'panel-lottery-3']) {
      expect(names).toContain(n)
    }
    expect(DRAWS.rejections.map((r: J) => r.error.code)).toContain('NO_RANDOMNESS')
    const outcome = (n: string): J => DRAWS.cases.find((c: J) => c.name === n).outcome
    expect(outcome('panel-4-of-16-exact').probabilities.length).toBeGreaterThan(1)
    expect(outcome('panel-6-of-30-rejection').rounds).toBeGreaterThan(1)
    expect(outcome('panel-6-of-30-rejection').alternates.length).toBe(2)
  })

  describe.each(DRAWS.cases.map((c: J) => [c.name, c]) as [string, J][])('%s', (_name, v: J) => {
    const blockBytes = utf8(v.inputs.block.text)
    const block = parseBlock(blockBytes, v.inputs.block.cid)
    const commitment = parseCommitment(v.inputs.commitment)

    it('commitment: canonical text and CID (and commit() rebuilds it from its inputs)', () => {
      expect(new TextDecoder().decode(encodeCommitment(commitment))).toBe(v.commitmentText)
      expect(JSON.parse(v.commitmentText)).toEqual(v.inputs.commitment)
      expect(v.commitmentCid).toBe(cidString(cidBytes(DAG_JSON, utf8(v.commitmentText))))
      expect(commitmentCid(commitment)).toBe(v.commitmentCid)
      const again = commit({ beacon: commitment.beacon, target: commitment.target, after: commitment.after, participants: v.inputs.participants, draw: commitment.draw, label: commitment.label, ...(v.inputs.secret === undefined ? {} : { private: { secret: Buffer.from(v.inputs.secret, 'hex') } }) })
      expect(again.cid).toBe(v.commitmentCid)
      expect(again.json).toEqual(v.inputs.commitment)
    })

    it('seed: from its definition and from deriveSeed', () => {
      expect(referenceSeed(v.commitmentText, v.inputs.block.text, JSON.parse(v.inputs.block.text).data.ctrng)).toBe(v.seed)
      expect(hex(deriveSeed(v.commitmentCid, block))).toBe(v.seed)
    })

    it('stream: first 64 bytes equal RFC 8439 ChaCha20 (node:crypto) and streamFromSeed', () => {
      const seed = Buffer.from(v.seed, 'hex')
      expect(hex(keystream(seed, 64))).toBe(v.stream64)
      expect(hex(streamFromSeed(seed).nextBytes(64))).toBe(v.stream64)
    })

    it('first draws: replayed by the reference rejection sampler', () => {
      const s = new RefStream(Buffer.from(v.seed, 'hex'))
      for (const d of v.firstDraws) expect(s.uniform(BigInt(d.bound)).toString()).toBe(d.value)
    })

    it('outcome: the literal draw rules give it; drawFromBlock gives the whole proof', () => {
      expect(referenceOutcome(Buffer.from(v.seed, 'hex'), commitment, v.inputs.participants)).toEqual(v.outcome)
      const secret = v.inputs.secret === undefined ? {} : { secret: Uint8Array.from(Buffer.from(v.inputs.secret, 'hex')) }
      const proof = drawFromBlock(commitment, v.inputs.participants, { cid: v.inputs.block.cid, bytes: blockBytes }, { disclosure: v.inputs.disclosure, ...secret })
      expect(JSON.parse(JSON.stringify(proof))).toEqual(v.proof)
      expect(v.proof.outcome).toEqual(v.outcome)
      expect(v.proof.seed).toBe(v.seed)
      expect(v.proof.commitmentCid).toBe(v.commitmentCid)
    })

    it('the proof verifies, every check passing', async () => {
      const res = await verify(v.proof, ENGINE_ONLY)
      expect(res.checks.filter((c) => !c.ok)).toEqual([])
      expect(res.ok).toBe(true)
      expect(res.outcome).toEqual(v.outcome)
      expect(res.target).toEqual({ sequence: block.sequence, cid: block.cid, timestamp: block.timestamp })
    })

    it('the proof verifies under the file\'s verifyPolicy exactly as stated, and fails the strict default', async () => {
      const p = DRAWS.verifyPolicy
      expect(ENGINE_ONLY).toEqual({ allowUnsigned: p.allowUnsigned, allowUntimestamped: p.allowUntimestamped })
      expect(p.trustedBeacons).toBe('default')
      const res = await verify(v.proof, { allowUnsigned: p.allowUnsigned, allowUntimestamped: p.allowUntimestamped, commitment: v[p.pinnedCommitment] })
      expect(res.verdict).toBe(p.expectedVerdict)
      expect(res.checks.filter((c) => c.relaxedBy !== undefined).map((c) => c.name)).toEqual(p.relaxedChecks)
      expect(res.checks.filter((c) => c.notChecked === true).map((c) => c.name)).toEqual(p.notCheckedChecks)
      expect(res.checks.find((c) => c.name === 'commitment-pinned')?.ok).toBe(true)
      const strict = await verify(v.proof)
      expect(strict.verdict).toBe('failed')
      expect(strict.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(p.strictFailedChecks)
    })
  })

  it.each(DRAWS.rejections.map((r: J) => [r.name, r]) as [string, J][])('rejection: %s', (_name, v: J) => {
    const commitment = parseCommitment(v.inputs.commitment)
    expect(new TextDecoder().decode(encodeCommitment(commitment))).toBe(v.commitmentText)
    expect(commitmentCid(commitment)).toBe(v.commitmentCid)
    let err: unknown
    try {
      drawFromBlock(commitment, v.inputs.participants, { cid: v.inputs.block.cid, bytes: utf8(v.inputs.block.text) })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(OrbitdrawError)
    expect((err as OrbitdrawError).code).toBe(v.error.code)
  })

  it('leaf salts: HMAC-SHA256(secret, "orbitdraw/v1/leaf-salt" || 0x00 || u64be(i)) by node:crypto', () => {
    const { secret, salts } = DRAWS.leafSalts
    expect(salts.length).toBeGreaterThanOrEqual(8)
    for (const { index, salt } of salts as { index: number; salt: string }[]) {
      const msg = Buffer.concat([Buffer.from('orbitdraw/v1/leaf-salt\0', 'latin1'), Buffer.alloc(8)])
      msg.writeBigUInt64BE(BigInt(index), 23)
      expect(createHmac('sha256', Buffer.from(secret, 'hex')).update(msg).digest('hex'), `index ${index}`).toBe(salt)
    }
  })

  it('the salted cases: the root is the RFC 9162 tree of salt || UTF-8(entry) leaves, and the proofs carry those salts', () => {
    const salt = (secret: string, i: number): Buffer => {
      const msg = Buffer.concat([Buffer.from('orbitdraw/v1/leaf-salt\0', 'latin1'), Buffer.alloc(8)])
      msg.writeBigUInt64BE(BigInt(i), 23)
      return createHmac('sha256', Buffer.from(secret, 'hex')).update(msg).digest()
    }
    // an independent recursive MTH (RFC 9162 2.1.1) over node:crypto SHA-256
    const h = (...parts: Buffer[]): Buffer => createHash('sha256').update(Buffer.concat(parts)).digest()
    const mth = (leaves: Buffer[]): Buffer => {
      if (leaves.length === 1) return h(Buffer.from([0]), leaves[0]!)
      let k = 1
      while (k * 2 < leaves.length) k *= 2
      return h(Buffer.from([1]), mth(leaves.slice(0, k)), mth(leaves.slice(k)))
    }
    const salted = DRAWS.cases.filter((c: J) => c.inputs.secret !== undefined)
    expect(salted.map((c: J) => c.name)).toEqual(['pick-3-of-10-private', 'shuffle-5-salted', 'panel-6-of-30-private'])
    for (const c of salted) {
      const leaves = (c.inputs.participants as string[]).map((e, i) => Buffer.concat([salt(c.inputs.secret, i), Buffer.from(e, 'utf8')]))
      expect(c.inputs.commitment.participants.salted).toBe(true)
      expect(JSON.parse(c.commitmentText).participants.salted).toBe(true)
      expect(Buffer.from(c.inputs.commitment.participants.root['/'].bytes, 'base64').toString('hex')).toBe(mth(leaves).toString('hex'))
      const p = c.proof.participants
      if (p.disclosure === 'winners') {
        // The winners: a pick's in rank order; a panel's members (committed order), then its alternates.
        const winners = c.outcome.winners ?? [...c.outcome.members, ...c.outcome.alternates]
        expect(p.revealed.map((r: J) => r.index)).toEqual(winners.map((w: J) => w.index))
        for (const r of p.revealed) expect(r.salt).toBe(salt(c.inputs.secret, r.index).toString('hex'))
        expect(JSON.stringify(c.proof)).not.toContain(c.inputs.secret)
      } else {
        expect(p.salts).toEqual((c.inputs.participants as string[]).map((_, i) => salt(c.inputs.secret, i).toString('hex')))
      }
    }
  })
})
