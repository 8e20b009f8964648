/**
 * A registry whose kinds are loaded on first use (src/core/kinds/lazy.ts: what the CLI's verify bundle
 * holds the built-in kinds in): a kind is made the first time it is asked for, once; its name and order
 * are known before; `list` loads them all; a load that returns another kind is refused.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BUILT_IN_KINDS, DEFAULT_DRAW_KINDS } from '../../../src/core/kinds/registry.js'
import { lazyDrawKinds, type LazyDrawKind } from '../../../src/core/kinds/lazy.js'
import { type AnyDrawKind } from '../../../src/core/kinds/kind.js'
import { parseCommitment } from '../../../src/core/commitment.js'
import { verify } from '../../../src/core/verify.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'

const vectors = JSON.parse(readFileSync(new URL('../../vectors/draws.json', import.meta.url), 'utf8')) as { cases: { name: string; proof: { commitment: unknown } }[] }

/** The built-in kinds as lazy entries, with the names of those loaded so far, in load order. */
function counted(): { entries: LazyDrawKind[]; loads: string[] } {
  const loads: string[] = []
  const entries = BUILT_IN_KINDS.map((k): LazyDrawKind => ({ name: k.name, load: () => (loads.push(k.name), k as AnyDrawKind) }))
  return { entries, loads }
}

describe('draw kinds: a registry loaded on first use', () => {
  it('knows its names in order without loading a kind; get loads the kind asked for, once', () => {
    const { entries, loads } = counted()
    const kinds = lazyDrawKinds(entries)
    expect(kinds.names).toEqual(DEFAULT_DRAW_KINDS.names)
    expect(loads).toEqual([])
    expect(kinds.get('pick')).toBe(DEFAULT_DRAW_KINDS.get('pick'))
    expect(kinds.get('pick')).toBe(DEFAULT_DRAW_KINDS.get('pick'))
    expect(loads).toEqual(['pick'])
    for (const odd of ['dice', 'constructor', '__proto__', 'toString', 7, null, undefined]) expect(kinds.get(odd)).toBeUndefined()
    expect(loads).toEqual(['pick'])
    expect(kinds.list).toEqual(BUILT_IN_KINDS)
    expect(kinds.list).toBe(kinds.list)
    expect(loads).toEqual(['pick', ...DEFAULT_DRAW_KINDS.names.filter((n) => n !== 'pick')])
    expect(Object.isFrozen(kinds) && Object.isFrozen(kinds.list) && Object.isFrozen(kinds.names)).toBe(true)
  })

  it('parses a commitment and verifies a proof loading only the proof\'s kind', async () => {
    const { entries, loads } = counted()
    const kinds = lazyDrawKinds(entries)
    const vector = vectors.cases.find((c) => c.name === 'tiebreak-8')!
    expect(parseCommitment(vector.proof.commitment, { kinds }).draw).toEqual(parseCommitment(vector.proof.commitment).draw)
    expect(loads).toEqual(['tiebreak'])
    const r = await verify(vector.proof, { ...ENGINE_ONLY, kinds: lazyDrawKinds(counted().entries) })
    expect(r.verdict).toBe('verified-relaxed')
    expect(r.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([])
  })

  it('refuses two entries of one name, a loaded kind of another name and an invalid loaded kind', () => {
    const pick = DEFAULT_DRAW_KINDS.get('pick')!
    expect(() => lazyDrawKinds([{ name: 'pick', load: () => pick }, { name: 'pick', load: () => pick }])).toThrow(expect.objectContaining({ code: 'DUPLICATE_DRAW_KIND' }))
    const wrong = lazyDrawKinds([{ name: 'shuffle', load: () => pick }])
    expect(() => wrong.get('shuffle')).toThrow(expect.objectContaining({ code: 'INVALID_DRAW_KIND', detail: 'the kind loaded for "shuffle" is named "pick"' }))
    expect(() => wrong.list).toThrow(expect.objectContaining({ code: 'INVALID_DRAW_KIND' }))
    const invalid = lazyDrawKinds([{ name: 'pick', load: () => ({ ...pick, participants: 'some' }) as unknown as AnyDrawKind }])
    expect(() => invalid.get('pick')).toThrow(expect.objectContaining({ code: 'INVALID_DRAW_KIND' }))
  })
})
