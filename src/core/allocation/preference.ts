/**
 * Preference lottery (draw kind `preference-lottery`), in the manner of Bloom Housing: one uniform rank
 * over every application; categories, in their committed priority order, each fill their set-aside
 * units from the applications that claim them, best rank first, among those not yet allocated; the units
 * left (the general units and every set-aside unit not filled) go to the general pool by rank
 * (docs/spec.md, Preference lottery).
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { shuffleIndices } from '../random/shuffle.js'
import type { RandomStream } from '../random/stream.js'

/**
 * One preference category as the sampler takes it.
 * @category Allocation
 */
export interface PreferenceRule {
  /** Per type: whether its applications claim the category. */
  readonly claims: readonly boolean[]
  /** Units set aside for it. */
  readonly units: number
}

/**
 * A preference lottery's result.
 * @category Allocation
 */
export interface PreferenceResult {
  /** Every application (committed index) in rank order: `order[0]` has rank 1. */
  readonly order: Uint32Array
  /** Per category, in priority order. */
  readonly categories: readonly {
    /** Its claimants in rank order. */
    readonly ranked: readonly number[]
    /** Those allocated one of its units, in rank order (at most its units). */
    readonly winners: readonly number[]
  }[]
  /** The general pool: its units (total minus the set-aside units filled) and its winners in rank order. */
  readonly general: { readonly units: number; readonly winners: readonly number[] }
}

/**
 * Ranks every application with one shuffle (`shuffleIndices(stream, n)`), then fills the categories
 * in order and the general pool with what is left.
 *
 * @param stream - the random stream of the seed.
 * @param typeOf - the type of each committed application.
 * @param categories - the categories in priority order.
 * @param units - the total units (at least the sum of the set-asides).
 * @throws {@link InvalidInputError} `INVALID_ARGUMENT` when the set-asides exceed the total.
 * @category Allocation
 */
export function drawPreferences(stream: RandomStream, typeOf: ArrayLike<number>, categories: readonly PreferenceRule[], units: number): PreferenceResult {
  const setAside = categories.reduce((a, c) => a + c.units, 0)
  if (!Number.isSafeInteger(units) || setAside > units) throw new InvalidInputError('INVALID_ARGUMENT', `the categories set aside ${setAside} units of ${units}`, 'set aside at most the total units')
  const n = typeOf.length
  const order = shuffleIndices(stream, n)
  const allocated = new Uint8Array(n)
  let filled = 0
  const cats = categories.map((c) => {
    const ranked: number[] = []
    const winners: number[] = []
    for (let r = 0; r < n; r++) {
      const i = order[r]!
      if (c.claims[typeOf[i]!] !== true) continue
      ranked.push(i)
      if (winners.length < c.units && allocated[i] === 0) {
        winners.push(i)
        allocated[i] = 1
      }
    }
    filled += winners.length
    return { ranked, winners }
  })
  const generalUnits = units - filled
  const general: number[] = []
  for (let r = 0; r < n && general.length < generalUnits; r++) {
    const i = order[r]!
    if (allocated[i] === 0) {
      general.push(i)
      allocated[i] = 1
    }
  }
  return { order, categories: cats, general: { units: generalUnits, winners: general } }
}
