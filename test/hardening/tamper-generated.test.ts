/**
 * Systematic tamper suite. From valid proofs (pure and network, every draw kind, RSA and Ed25519
 * records, multi-block chains) it generates mutations rather than listing them: every JSON leaf
 * changed (numbers ±1, strings altered, booleans flipped), every field removed, an extra field added
 * to every object, every byte of every block and of the IPNS record flipped, blocks reordered,
 * dropped and duplicated, another beacon's record and another commitment's outcome swapped in.
 * Each must fail verify with the check derived from the mutated path (the first failed check must be
 * one of the listed ones). Reformatting (whitespace, key order) must still verify.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verify, type VerifyResult } from '../../src/core/verify.js'
import { networkFixtures, pureFixtures, type Fixture } from './fixtures.js'
import { recordFigures } from './helpers.js'
import { fieldContent } from '../helpers/protobuf.js'

type J = any // eslint-disable-line @typescript-eslint/no-explicit-any
type Seg = string | number

const RECORD_CHECKS = ['ipns-record-signature', 'ipns-record-name', 'ipns-record-value']

/** A generated mutation: what it does and the checks of which the first failed one must be. */
interface Mutation {
  readonly family: string
  readonly label: string
  readonly apply: (p: J) => J
  readonly expect: readonly string[]
  /** The mutation removes the signed record: strict verify fails it; with allowUnsigned it verifies, relaxed. */
  readonly removesSignature?: boolean
}

const clone = (x: unknown): J => JSON.parse(JSON.stringify(x))
const pathText = (segs: readonly Seg[]): string => '$' + segs.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('')

function getAt(root: J, segs: readonly Seg[]): J {
  return segs.reduce((o, s) => o[s], root)
}
function edit(root: J, segs: readonly Seg[], f: (parent: J, key: Seg) => void): J {
  const out = clone(root)
  f(getAt(out, segs.slice(0, -1)), segs[segs.length - 1]!)
  return out
}

/** Walks every leaf and every object (with its path). */
function walk(v: J, segs: Seg[], leaf: (segs: Seg[], v: J) => void, object: (segs: Seg[], o: J) => void): void {
  if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...segs, i], leaf, object))
  else if (v !== null && typeof v === 'object') {
    object(segs, v)
    for (const k of Object.keys(v)) walk(v[k], [...segs, k], leaf, object)
  } else leaf(segs, v)
}

const B64 = /^[A-Za-z0-9+/]+={0,2}$/
const B32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'

/** A type-aware alteration of a string that keeps its syntax where it has one (hex, decimal, base64, CID). */
function alterString(s: string, segs: readonly Seg[]): string {
  const last = segs[segs.length - 1]
  const under = (k: string): boolean => segs.includes(k)
  if (/^-?(0|[1-9][0-9]*)$/.test(s)) return (BigInt(s) + 1n).toString()
  if (/^[0-9a-f]+$/.test(s) && s.length % 2 === 0 && s.length >= 16) {
    const at = s.length >> 1
    return s.slice(0, at) + ((parseInt(s[at]!, 16) + 1) % 16).toString(16) + s.slice(at + 1)
  }
  if ((last === 'bytes' || last === 'ipnsRecord' || (under('root') && last === 'bytes')) && B64.test(s)) {
    const at = Math.min(4, s.length - 3)
    return s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1)
  }
  if (/^(baf|bag)[a-z2-7]+$/.test(s)) {
    const at = 12
    const c = s[at]!
    return s.slice(0, at) + B32_ALPHABET[(B32_ALPHABET.indexOf(c) + 1) % 32] + s.slice(at + 1)
  }
  if (/^k[0-9a-z]+$/.test(s) && last === 'beacon') {
    const at = s.length - 4
    return s.slice(0, at) + (s[at] === '0' ? '1' : '0') + s.slice(at + 1)
  }
  return `${s}!`
}

/** The checks a change at `segs` must fail (first failed check), by the path. */
function expectedFor(op: 'leaf' | 'remove' | 'extra', segs: readonly Seg[], before: J, after: J): string[] {
  const [top, second] = segs
  const last = segs[segs.length - 1]
  if (top === 'type') return ['format']
  // Version 2 is known (a mixed draw): a version 1 proof relabelled 2 lacks its drand round, which the
  // proof's reader (format) or the commitment's (commitment-cid) refuses; any other version is unknown.
  if (top === 'version') return op === 'leaf' ? (after === 2 ? ['format'] : ['version']) : ['format']
  if (top === 'commitment') {
    if (segs.length === 1 && op === 'remove') return ['format'] // the whole commitment removed
    if (op === 'leaf' && second === 'version' && segs.length === 2) return after === 2 ? ['commitment-cid'] : ['version']
    return ['commitment-cid']
  }
  if (top === 'commitmentCid') return op === 'remove' ? ['format'] : ['commitment-cid']
  if (top === 'seed') return op === 'remove' ? ['format'] : ['seed']
  if (op === 'extra') return ['format']
  if (top === 'participants') {
    if (op === 'remove') return segs.length === 1 ? ['participants'] : ['format']
    if (last === 'disclosure') return ['format']
    // numbers below a parser minimum (weight 0, index -1) are format errors
    if (typeof after === 'number' && ((last === 'weight' && after < 1) || (last === 'index' && after < 0))) return ['format']
    return ['participants']
  }
  if (top === 'chain') {
    if (last === 'ipnsRecord') return op === 'remove' ? ['beacon-authenticity'] : RECORD_CHECKS
    if (op === 'remove') return ['format']
    return ['block-content']
  }
  if (top === 'outcome') {
    if (op === 'remove' || last === 'kind') return ['format']
    if (typeof after === 'number' && ((last === 'rank' && after < 1) || (last === 'index' && after < 0))) return ['format']
    return ['outcome']
  }
  void before
  throw new Error(`no rule for ${pathText(segs)}`)
}

/** Every generated mutation of one valid proof. */
function mutations(fx: Fixture, ctx: { twins: Map<string, J>; others: Fixture[]; otherBeaconRecord: string }): Mutation[] {
  const p = fx.proof
  const out: Mutation[] = []
  walk(
    p,
    [],
    (segs, v) => {
      const variants: J[] = typeof v === 'number' ? [v + 1, v - 1] : typeof v === 'boolean' ? [!v] : typeof v === 'string' ? [alterString(v, segs)] : []
      for (const nv of variants) {
        out.push({ family: 'leaf changed', label: `${pathText(segs)} ${JSON.stringify(v).slice(0, 20)} → ${JSON.stringify(nv).slice(0, 20)}`, apply: (q) => edit(q, segs, (o, k) => (o[k] = nv)), expect: expectedFor('leaf', segs, v, nv) })
      }
    },
    (segs, o) => {
      out.push({ family: 'extra field', label: `${pathText(segs)} + x_extra`, apply: (q) => (segs.length === 0 ? { ...clone(q), x_extra: 1 } : edit(q, segs, (par, k) => (par[k] = { ...par[k], x_extra: 1 }))), expect: segs.length === 0 ? ['format'] : expectedFor('extra', segs, o, o) })
      for (const k of Object.keys(o)) {
        const s = [...segs, k]
        const e = expectedFor('remove', s, o[k], undefined)
        out.push({ family: 'field removed', label: `${pathText(s)} removed`, apply: (q) => edit(q, s, (par, key) => delete par[key]), expect: e, removesSignature: e.includes('beacon-authenticity') })
      }
    },
  )
  // every byte of every block, and of the IPNS record
  p.chain.blocks.forEach((b: J, i: number) => {
    const bytes = Buffer.from(b.bytes, 'base64')
    for (let at = 0; at < bytes.length; at++) {
      out.push({
        family: 'block byte flipped',
        label: `blocks[${i}] byte ${at}`,
        apply: (q) => {
          const x = Buffer.from(bytes)
          x[at] = x[at]! ^ 0x01
          return edit(q, ['chain', 'blocks', i, 'bytes'], (o, k) => (o[k] = x.toString('base64')))
        },
        expect: ['block-content'],
      })
    }
  })
  if (p.chain.ipnsRecord !== undefined) {
    const rec = Buffer.from(p.chain.ipnsRecord, 'base64')
    const v1 = fieldContent(rec, 2)
    for (let at = 0; at < rec.length; at++) {
      // The legacy V1 signature is checked too (stricter than an IPNS resolver), so no byte is exempt.
      const legacy = v1 !== undefined && at >= v1[0] && at < v1[1]
      out.push({
        family: legacy ? 'record byte flipped inside the legacy V1 signature' : 'record byte flipped',
        label: `ipnsRecord byte ${at}`,
        apply: (q) => {
          const x = Buffer.from(rec)
          x[at] = x[at]! ^ 0x01
          return edit(q, ['chain', 'ipnsRecord'], (o, k) => (o[k] = x.toString('base64')))
        },
        expect: RECORD_CHECKS,
      })
    }
    out.push({ family: "another beacon's record", label: 'record of a second Ed25519 beacon', apply: (q) => edit(q, ['chain', 'ipnsRecord'], (o, k) => (o[k] = ctx.otherBeaconRecord)), expect: RECORD_CHECKS })
    const otherKey = ctx.others.find((f) => f.keyType !== fx.keyType && f.keyType !== 'none')
    if (otherKey !== undefined) out.push({ family: "another beacon's record", label: `record of the ${otherKey.keyType} beacon`, apply: (q) => edit(q, ['chain', 'ipnsRecord'], (o, k) => (o[k] = otherKey.proof.chain.ipnsRecord)), expect: RECORD_CHECKS })
  }
  // blocks reordered, dropped, duplicated
  const n = p.chain.blocks.length
  const target = p.commitment.target as number
  const headSeq = target + (n > 1 ? 1 : 0) // network chains: head = target + 1 (checked below)
  for (let i = 0; i + 1 < n; i++) {
    out.push({ family: 'blocks reordered', label: `blocks[${i}] ⇄ blocks[${i + 1}]`, apply: (q) => edit(q, ['chain', 'blocks'], (o, k) => ([o[k][i], o[k][i + 1]] = [o[k][i + 1], o[k][i]])), expect: ['chain-links'] })
  }
  if (n > 2) out.push({ family: 'blocks reordered', label: 'blocks reversed', apply: (q) => edit(q, ['chain', 'blocks'], (o, k) => o[k].reverse()), expect: ['chain-links'] })
  for (let i = 0; i < n; i++) {
    const seq = headSeq - i
    if (seq < target) continue // below the target: dropping them weakens but does not break a proof (see the figures)
    const e = i === 0 ? (p.chain.ipnsRecord !== undefined ? ['ipns-record-value'] : n === 1 ? ['format'] : ['chain-target']) : ['chain-links', 'chain-target']
    out.push({ family: 'block dropped', label: `blocks[${i}] (sequence ${seq}) dropped`, apply: (q) => edit(q, ['chain', 'blocks'], (o, k) => o[k].splice(i, 1)), expect: e })
    out.push({ family: 'block duplicated', label: `blocks[${i}] duplicated`, apply: (q) => edit(q, ['chain', 'blocks'], (o, k) => o[k].splice(i, 0, clone(o[k][i]))), expect: ['chain-links'] })
  }
  // another commitment's outcome (same draw kind, same participants)
  const donors = [ctx.twins.get(fx.kind), ...ctx.others.filter((f) => f.kind === fx.kind && f.name !== fx.name).map((f) => f.proof)].filter((x) => x !== undefined)
  donors.forEach((d, j) => {
    if (JSON.stringify(d.outcome) === JSON.stringify(p.outcome)) return // identical by chance: not a mutation
    out.push({ family: "another commitment's outcome", label: `outcome of donor ${j}`, apply: (q) => ({ ...clone(q), outcome: clone(d.outcome) }), expect: ['outcome'] })
    out.push({ family: "another commitment's outcome", label: `seed and outcome of donor ${j}`, apply: (q) => ({ ...clone(q), seed: d.seed, outcome: clone(d.outcome) }), expect: ['seed'] })
  })
  return out
}

/** Key order reversed at every level. */
function reverseKeys(v: J): J {
  if (Array.isArray(v)) return v.map(reverseKeys)
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v).reverse().map((k) => [k, reverseKeys(v[k])]))
  return v
}

const FIGURES: Record<string, { tried: number; rejected: number }> = {}
const PER_FIXTURE: Record<string, number> = {}
let reformattings = 0
let net: Awaited<ReturnType<typeof networkFixtures>>
let pure: ReturnType<typeof pureFixtures>
let all: Fixture[] = []

beforeAll(async () => {
  pure = pureFixtures()
  net = await networkFixtures()
  all = [...pure.main, ...net.fixtures]
}, 60_000)
afterAll(async () => {
  await net?.stop()
  const total = Object.values(FIGURES).reduce((a, f) => ({ tried: a.tried + f.tried, rejected: a.rejected + f.rejected }), { tried: 0, rejected: 0 })
  recordFigures('tamper', { fixtures: all.map((f) => f.name), byFamily: FIGURES, perFixture: PER_FIXTURE, total, reformattingsVerified: reformattings })
})

const FIXTURE_NAMES = ['pure', 'RSA', 'Ed25519'].flatMap((k) => ['public pick', 'private pick', 'shuffle', 'range', 'weighted'].map((kind) => `${k} ${kind}`))

describe('generated tamper mutations', () => {
  it.each(FIXTURE_NAMES)('%s: the valid proof verifies, and every mutation is rejected with the check of its path', async (name) => {
    const fx = all.find((f) => f.name === name)!
    const base = await verify(fx.proof, fx.policy)
    expect(base.checks.filter((c) => !c.ok)).toEqual([])
    expect(base.authenticated).toBe(fx.keyType !== 'none')
    if (fx.keyType !== 'none') expect(fx.proof.chain.blocks.length).toBe(4) // head, target, …, after
    const list = mutations(fx, { twins: pure.twins, others: all, otherBeaconRecord: net.otherBeaconRecord })
    const wrong: string[] = []
    for (const m of list) {
      const mutated = m.apply(fx.proof)
      const r: VerifyResult = await verify(mutated, fx.policy)
      const firstFailed = r.checks.find((c) => !c.ok)
      const f = (FIGURES[m.family] ??= { tried: 0, rejected: 0 })
      f.tried++
      if (!r.ok && firstFailed !== undefined && m.expect.includes(firstFailed.name) && !r.checks.some((c) => c.name === 'internal')) f.rejected++
      else wrong.push(`${m.label}: ok=${r.ok}, first failed ${firstFailed?.name ?? 'none'} (${firstFailed?.detail.slice(0, 120) ?? ''}), expected ${m.expect.join('|')}`)
      if (m.removesSignature === true) {
        // allowing unsigned proofs knowingly, the same proof verifies, but only as a relaxed verdict
        const relaxed = await verify(mutated, { ...fx.policy, allowUnsigned: true })
        expect(relaxed.ok && !relaxed.authenticated && relaxed.verdict === 'verified-relaxed').toBe(true)
      }
    }
    PER_FIXTURE[name] = list.length
    expect(wrong).toEqual([])
  })
})

describe('reformatting keeps a proof valid', () => {
  it.each(FIXTURE_NAMES)('%s: indentation, tabs, CRLF and reversed key order still verify', async (name) => {
    const fx = all.find((f) => f.name === name)!
    const texts = [JSON.stringify(fx.proof), JSON.stringify(fx.proof, null, 2), JSON.stringify(fx.proof, null, '\t').replace(/\n/g, '\r\n'), JSON.stringify(reverseKeys(fx.proof), null, 1), ` \n${JSON.stringify(reverseKeys(fx.proof))}\n\n`]
    for (const t of texts) {
      const r = await verify(t, fx.policy)
      expect(r.checks.filter((c) => !c.ok)).toEqual([])
      const b = await verify(new TextEncoder().encode(t), fx.policy)
      expect(b.ok).toBe(true)
      reformattings += 2
    }
  })
})
