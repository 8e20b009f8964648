/**
 * `follows` (docs/spec.md, Follow-up draws) is read by its declared shape (the schema kit): every bad
 * input gets the error class, code and path it always had (pinned from the expect*-based reader it
 * replaced), and a valid one reads back as given. `validateFollows`' hint names the builder of the
 * follow-up kind at hand (a re-roll is not told to use panelReplacementDraw).
 */
import { describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { parseFollows, validateFollows, type FollowUpLink } from '../../src/core/follow-up.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'

const ok = { commitment: 'bafy', seed: 'ab'.repeat(32), target: 3, dropped: [1, 2] }
const without = (k: keyof typeof ok): object => Object.fromEntries(Object.entries(ok).filter(([key]) => key !== k))
const CASES: [string, unknown, string, string, string][] = [
  ['absent', undefined, 'ParseError', 'MISSING_FIELD', '$.draw.follows'],
  ['null', null, 'ParseError', 'INVALID_FIELD', '$.draw.follows'],
  ['an array', [], 'ParseError', 'INVALID_FIELD', '$.draw.follows'],
  ['a string', 'x', 'ParseError', 'INVALID_FIELD', '$.draw.follows'],
  ['an extra key', { ...ok, extra: 1 }, 'ParseError', 'UNKNOWN_FIELD', '$.draw.follows.extra'],
  ['no commitment', without('commitment'), 'ParseError', 'MISSING_FIELD', '$.draw.follows.commitment'],
  ['a numeric commitment', { ...ok, commitment: 5 }, 'ParseError', 'INVALID_FIELD', '$.draw.follows.commitment'],
  ['a short seed', { ...ok, seed: 'ab' }, 'ParseError', 'INVALID_FIELD', '$.draw.follows.seed'],
  ['an upper-case seed', { ...ok, seed: 'AB'.repeat(32) }, 'ParseError', 'INVALID_FIELD', '$.draw.follows.seed'],
  ['a numeric seed', { ...ok, seed: 1 }, 'ParseError', 'INVALID_FIELD', '$.draw.follows.seed'],
  ['no seed', without('seed'), 'ParseError', 'MISSING_FIELD', '$.draw.follows.seed'],
  ['target 0', { ...ok, target: 0 }, 'ParseError', 'INVALID_FIELD', '$.draw.follows.target'],
  ['target 1.5', { ...ok, target: 1.5 }, 'ParseError', 'INVALID_FIELD', '$.draw.follows.target'],
  ['target "3"', { ...ok, target: '3' }, 'ParseError', 'INVALID_FIELD', '$.draw.follows.target'],
  ['no target', without('target'), 'ParseError', 'MISSING_FIELD', '$.draw.follows.target'],
  ['dropped not a list', { ...ok, dropped: 3 }, 'ParseError', 'INVALID_FIELD', '$.draw.follows.dropped'],
  ['a dropped index -1', { ...ok, dropped: [1, -1] }, 'ParseError', 'INVALID_FIELD', '$.draw.follows.dropped[1]'],
  ['a dropped index "1"', { ...ok, dropped: ['1'] }, 'ParseError', 'INVALID_FIELD', '$.draw.follows.dropped[0]'],
  ['1,001 dropped', { ...ok, dropped: new Array<number>(1001).fill(1) }, 'LimitExceededError', 'LIMIT_EXCEEDED', '$.draw.follows.dropped'],
  ['no dropped', without('dropped'), 'ParseError', 'MISSING_FIELD', '$.draw.follows.dropped'],
]

describe('parseFollows', () => {
  it.each(CASES)('%s: the same error class, code and path as before the schema kit', (_, follows, cls, code, path) => {
    let thrown: unknown
    try {
      parseFollows((follows === undefined ? {} : { follows }) as never, '$.draw')
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBeDefined()
    expect([(thrown as object).constructor.name, (thrown as { code: string }).code, (thrown as { path: string }).path]).toEqual([cls, code, path])
  })

  it('reads a valid link as given; an index past the list is left to validateFollows (INVALID_DRAW), as before', () => {
    expect(parseFollows({ follows: ok } as never, '$.draw')).toEqual(ok)
    expect(parseFollows({ follows: { ...ok, dropped: [2 ** 40] } } as never, '$.draw').dropped).toEqual([2 ** 40])
  })
})

describe('validateFollows', () => {
  const error = (f: () => unknown): { code: string; path: string; hint: string } => {
    try {
      f()
    } catch (e) {
      const { code, path, hint } = e as { code: string; path: string; hint: string }
      return { code, path, hint }
    }
    throw new Error('accepted')
  }

  it('no link: INVALID_DRAW at follows, the hint naming the builder of the kind at hand', () => {
    for (const builder of ['panelReplacementDraw', 'rerollDraw']) {
      expect(error(() => validateFollows(null as unknown as FollowUpLink, 4, '$.draw', builder))).toEqual({ code: 'INVALID_DRAW', path: '$.draw.follows', hint: `build the draw with ${builder}, which names the original draw` })
    }
  })

  it('a re-roll committed without its link is told to use rerollDraw, not panelReplacementDraw', () => {
    const chain = buildChain(6, 'follow-up hint')
    const participants = ['ann', 'bob', 'cy', 'dee']
    for (const kind of ['reroll', 'weighted-reroll'] as const) {
      const draw = { kind, rule: 'fresh', follows: null, ranking: 'ab'.repeat(32), winners: [1], past: [] }
      const list = kind === 'reroll' ? participants : participants.map((entry) => ({ entry, weight: 1 }))
      const e = error(() => commit({ beacon: BEACON_NAME, target: 5, after: { sequence: 3, block: chain[3]!.cid }, participants: list, draw: draw as never, label: 'hint' }))
      expect(e).toMatchObject({ code: 'INVALID_DRAW', path: '$.draw.follows' })
      expect(e.hint).toContain('rerollDraw')
      expect(e.hint).not.toContain('panelReplacementDraw')
    }
  })
})
