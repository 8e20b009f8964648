/**
 * The incremental proof writer (src/node/proof-writer.ts) against serializeProof: a proof held in memory
 * is written with the same bytes, for every built-in kind and every optional field (chain with a signed
 * record, time-stamps, drand evidence); a full disclosure streamed item by item (entries from UTF-8 lines,
 * salts one by one) gives the bytes of the same proof with its list in memory, on small and medium lists.
 */
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, serializeProof, type DrawSpec, type Proof } from '../../src/core/index.js'
import { OrganizerSecret } from '../../src/core/formats.js'
import { withOriginal } from '../../src/core/follow-up.js'
import { PROOF_FIELD_ORDER, writeProof, type ArrayItems, type ProofSink } from '../../src/node/proof-writer.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'

const chain = buildChain(12, 'proof-writer')
const SECRET = OrganizerSecret.fromBytes(new Uint8Array(32).fill(7))
const utf8 = new TextEncoder()

/** Collects what the writer sends, strings and bytes, as one string. */
function capture(): { sink: ProofSink; text: () => string; pieces: () => number } {
  const parts: string[] = []
  const decoder = new TextDecoder()
  return { sink: (p) => void parts.push(typeof p === 'string' ? p : decoder.decode(p)), text: () => parts.join(''), pieces: () => parts.length }
}

/** As `draw` adds them: the chain from a signed head, then the time-stamps. */
function withChain(base: Proof): Proof {
  return { ...base, chain: { ipnsRecord: 'AAAA', blocks: [chain[11]!, chain[10]!].map((b) => ({ cid: b.cid, bytes: Buffer.from(b.bytes).toString('base64') })) }, timestamps: ['AAAA', 'BBBB'] }
}

function proofOfKind(draw: DrawSpec, participants: unknown, options: { private?: { secret: OrganizerSecret }; disclosure?: 'full' | 'winners' } = {}): Proof {
  const { commitment, secret } = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, ...(participants === undefined ? {} : { participants }), draw, label: 'writer "test"', ...options } as unknown as Parameters<typeof commit>[0])
  return drawFromBlock(commitment, participants as string[] | undefined, chain[10]!, secret === undefined ? {} : { secret, ...(options.disclosure === undefined ? {} : { disclosure: options.disclosure }) })
}

const names = Array.from({ length: 30 }, (_, i) => (i % 4 === 0 ? `Ünï "${i}" \\ 😀` : `entrant ${i}`))

describe('writeProof of a proof in memory = serializeProof', () => {
  const proofs: [string, Proof][] = [
    ['pick, public', proofOfKind({ kind: 'pick', count: 3 }, names)],
    ['pick, salted, winners only', proofOfKind({ kind: 'pick', count: 3 }, names, { private: { secret: SECRET } })],
    ['shuffle', proofOfKind({ kind: 'shuffle' }, names)],
    ['range', proofOfKind({ kind: 'range', min: 1n, max: 1000n, count: 4, distinct: true }, undefined)],
    ['weighted', proofOfKind({ kind: 'weighted', count: 2 }, names.map((entry, i) => ({ entry, weight: 1 + (i % 5) })))],
  ]
  for (const [name, proof] of proofs) {
    it(`${name}, bare and with a chain and time-stamps`, async () => {
      for (const p of [proof, withChain(proof)]) {
        const out = capture()
        await writeProof(p, out.sink)
        expect(out.text()).toBe(serializeProof(p))
      }
    })
  }

  it('drand evidence after the outcome, time-stamps last: the order draw builds', async () => {
    const base = proofs[0]![1]
    const mixed = { ...withChain({ ...base, drand: { round: 42, signature: 'ab'.repeat(48), timestamps: ['CCCC'] } }) } as Proof
    expect(Object.keys(mixed).filter((k) => k !== 'participants')).toEqual(PROOF_FIELD_ORDER.filter((k) => k !== 'participants' && k !== 'original'))
    const out = capture()
    await writeProof(mixed, out.sink)
    expect(out.text()).toBe(serializeProof(mixed))
    // A follow-up proof (withOriginal) carries the followed proof last.
    const follow = withOriginal(mixed, base) as Proof
    const again = capture()
    await writeProof(follow, again.sink)
    expect(again.text()).toBe(serializeProof(follow))
  })

  it('refuses a field outside the canonical order', async () => {
    await expect(writeProof({ ...proofs[0]![1], extra: 1 } as unknown as Proof, () => undefined)).rejects.toThrow(TypeError)
  })
})

/** Items from strings, as a file's lines: batches of UTF-8 bytes with their bounds. */
async function linesInto(out: ArrayItems, entries: readonly string[], batch: number): Promise<void> {
  for (let from = 0; from < entries.length; from += batch) {
    const part = entries.slice(from, from + batch).map((e) => utf8.encode(e))
    const chunk = new Uint8Array(part.reduce((n, b) => n + b.length + 1, 0))
    const bounds = new Int32Array(2 * part.length)
    let at = 0
    part.forEach((b, k) => {
      chunk.set(b, at)
      bounds[2 * k] = at
      bounds[2 * k + 1] = at + b.length
      at += b.length + 1
      chunk[at - 1] = 0x0a
    })
    await out.utf8Lines(chunk, bounds, part.length)
  }
}

describe('writeProof with a streamed full disclosure = serializeProof of the list in memory', () => {
  for (const n of [1, 37, 20_000]) {
    for (const salted of [false, true]) {
      it(`${n} entries, ${salted ? 'salted' : 'public'}`, async () => {
        const entries = Array.from({ length: n }, (_, i) => (i % 9 === 0 ? `q"${i}"\\ é €` : `p-${i}`))
        const { commitment, secret } = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants: entries, draw: { kind: 'pick', count: 1 }, label: '', ...(salted ? { private: { secret: SECRET } } : {}) })
        const full = withChain(drawFromBlock(commitment, entries, chain[10]!, secret === undefined ? {} : { secret, disclosure: 'full' }))
        const { participants: _list, ...rest } = full
        const out = capture()
        await writeProof(rest as Proof, out.sink, {
          disclosure: 'full',
          entries: (items) => linesInto(items, entries, 333),
          ...(salted ? { salts: async (items: ArrayItems) => { for (let i = 0; i < n; i++) await items.string(Buffer.from(SECRET.saltOf(i)).toString('hex')) } } : {}),
        })
        expect(out.text()).toBe(serializeProof(full))
        // Streamed: the large list arrives in many pieces, never as one string.
        if (n === 20_000) expect(out.pieces()).toBeGreaterThan(20)
      })
    }
  }

  it('a byte under 0x20 in a line is escaped as JSON.stringify escapes it', async () => {
    const out = capture()
    const base = proofsBase()
    await writeProof(base, out.sink, { disclosure: 'full', entries: (items) => linesInto(items, ['a\tb', 'c\u0001'], 10) })
    expect((JSON.parse(out.text()) as { participants: { entries: string[] } }).participants.entries).toEqual(['a\tb', 'c\u0001'])
    expect(out.text()).toContain('"a\\tb"')
    expect(out.text()).toContain('"c\\u0001"')
  })
})

function proofsBase(): Proof {
  const { participants: _p, ...rest } = proofOfKind({ kind: 'pick', count: 1 }, ['x', 'y'])
  return rest as Proof
}
