/**
 * Tamper tests: take valid proofs of every kind, change one field at a time, and check that verify
 * fails with the expected check named (table below). verify must never throw, whatever it is fed.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { verify } from '../../src/core/verify.js'
import { ENGINE_ONLY } from '../helpers/policy.js'
import { MUTATIONS, PROOFS, type J, type Mutation } from '../helpers/tamper-table.js'

describe('the untampered proofs verify', () => {
  it.each(Object.keys(PROOFS))('%s', async (name) => {
    const res = await verify(PROOFS[name], ENGINE_ONLY)
    expect(res.checks.filter((c) => !c.ok)).toEqual([])
    expect(res.ok).toBe(true)
  })
})

describe('one change → verify fails with the named check', () => {
  const rows: [proof: string, mutation: string, check: string, m: Mutation][] = []
  for (const [pname, proof] of Object.entries(PROOFS)) {
    for (const m of MUTATIONS) if (m.applies(proof)) rows.push([pname, m.name, m.check, m])
  }
  it('the table covers every proof kind with many mutations', () => {
    for (const pname of Object.keys(PROOFS)) expect(rows.filter((r) => r[0] === pname).length).toBeGreaterThan(30)
  })
  it.each(rows)('%s / %s → %s', async (pname, _mname, checkName, m) => {
    const p = structuredClone(PROOFS[pname])
    m.mutate(p)
    expect(JSON.stringify(p)).not.toBe(JSON.stringify(PROOFS[pname]))
    const res = await verify(p, ENGINE_ONLY)
    expect(res.ok).toBe(false)
    const failed = res.checks.filter((c) => !c.ok).map((c) => c.name)
    expect(failed, JSON.stringify(res.checks.filter((c) => !c.ok))).toContain(checkName)
    for (const c of res.checks) expect(c.detail.length).toBeGreaterThan(0)
  })
})

describe('verify never throws', () => {
  const deepArray = (n: number): unknown => {
    let v: unknown = []
    for (let i = 0; i < n; i++) v = [v]
    return v
  }
  const deepObject = (n: number): unknown => {
    let v: unknown = {}
    for (let i = 0; i < n; i++) v = { a: v }
    return v
  }
  const circular: J = structuredClone(PROOFS['public pick'])
  circular.commitment.self = circular
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error('boom')
      },
      ownKeys() {
        throw new Error('boom')
      },
      has() {
        throw new Error('boom')
      },
      getOwnPropertyDescriptor() {
        throw new Error('boom')
      },
    },
  )
  const inputs: [string, () => unknown][] = [
    ['null', () => null],
    ['undefined', () => undefined],
    ['0', () => 0],
    ['NaN', () => Number.NaN],
    ['a bigint', () => 10n],
    ['true', () => true],
    ['an empty array', () => []],
    ['an array of proofs', () => [PROOFS['public pick']]],
    ['an empty object', () => ({})],
    ['an empty string', () => ''],
    ['the string "null"', () => 'null'],
    ['the string "[]"', () => '[]'],
    ['not JSON', () => '{"type":'],
    ['a JSON number string', () => '1e400'],
    ['invalid UTF-8 bytes', () => new Uint8Array([0xff, 0xfe, 0x7b])],
    ['a function', () => () => 1],
    ['a symbol', () => Symbol('x')],
    ['a Map', () => new Map([['type', 'orbitdraw-proof']])],
    ['a Date', () => new Date(0)],
    ['nested arrays 100,000 deep (value)', () => deepArray(100_000)],
    ['nested arrays 1,000,000 deep (text)', () => '['.repeat(1_000_000) + ']'.repeat(1_000_000)],
    ['nested objects 100,000 deep as the commitment', () => ({ ...PROOFS['public pick'], commitment: deepObject(100_000) })],
    ['nested objects 100,000 deep as the outcome', () => ({ ...PROOFS['public pick'], outcome: deepObject(100_000) })],
    ['a circular commitment', () => circular],
    ['a proxy that throws on every access', () => hostile],
    ['a proof whose commitment is a throwing proxy', () => ({ ...PROOFS['public pick'], commitment: hostile })],
    ['a proof with a throwing getter', () => Object.defineProperty({ ...PROOFS['public pick'] }, 'seed', { get: () => { throw new Error('getter') }, enumerable: true })],
    ['a proof with toJSON that throws', () => ({ ...PROOFS['public pick'], commitment: { toJSON: () => { throw new Error('toJSON') } } })],
    ['a proof with 10,000 garbage blocks', () => ({ ...PROOFS['public pick'], chain: { blocks: Array.from({ length: 10_000 }, () => ({ cid: 'x', bytes: 'AAAA' })) } })],
    ['a proof with a 1 MB label', () => ({ ...PROOFS['public pick'], commitment: { ...PROOFS['public pick'].commitment, label: 'x'.repeat(1 << 20) } })],
  ]
  it.each(inputs)('%s → ok: false with a named failed check', async (_name, input) => {
    const res = await verify(input(), ENGINE_ONLY)
    expect(res.ok).toBe(false)
    expect(res.checks.length).toBeGreaterThan(0)
    expect(res.checks.some((c) => !c.ok && typeof c.name === 'string' && c.name.length > 0)).toBe(true)
  })

  it('property: any JSON value → never throws, never ok', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (v) => {
        const res = await verify(v, ENGINE_ONLY)
        expect(res.ok).toBe(false)
      }),
      { numRuns: 300 },
    )
  })

  it('property: replacing any one leaf of a valid proof by another JSON value → never throws, never ok', async () => {
    const leaves = (v: unknown, path: (string | number)[] = []): (string | number)[][] =>
      v !== null && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => leaves(x, [...path, Array.isArray(v) ? Number(k) : k])) : [path]
    const paths = Object.fromEntries(Object.entries(PROOFS).map(([k, p]) => [k, leaves(p)]))
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(PROOFS)), fc.nat(), fc.jsonValue({ maxDepth: 2 }), async (pname, n, value) => {
        const list = paths[pname]!
        const path = list[n % list.length]!
        const p = structuredClone(PROOFS[pname])
        let at: J = p
        for (const k of path.slice(0, -1)) at = at[k]
        const last = path[path.length - 1]!
        fc.pre(JSON.stringify(at[last]) !== JSON.stringify(value))
        at[last] = value
        const res = await verify(p, ENGINE_ONLY)
        expect(res.ok, `${pname} ${path.join('.')} = ${JSON.stringify(value)}`).toBe(false)
      }),
      { numRuns: 300 },
    )
  })
})
