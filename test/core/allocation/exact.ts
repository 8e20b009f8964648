/**
 * Exact outcome distributions of small allocations, by enumeration with rational arithmetic (bigint
 * fractions): the reference the samplers' frequencies over many seeds are tested against.
 */
import { stageTarget, type StageRule } from '../../../src/core/allocation/stages.js'
import type { PreferenceRule } from '../../../src/core/allocation/preference.js'

/** A non-negative fraction n/d in lowest terms. */
export interface Rational {
  readonly n: bigint
  readonly d: bigint
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b]
  return a
}

export function rat(n: bigint, d: bigint): Rational {
  const g = gcd(n, d)
  return { n: n / g, d: d / g }
}
export const ZERO = rat(0n, 1n)
export function add(a: Rational, b: Rational): Rational {
  return rat(a.n * b.d + b.n * a.d, a.d * b.d)
}
export function mul(a: Rational, b: Rational): Rational {
  return rat(a.n * b.n, a.d * b.d)
}
export function toNumber(a: Rational): number {
  return Number(a.n) / Number(a.d)
}

/** Every ordered sequence of `k` distinct draws from `pool` (sequentially, ∝ weight), with its probability. */
function sequences(pool: readonly number[], weight: (i: number) => bigint, k: number): [number[], Rational][] {
  if (k === 0) return [[[], rat(1n, 1n)]]
  const total = pool.reduce((s, i) => s + weight(i), 0n)
  const out: [number[], Rational][] = []
  for (const i of pool) {
    const p = rat(weight(i), total)
    for (const [rest, q] of sequences(pool.filter((x) => x !== i), weight, k - 1)) out.push([[i, ...rest], mul(p, q)])
  }
  return out
}

/**
 * The exact distribution of a staged draw: key = each stage's winners in rank order ("1,3|0"), value =
 * its probability. With `exclude` false, the control: later stages do not exclude earlier winners.
 */
export function exactStages(typeOf: readonly number[], stages: readonly StageRule[], exclude = true): Map<string, Rational> {
  const out = new Map<string, Rational>()
  const walk = (s: number, selected: ReadonlySet<number>, keys: string[], p: Rational): void => {
    if (s === stages.length) {
      const key = keys.join('|')
      out.set(key, add(out.get(key) ?? ZERO, p))
      return
    }
    const st = stages[s]!
    const pool = typeOf.map((_, i) => i).filter((i) => st.eligible[typeOf[i]!] === true && !(exclude && selected.has(i)))
    const k = Math.min(stageTarget(st.count, pool.length), pool.length)
    const weight = st.method === 'pick' ? () => 1n : (i: number) => BigInt(st.weights![typeOf[i]!]!)
    for (const [seq, q] of sequences(pool, weight, k)) walk(s + 1, new Set([...selected, ...seq]), [...keys, seq.join(',')], mul(p, q))
  }
  walk(0, new Set(), [], rat(1n, 1n))
  return out
}

/** Exact probability that entry `i` is a winner of stage `s`, from a distribution of {@link exactStages}. */
export function marginal(dist: ReadonlyMap<string, Rational>, s: number, i: number): Rational {
  let p = ZERO
  for (const [key, q] of dist) if (key.split('|')[s]!.split(',').includes(String(i))) p = add(p, q)
  return p
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]]
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, at) => [...p.slice(0, at), n - 1, ...p.slice(at)]))
}

/**
 * The exact distribution of a preference lottery's allocation: every rank order equally likely (1/n!),
 * the allocation computed by the rule written out plainly. Key: each category's winners, then the
 * general pool's ("2|0,3|1").
 */
export function exactPreferences(typeOf: readonly number[], categories: readonly PreferenceRule[], units: number): Map<string, Rational> {
  const perms = permutations(typeOf.length)
  const out = new Map<string, Rational>()
  const each = rat(1n, BigInt(perms.length))
  for (const order of perms) {
    const taken = new Set<number>()
    const parts = categories.map((c) => {
      const w = order.filter((i) => c.claims[typeOf[i]!] === true && !taken.has(i)).slice(0, c.units)
      for (const i of w) taken.add(i)
      return w
    })
    const general = order.filter((i) => !taken.has(i)).slice(0, units - parts.reduce((a, w) => a + w.length, 0))
    const key = [...parts, general].map((w) => w.join(',')).join('|')
    out.set(key, add(out.get(key) ?? ZERO, each))
  }
  return out
}
