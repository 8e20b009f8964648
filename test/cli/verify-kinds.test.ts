/**
 * The verify bundle's registry (src/cli/verify-kinds.ts, which stands in for src/core/kinds/registry.ts in
 * dist/bin/orbitdraw-verify.cjs only): the same built-in kinds in the same order. Its loads run in the
 * bundle only (`require`); test/cli/bundle.test.ts verifies a proof of each kind through them.
 */
import { describe, expect, it } from 'vitest'
import { BUILT_IN_KINDS, DEFAULT_DRAW_KINDS } from '../../src/core/kinds/registry.js'
import { BUILT_IN_LAZY_KINDS, DEFAULT_DRAW_KINDS as VERIFY_KINDS } from '../../src/cli/verify-kinds.js'

describe('the verify bundle\'s registry of draw kinds', () => {
  it('names the registry\'s built-in kinds in its order, each once', () => {
    expect(BUILT_IN_LAZY_KINDS.map((k) => k.name)).toEqual(BUILT_IN_KINDS.map((k) => k.name))
    expect(VERIFY_KINDS.names).toEqual(DEFAULT_DRAW_KINDS.names)
  })
})
