import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runCase, vectorParams, type VectorCase } from './vector-cases.js'

const doc = JSON.parse(readFileSync(new URL('../../vectors/sampling.json', import.meta.url), 'utf8')) as { cases: VectorCase[] }

describe('fixed sampling vectors (test/vectors/sampling.json)', () => {
  it('covers every parameter set', () => {
    expect(doc.cases.length).toBe(vectorParams().length)
    expect(doc.cases.length).toBeGreaterThan(30)
  })

  for (const [i, c] of doc.cases.entries()) {
    it(`case ${i}: ${c.op} ${JSON.stringify({ ...c, output: undefined, consumed: undefined, seed: c.seed.slice(0, 8) })}`, () => {
      const { output: _o, consumed: _c, ...params } = c
      expect(JSON.stringify(runCase(params as Parameters<typeof runCase>[0]))).toBe(JSON.stringify(c))
    })
  }

  it('stream vector of the all-zero seed is RFC 8439 A.1 test vector #1', () => {
    const c = doc.cases[0]!
    expect(c.op).toBe('stream')
    expect(c.op === 'stream' && c.output).toBe('76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586')
  })
})
