/**
 * The kind-specific parts of the published schemas come from the registry (rule: the registry is the
 * only list of kinds): every kind's declared fields, a user kind's as strictly as a built-in one's;
 * a kind that is not registered is refused by the union.
 */
import { describe, expect, it } from 'vitest'
import { commitmentShapeOf, DEFAULT_DRAW_KINDS, OrbitdrawError, parseShape, proofShapeOf, withKinds } from '../../../src/core/index.js'
import { drawShapeOf, outcomeShapeOf } from '../../../src/core/schema/draw.js'
import { jsonSchemaFiles } from '../../../scripts/json-schemas.js'
import { diceKind } from './dice.js'
import { thrownBy } from '../../helpers/thrown.js'

const failure = (f: () => unknown): OrbitdrawError => thrownBy(f, OrbitdrawError)

describe('draw-kind shapes come from the registry', () => {
  it('every built-in kind declares its draw and outcome shapes, and the published schemas name every kind', () => {
    for (const kind of DEFAULT_DRAW_KINDS.list) {
      expect(kind.drawShape, kind.name).toBeDefined()
      expect(kind.outcomeShape, kind.name).toBeDefined()
    }
    const files = Object.fromEntries(jsonSchemaFiles().map((f) => [f.file, f.text]))
    for (const file of ['commitment.schema.json', 'proof.schema.json']) {
      for (const name of DEFAULT_DRAW_KINDS.names) expect(files[file], `${file} ${name}`).toContain(`"const": "${name}"`)
    }
  })

  it("a user kind's declared fields are its shapes in the registry's unions, as strict as the built-in ones", () => {
    const kinds = withKinds([diceKind])
    expect(parseShape(drawShapeOf(kinds), { kind: 'dice', rolls: 3, sides: 6 })).toEqual({ kind: 'dice', rolls: 3, sides: 6 })
    expect(parseShape(outcomeShapeOf(kinds), { kind: 'dice', faces: [1, 6] })).toEqual({ kind: 'dice', faces: [1, 6] })
    const sides = failure(() => parseShape(drawShapeOf(kinds), { kind: 'dice', rolls: 3, sides: 1 }))
    expect([sides.code, sides.path]).toEqual(['INVALID_FIELD', '$.sides'])
    const loaded = failure(() => parseShape(drawShapeOf(kinds), { kind: 'dice', rolls: 3, sides: 6, loaded: true }))
    expect([loaded.code, loaded.path]).toEqual(['UNKNOWN_FIELD', '$.loaded'])
    const bad = failure(() => parseShape(drawShapeOf(kinds), { kind: 'pick', count: 0 }))
    expect([bad.code, bad.path]).toEqual(['INVALID_FIELD', '$.count'])
    const extra = failure(() => parseShape(outcomeShapeOf(kinds), { kind: 'pick', winners: [], extra: 1 }))
    expect([extra.code, extra.path]).toEqual(['UNKNOWN_FIELD', '$.extra'])
  })

  it('a kind that is not registered is refused, naming the registered ones', () => {
    const unknown = failure(() => parseShape(drawShapeOf(DEFAULT_DRAW_KINDS), { kind: 'dice', rolls: 3, sides: 6 }))
    expect([unknown.code, unknown.path, unknown.detail]).toEqual(['INVALID_FIELD', '$.kind', 'unknown draw kind "dice"'])
    expect(unknown.hint).toBe(`use one of ${DEFAULT_DRAW_KINDS.names.join(', ')}`)
    const outcome = failure(() => parseShape(outcomeShapeOf(DEFAULT_DRAW_KINDS), { kind: 'dice', faces: [] }))
    expect([outcome.code, outcome.path]).toEqual(['INVALID_FIELD', '$.kind'])
  })

  it('the document shapes built from a registry with a user kind accept its draw', () => {
    const kinds = withKinds([diceKind])
    const commitment = { version: 1, after: { block: { '/': 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' }, sequence: 1 }, draw: { kind: 'dice', rolls: 2, sides: 6 }, beacon: 'k2k4r8lvomw737sajfnpav0dpeernugnryng50uheyk1k39lursmn09f', target: 3, label: 'x' }
    expect(parseShape(commitmentShapeOf(kinds), commitment).draw).toEqual({ kind: 'dice', rolls: 2, sides: 6 })
    expect(failure(() => parseShape(commitmentShapeOf(DEFAULT_DRAW_KINDS), commitment)).path).toBe('$.draw.kind')
    expect(proofShapeOf(kinds)).not.toBe(proofShapeOf(DEFAULT_DRAW_KINDS))
  })
})
