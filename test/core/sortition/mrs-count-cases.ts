/**
 * The instances of `test/vectors/sortition-mrs-counts.json` (generator: scripts/make-mrs-count-vectors.ts):
 * the assembly sizes of `bench/sortition-sizes.bench.ts`, each with every feature counted alone and, where
 * the commit counts two features there, that pair.
 */
export interface MrsCountCase {
  readonly n: number
  readonly features: number
  readonly k: number
  readonly slack: number
  /** Every feature has this many values (else the bench's sizes, 2 to 6). */
  readonly values?: number
  /** Pairs of feature names counted together, beside each feature alone. */
  readonly pairs?: readonly (readonly string[])[]
}

export const MRS_COUNT_CASES: readonly MrsCountCase[] = [
  { n: 2000, features: 6, k: 40, slack: 2 },
  { n: 2000, features: 6, k: 40, slack: 1, pairs: [['origin', 'age']] },
  { n: 2000, features: 6, k: 100, slack: 2 },
  { n: 2000, features: 6, k: 100, slack: 3 },
  { n: 2000, features: 6, k: 150, slack: 3 },
  { n: 3000, features: 6, k: 200, slack: 3, pairs: [['origin', 'gender']] },
  { n: 2000, features: 8, k: 40, slack: 2 },
  { n: 2000, features: 6, k: 40, slack: 2, values: 10 },
  { n: 2000, features: 6, k: 100, slack: 2, values: 10 },
]
