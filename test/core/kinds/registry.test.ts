/**
 * The draw-kind registry and the kind interface, end to end with a kind the library does not know:
 * `dice` (test/core/kinds/dice.ts), registered only here with withKinds. commit -> drawFromBlock ->
 * verify; a tampered outcome fails the named check; without the kind the proof is refused.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BUILT_IN_KINDS, DEFAULT_DRAW_KINDS, withKinds } from '../../../src/core/kinds/registry.js'
import { commit, parseCommitment } from '../../../src/core/commitment.js'
import { computeOutcome } from '../../../src/core/outcome.js'
import { DRAW_KINDS } from '../../../src/core/draw-spec.js'
import { drawFromBlock } from '../../../src/core/draw.js'
import { InvalidInputError, ParseError } from '../../../src/core/errors.js'
import { parseProof, type Proof } from '../../../src/core/proof.js'
import { pickKind } from '../../../src/core/kinds/pick.js'
import { verify } from '../../../src/core/verify.js'
import { type AnyDrawKind } from '../../../src/core/kinds/kind.js'
import { describeOutcome } from '../../../src/cli/commands/describe.js'
import { drawSpecFromFlags, kindOptions, kindsHelp } from '../../../src/cli/kinds.js'
import { UsageError } from '../../../src/cli/exit-codes.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { diceDraw, diceKind, facesOf } from './dice.js'

const CHAIN = buildChain(12, 'kinds')
const TARGET = 10
const AFTER = 7
const kinds = withKinds([diceKind])
const base = { beacon: BEACON_NAME, target: TARGET, after: { sequence: AFTER, block: CHAIN[AFTER]!.cid }, label: 'dice example' }

function diceProof(rolls = 5, sides = 6): Proof {
  const { commitment } = commit({ ...base, draw: diceDraw(rolls, sides), kinds })
  return drawFromBlock(commitment, undefined, CHAIN[TARGET]!, { kinds })
}

/** The proof as plain JSON, with its outcome's faces replaced. */
function withFaces(proof: Proof, faces: unknown): unknown {
  const j = JSON.parse(JSON.stringify(proof)) as { outcome: { faces: unknown } }
  j.outcome.faces = faces
  return j
}

const failed = (r: { checks: readonly { name: string; ok: boolean }[] }): string[] => r.checks.filter((c) => !c.ok).map((c) => c.name)

describe('draw kinds: the registry', () => {
  it('is the only list of kinds: the built-in names, in order, and DRAW_KINDS agrees', () => {
    expect(DEFAULT_DRAW_KINDS.names).toEqual(['shuffle', 'pick', 'range', 'weighted', 'panel', 'panel-lottery', 'panel-replacement', 'tiebreak', 'stages', 'preference-lottery', 'reroll', 'weighted-reroll'])
    expect(BUILT_IN_KINDS.map((k) => k.name)).toEqual(DEFAULT_DRAW_KINDS.names)
    expect(DRAW_KINDS).toEqual(DEFAULT_DRAW_KINDS.names)
  })

  it('withKinds adds kinds without changing the default registry', () => {
    expect(kinds.names).toEqual(['shuffle', 'pick', 'range', 'weighted', 'panel', 'panel-lottery', 'panel-replacement', 'tiebreak', 'stages', 'preference-lottery', 'reroll', 'weighted-reroll', 'dice'])
    expect(kinds.get('dice')).toBe(diceKind)
    expect(DEFAULT_DRAW_KINDS.get('dice')).toBeUndefined()
    for (const odd of ['constructor', '__proto__', 'toString', 7, null, undefined]) expect(kinds.get(odd)).toBeUndefined()
  })

  it('refuses a second kind of a taken name (a built-in kind cannot be replaced) and kinds without a valid name', () => {
    const impostor = { ...pickKind } as AnyDrawKind
    expect(() => withKinds([impostor])).toThrow(expect.objectContaining({ code: 'DUPLICATE_DRAW_KIND', path: '$.kinds[12].name' }))
    expect(() => withKinds([diceKind], kinds)).toThrow(expect.objectContaining({ code: 'DUPLICATE_DRAW_KIND' }))
    for (const name of ['', 'Dice', '1dice', 'dice roll', 'x'.repeat(33)]) {
      expect(() => withKinds([{ ...diceKind, name } as AnyDrawKind])).toThrow(expect.objectContaining({ code: 'INVALID_DRAW_KIND' }))
    }
    expect(() => withKinds([{ ...diceKind, participants: 'some' } as unknown as AnyDrawKind])).toThrow(expect.objectContaining({ code: 'INVALID_DRAW_KIND', path: '$.kinds[12].participants' }))
    expect(() => withKinds(diceKind as unknown as AnyDrawKind[])).toThrow(InvalidInputError)
  })
})

describe('draw kinds: a kind of the user (dice) end to end', () => {
  it('commit -> drawFromBlock -> verify: the proof verifies, with the kind-specific outcome check', async () => {
    const proof = diceProof(5, 6)
    expect(proof.participants).toBeUndefined()
    const faces = facesOf(proof.outcome)
    expect(faces).toHaveLength(5)
    for (const f of faces) expect(f >= 1 && f <= 6).toBe(true)
    const r = await verify(JSON.stringify(proof), { ...ENGINE_ONLY, kinds })
    expect(failed(r)).toEqual([])
    expect(r.verdict).toBe('verified-relaxed')
    expect(r.checks.find((c) => c.name === 'outcome')?.detail).toBe(`the faces ${faces.join(', ')} follow from the seed`)
    expect(r.checks.find((c) => c.name === 'participants')).toMatchObject({ ok: true, detail: 'a dice draw has no participants' })
    // the commitment encodes the kind's parameters canonically, and parses back with the registry
    const parsed = parseCommitment(proof.commitment, { kinds })
    expect(parsed.draw).toEqual({ kind: 'dice', rolls: 5, sides: 6 })
    expect(proof.commitment.draw).toEqual({ kind: 'dice', rolls: 5, sides: 6 })
  })

  it('a tampered face fails the named check outcome, and only it', async () => {
    const proof = diceProof(5, 6)
    const faces = facesOf(proof.outcome)
    faces[2] = (faces[2]! % 6) + 1
    const r = await verify(withFaces(proof, faces), { ...ENGINE_ONLY, kinds })
    expect(r.ok).toBe(false)
    expect(failed(r)).toEqual(['outcome'])
    expect(r.checks.find((c) => c.name === 'outcome')?.detail).toMatch(/^throw 3 is \d, the proof claims \d$/)
  })

  it('a claimed outcome of the wrong size fails outcome before anything is recomputed', async () => {
    const proof = diceProof(5, 6)
    const faces = facesOf(proof.outcome)
    for (const claimed of [faces.slice(0, 4), [...faces, 1]]) {
      const r = await verify(withFaces(proof, claimed), { ...ENGINE_ONLY, kinds })
      expect(failed(r)).toEqual(['outcome'])
      expect(r.checks.find((c) => c.name === 'outcome')?.detail).toBe(`the commitment throws 5 time(s) but the proof carries ${claimed.length} face(s): the outcome is not recomputed`)
    }
  })

  it('a malformed outcome or parameter is a format failure with the path of the bad field', async () => {
    const proof = diceProof()
    const r = await verify(withFaces(proof, [1, 0, 2, 3, 4]), { ...ENGINE_ONLY, kinds })
    expect(failed(r)).toEqual(['format'])
    expect(() => parseProof(withFaces(proof, [1, 'six']), { kinds })).toThrow(expect.objectContaining({ code: 'INVALID_FIELD', path: '$.outcome.faces[1]' }))
    const j = JSON.parse(JSON.stringify(proof.commitment)) as { draw: Record<string, unknown> }
    j.draw.loaded = true
    expect(() => parseCommitment(j, { kinds })).toThrow(expect.objectContaining({ code: 'UNKNOWN_FIELD', path: '$.draw.loaded' }))
    delete j.draw.loaded
    j.draw.sides = 1
    expect(() => parseCommitment(j, { kinds })).toThrow(ParseError)
  })

  it('parameters are validated with typed errors and paths at commit', () => {
    expect(() => commit({ ...base, draw: diceDraw(3, 1), kinds })).toThrow(expect.objectContaining({ code: 'INVALID_DRAW', path: '$.draw.sides' }))
    expect(() => commit({ ...base, draw: diceDraw(0, 6), kinds })).toThrow(expect.objectContaining({ code: 'INVALID_DRAW', path: '$.draw.rolls' }))
    expect(() => commit({ ...base, participants: ['a', 'b'], draw: diceDraw(1, 6), kinds })).toThrow(expect.objectContaining({ code: 'UNEXPECTED_PARTICIPANTS' }))
  })

  it('a verifier that does not know the kind refuses the proof (format), never guesses', async () => {
    const proof = diceProof()
    const r = await verify(proof, ENGINE_ONLY)
    expect(r.ok).toBe(false)
    expect(failed(r)).toEqual(['format'])
    expect(r.checks[1]?.detail).toContain('unknown outcome kind "dice"')
    expect(() => parseCommitment(proof.commitment)).toThrow(expect.objectContaining({ code: 'INVALID_FIELD', path: '$.draw.kind' }))
    const bogus = await verify(proof, { ...ENGINE_ONLY, kinds: { names: [] } as unknown as typeof kinds })
    expect(failed(bogus)).toEqual(['policy'])
  })

  it('compute: m faces in 1..s, deterministic in the seed (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 2, max: 1000 }), (seed, rolls, sides) => {
        const a = facesOf(computeOutcome(seed, diceDraw(rolls, sides), 0, undefined, kinds))
        const b = facesOf(computeOutcome(seed, diceDraw(rolls, sides), 0, undefined, kinds))
        expect(a).toEqual(b)
        expect(a).toHaveLength(rolls)
        for (const f of a) expect(Number.isInteger(f) && f >= 1 && f <= sides).toBe(true)
      }),
      { seed: 12, numRuns: 200 },
    )
  })
})

describe('draw kinds: CLI and display from the registry', () => {
  it('commit flags, help and parsing come from the kinds', () => {
    expect(kindOptions(kinds)).toMatchObject({ dice: { type: 'string' }, sides: { type: 'string' }, pick: { type: 'string' }, range: { type: 'string' } })
    expect(kindsHelp(kinds)).toContain('--dice M --sides S')
    expect(drawSpecFromFlags({ dice: '3', sides: '20' }, 'commit', kinds).spec).toEqual({ kind: 'dice', rolls: 3, sides: 20 })
    expect(() => drawSpecFromFlags({ dice: '3', pick: '1' }, 'commit', kinds)).toThrow(/choose one draw kind, not --pick and --dice/)
    expect(() => drawSpecFromFlags({ pick: '1', sides: '6' }, 'commit', kinds)).toThrow(/--sides go with --dice/)
    expect(() => drawSpecFromFlags({ dice: 'x' }, 'commit', kinds)).toThrow(UsageError)
    expect(() => drawSpecFromFlags({ dice: '3' }, 'commit')).toThrow(/say what to draw/)
  })

  it('two kinds declaring the same flag are refused', () => {
    const clash = { ...diceKind, name: 'dice2', cli: { ...diceKind.cli!, flag: 'dice2', options: { dice2: 'string', count: 'string' } } } as AnyDrawKind
    expect(() => kindOptions(withKinds([clash]))).toThrow(/--count twice/)
    // Input files of one format may be shared (--pool of panel and panel-lottery), but not as another format.
    expect(kindOptions()).toMatchObject({ pool: { type: 'string' }, quotas: { type: 'string' } })
    const poolClash = { ...diceKind, name: 'dice3', cli: { ...diceKind.cli!, flag: 'dice3', options: { dice3: 'string', pool: 'string' }, files: { pool: 'sortition-quotas' } } } as AnyDrawKind
    expect(() => kindOptions(withKinds([poolClash]))).toThrow(/--pool twice/)
  })

  it('the outcome prints through the kind display', () => {
    const proof = diceProof(3, 6)
    const faces = facesOf(proof.outcome)
    expect(describeOutcome(proof.outcome, '', kinds)).toEqual([`faces: ${faces.join(', ')}`])
  })
})
