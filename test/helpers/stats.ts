/**
 * Chi-square goodness-of-fit helpers for deterministic statistical tests.
 *
 * The critical value is computed from the chi-square distribution itself (regularized upper incomplete
 * gamma function Q(df/2, x/2), inverted by bisection), so any degrees of freedom can be used.
 */

/** ln Γ(x) for x > 0 (Lanczos approximation, g = 7, n = 9; relative error < 1e-13). */
export function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ]
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x)
  x -= 1
  let a = c[0]!
  const t = x + 7.5
  for (let i = 1; i < 9; i++) a += c[i]! / (x + i)
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a)
}

/** Regularized upper incomplete gamma Q(a, x) = Γ(a, x) / Γ(a) (series / continued fraction). */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1
  const lnPre = -x + a * Math.log(x) - lnGamma(a)
  if (x < a + 1) {
    // Series for P(a, x).
    let sum = 1 / a
    let term = sum
    for (let n = 1; n < 10_000; n++) {
      term *= x / (a + n)
      sum += term
      if (Math.abs(term) < Math.abs(sum) * 1e-16) break
    }
    return 1 - sum * Math.exp(lnPre)
  }
  // Lentz continued fraction for Q(a, x).
  const tiny = 1e-300
  let b = x + 1 - a
  let c = 1 / tiny
  let d = 1 / b
  let h = d
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < tiny) d = tiny
    c = b + an / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const del = d * c
    h *= del
    if (Math.abs(del - 1) < 1e-16) break
  }
  return Math.exp(lnPre) * h
}

/** Upper-tail probability P(X >= x) of the chi-square distribution with `df` degrees of freedom. */
export function chiSquarePValue(x: number, df: number): number {
  return gammaQ(df / 2, x / 2)
}

/** Critical value c with P(X >= c) = alpha for the chi-square distribution with `df` degrees of freedom. */
export function chiSquareCritical(df: number, alpha: number): number {
  let lo = 0
  let hi = df + 10
  while (chiSquarePValue(hi, df) > alpha) hi *= 2
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2
    if (chiSquarePValue(mid, df) > alpha) lo = mid
    else hi = mid
  }
  return (lo + hi) / 2
}

/** Pearson's statistic sum((o - e)^2 / e); `expected` defaults to the uniform split of the total. */
export function chiSquareStatistic(observed: readonly number[], expected?: readonly number[]): number {
  const total = observed.reduce((s, v) => s + v, 0)
  let x = 0
  for (let i = 0; i < observed.length; i++) {
    const e = expected ? expected[i]! : total / observed.length
    const d = observed[i]! - e
    x += (d * d) / e
  }
  return x
}

/** Result of {@link chiSquareTest}. */
export interface ChiSquareResult {
  statistic: number
  df: number
  critical: number
  pValue: number
  /** True when the statistic is below the critical value (uniformity / the expected law not rejected). */
  pass: boolean
}

/**
 * Goodness of fit of `observed` counts to `expected` counts (default: uniform), df = cells - 1,
 * at significance `alpha` (default 0.001). Every expected count should be at least 5.
 */
export function chiSquareTest(observed: readonly number[], expected?: readonly number[], alpha = 0.001): ChiSquareResult {
  const statistic = chiSquareStatistic(observed, expected)
  const df = observed.length - 1
  const critical = chiSquareCritical(df, alpha)
  return { statistic, df, critical, pValue: chiSquarePValue(statistic, df), pass: statistic < critical }
}
