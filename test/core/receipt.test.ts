/**
 * Participant receipts: every receipt of a private list checks; any mutation fails a named check;
 * the parser's strict rules and size bound; receipts reveal nothing about other entries.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkReceipt, makeReceipts, parseReceipt, serializeReceipt, type Receipt } from '../../src/core/receipt.js'
import { commit, type CommitOptions } from '../../src/core/commitment.js'
import { LIMITS } from '../../src/core/limits.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { codeOf } from '../helpers/thrown.js'

const CHAIN = buildChain(8, 'receipts')
const SECRET = Uint8Array.from({ length: 32 }, (_, i) => 200 - i)
const OTHER = Uint8Array.from({ length: 32 }, (_, i) => 7 + i)
type J = any // eslint-disable-line @typescript-eslint/no-explicit-any

function options(participants: CommitOptions['participants'], draw: CommitOptions['draw'] = { kind: 'pick', count: 1 }): CommitOptions {
  return { beacon: BEACON_NAME, target: 6, after: { sequence: 4, block: CHAIN[4]!.cid }, participants, draw, label: 'receipts' }
}
const failed = (r: { checks: readonly { name: string; ok: boolean }[] }): string[] => r.checks.filter((c) => !c.ok).map((c) => c.name)

// eslint-disable-next-line no-control-regex
const listArb = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }).map((s) => `p:${s.replace(/[\u0000-\u001f\u007f-\u009f\s]/g, '_')}`), { minLength: 1, maxLength: 40 })

describe('makeReceipts / checkReceipt', () => {
  it('every receipt of a private list checks, pinned to its CID, and holds only its own entry', () => {
    fc.assert(
      fc.property(listArb, (list) => {
        const c = commit({ ...options(list), private: { secret: SECRET } })
        const book = makeReceipts(c, list, c.secret!)
        expect(book.count).toBe(list.length)
        let i = 0
        for (const r of book.receipts()) {
          expect(r.index).toBe(i)
          expect(r.entry).toBe(list[i])
          const text = serializeReceipt(r)
          const res = checkReceipt(text, { commitment: c.cid })
          expect(failed(res)).toEqual([])
          expect(res.ok && res.pinned).toBe(true)
          for (const other of list) if (other !== list[i] && !list[i]!.includes(other)) expect(text).not.toContain(JSON.stringify(other))
          i++
        }
      }),
      { numRuns: 30 },
    )
  })

  it('any single mutation of a receipt fails a named check', () => {
    const list = Array.from({ length: 21 }, (_, i) => `member-${i}`)
    const c = commit({ ...options(list), private: { secret: SECRET } })
    const book = makeReceipts(c, list, SECRET)
    const flip = (h: string, at: number): string => h.slice(0, at) + ((parseInt(h[at]!, 16) + 1) % 16).toString(16) + h.slice(at + 1)
    const mutations: [string, (r: J) => void][] = [
      ['index + 1', (r) => (r.index = (r.index + 1) % list.length)],
      ['index past count', (r) => (r.index = list.length)],
      ['entry', (r) => (r.entry = `${r.entry}x`)],
      ['entry of another member', (r) => (r.entry = list[(r.index + 1) % list.length])],
      ['salt digit', (r) => (r.salt = flip(r.salt, 10))],
      ['path element digit', (r) => (r.path[0] = flip(r.path[0], 3))],
      ['path element dropped', (r) => r.path.pop()],
      ['path element added', (r) => r.path.push('00'.repeat(32))],
      ['commitment label', (r) => (r.commitment.label = 'another')],
      ['commitment salted removed', (r) => delete r.commitment.participants.salted],
      ['commitmentCid of another commitment', (r) => (r.commitmentCid = commit({ ...options(list), label: 'x', private: { secret: SECRET } }).cid)],
      ['weight added', (r) => (r.weight = 1)],
      ['unknown field', (r) => (r.note = 'x')],
      ['type', (r) => (r.type = 'orbitdraw-proof')],
      ['version', (r) => (r.version = 2)],
    ]
    fc.assert(
      fc.property(fc.integer({ min: 0, max: list.length - 1 }), fc.integer({ min: 0, max: mutations.length - 1 }), (index, m) => {
        const r: J = JSON.parse(JSON.stringify(book.receiptFor(index)))
        mutations[m]![1](r)
        const res = checkReceipt(r, { commitment: c.cid })
        expect(res.ok, mutations[m]![0]).toBe(false)
        expect(failed(res).length, mutations[m]![0]).toBeGreaterThan(0)
      }),
      { numRuns: 300 },
    )
  })

  it('named failures: wrong pinned CID → commitment-pinned; wrong path → inclusion; wrong salt → inclusion', () => {
    const list = ['alice', 'bob', 'carol', 'dave', 'erin']
    const c = commit({ ...options(list), private: { secret: SECRET } })
    const other = commit({ ...options(list), private: { secret: OTHER } })
    const r = makeReceipts(c, list, SECRET).receiptFor(2)
    expect(failed(checkReceipt(r, { commitment: other.cid }))).toEqual(['commitment-pinned'])
    expect(failed(checkReceipt({ ...r, path: makeReceipts(c, list, SECRET).receiptFor(3).path }))).toEqual(['inclusion'])
    expect(failed(checkReceipt({ ...r, salt: makeReceipts(other, list, OTHER).receiptFor(2).salt }))).toEqual(['inclusion'])
    const unpinned = checkReceipt(r)
    expect(unpinned.ok).toBe(true)
    expect(unpinned.pinned).toBe(false)
    expect(unpinned.notes.join(' ')).toMatch(/not pinned/)
  })

  it('weighted lists: the receipt carries the weight, which the leaf binds', () => {
    const list = [{ entry: 'a', weight: 3 }, { entry: 'b', weight: 1 }, { entry: 'c', weight: 9 }]
    const c = commit({ ...options(list, { kind: 'weighted', count: 1 }), private: { secret: SECRET } })
    const r = makeReceipts(c, list, SECRET).receiptFor(2)
    expect(r.weight).toBe(9)
    expect(checkReceipt(r, { commitment: c.cid }).ok).toBe(true)
    expect(failed(checkReceipt({ ...r, weight: 10 }))).toEqual(['inclusion'])
    const { weight: _w, ...noWeight } = r
    expect(failed(checkReceipt(noWeight))).toEqual(['inclusion'])
  })

  it('refuses a public list, a wrong list and a wrong secret', () => {
    const list = ['alice', 'bob', 'carol']
    const pub = commit(options(list))
    expect(codeOf(() => makeReceipts(pub, list, SECRET))).toBe('NOT_SALTED')
    const c = commit({ ...options(list), private: { secret: SECRET } })
    expect(codeOf(() => makeReceipts(c, list, OTHER))).toBe('PARTICIPANTS_MISMATCH')
    expect(codeOf(() => makeReceipts(c, ['alice', 'carol', 'bob'], SECRET))).toBe('PARTICIPANTS_MISMATCH')
    expect(codeOf(() => makeReceipts(c, list.slice(1), SECRET))).toBe('PARTICIPANTS_MISMATCH')
    expect(codeOf(() => makeReceipts(c, list, SECRET).receiptFor(3))).toBe('INDEX_OUT_OF_RANGE')
    // a receipt made up for a public commitment fails `inclusion`
    const r = makeReceipts(c, list, SECRET).receiptFor(0)
    const forged = { ...r, commitment: pub.json, commitmentCid: pub.cid }
    expect(failed(checkReceipt(forged))).toEqual(['inclusion'])
  })
})

describe('parseReceipt', () => {
  const list = ['alice', 'bob', 'carol']
  const c = commit({ ...options(list), private: { secret: SECRET } })
  const r: Receipt = makeReceipts(c, list, SECRET).receiptFor(1)
  const text = serializeReceipt(r)

  it('round trips text, bytes and values', () => {
    expect(parseReceipt(text)).toEqual(r)
    expect(parseReceipt(new TextEncoder().encode(text))).toEqual(r)
    expect(parseReceipt(JSON.parse(text))).toEqual(r)
  })

  it('strict: duplicate keys, unknown fields, bad UTF-8, oversize, bad shapes', () => {
    expect(codeOf(() => parseReceipt(text.replace('"index": 1', '"index": 1, "index": 2')))).toBe('DUPLICATE_KEY')
    expect(codeOf(() => parseReceipt(text.replace('"index": 1', '"index": 1, "extra": 2')))).toBe('UNKNOWN_FIELD')
    expect(codeOf(() => parseReceipt(Uint8Array.from([0x7b, 0xff, 0x7d])))).toBe('INVALID_UTF8')
    expect(codeOf(() => parseReceipt(' '.repeat(LIMITS.maxReceiptBytes + 1)))).toBe('RECEIPT_TOO_LARGE')
    expect(codeOf(() => parseReceipt(text.replace(r.salt, r.salt.toUpperCase())))).toBe('INVALID_FIELD')
    expect(codeOf(() => parseReceipt(text.replace('"index": 1', '"index": -1')))).toBe('INVALID_FIELD')
    expect(codeOf(() => parseReceipt({ ...JSON.parse(text), path: Array.from({ length: 65 }, () => '00'.repeat(32)) }))).toBe('LIMIT_EXCEEDED')
    expect(codeOf(() => parseReceipt({ ...JSON.parse(text), type: 'x' }))).toBe('NOT_A_RECEIPT')
    expect(codeOf(() => parseReceipt({ ...JSON.parse(text), version: 9 }))).toBe('UNSUPPORTED_VERSION')
  })

  it('checkReceipt never throws on junk', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), fc.jsonValue()), (junk) => {
        const res = checkReceipt(junk)
        expect(res.ok).toBe(false)
        expect(res.checks[0]!.name).toBe('format')
      }),
      { numRuns: 200 },
    )
  })
})
