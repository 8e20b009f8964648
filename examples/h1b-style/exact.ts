/**
 * Exact selection probabilities of a weighted draw without replacement (successive sampling, the rule of
 * `weightedPick`), by the exponential-race identity: drawing k entries one by one with probability
 * proportional to weight among those left is the same as giving entry i an arrival time E_i ~ Exp(w_i),
 * independent, and taking the first k arrivals. So an entry of weight w is among the first k with
 * probability ∫₀^∞ w·e^{−ws} · P(fewer than k of the others have arrived by s) ds, where the others
 * arrive by s independently, those of weight w_j each with probability 1 − e^{−w_j s}: a sum of
 * binomials, convolved exactly. The integral is taken by composite Gauss–Legendre quadrature; the
 * probabilities of all entries add up to k, which the caller checks.
 */

/** The pmf of Bin(n, p), in float64, truncated to its first `len` terms. */
function binomialPmf(n: number, p: number, len: number): Float64Array {
  const out = new Float64Array(Math.min(n, len - 1) + 1)
  if (p <= 0) {
    out[0] = 1
    return out
  }
  if (p >= 1) {
    if (n < len) {
      const full = new Float64Array(n + 1)
      full[n] = 1
      return full
    }
    return out
  }
  // log-space start, then the ratio recurrence.
  const logq = Math.log1p(-p)
  let term = Math.exp(n * logq)
  if (term === 0) {
    // underflow: compute each term in log space
    const lp = Math.log(p)
    let lgam = 0
    for (let x = 0; x < out.length; x++) {
      if (x > 0) lgam += Math.log((n - x + 1) / x)
      out[x] = Math.exp(lgam + x * lp + (n - x) * logq)
    }
    return out
  }
  const r = p / (1 - p)
  for (let x = 0; x < out.length; x++) {
    out[x] = term
    term *= ((n - x) / (x + 1)) * r
  }
  return out
}

function convolve(a: Float64Array, b: Float64Array, len: number): Float64Array {
  const out = new Float64Array(Math.min(a.length + b.length - 1, len))
  for (let i = 0; i < a.length; i++) {
    const ai = a[i]!
    if (ai === 0) continue
    const top = Math.min(b.length, out.length - i)
    for (let j = 0; j < top; j++) out[i + j] = out[i + j]! + ai * b[j]!
  }
  return out
}

// 10-point Gauss–Legendre nodes and weights on [-1, 1].
const GL_X = [-0.9739065285171717, -0.8650633666889845, -0.6794095682990244, -0.4333953941292472, -0.1488743389816312, 0.1488743389816312, 0.4333953941292472, 0.6794095682990244, 0.8650633666889845, 0.9739065285171717]
const GL_W = [0.0666713443086881, 0.1494513491505806, 0.219086362515982, 0.2692667193099963, 0.2955242247147529, 0.2955242247147529, 0.2692667193099963, 0.219086362515982, 0.1494513491505806, 0.0666713443086881]

/**
 * For groups of `counts[j]` entries of weight `weights[j]`, the probability that a given entry of group
 * g is among the first k of a weighted draw without replacement, for every g.
 */
export function inclusionProbabilities(counts: readonly number[], weights: readonly number[], k: number, panels = 16): number[] {
  const n = counts.reduce((a, b) => a + b, 0)
  if (k >= n) return counts.map(() => 1)
  // The integrand is negligible once k of the others have arrived with overwhelming probability: past the
  // time s at which k + 12·sqrt(k) of them are expected (a binomial tail beyond 12 standard deviations),
  // or, when that is more than there are, past 40 mean lifetimes of the lightest weight (e^-40 < 1e-17).
  const expected = (s: number): number => counts.reduce((a, c, j) => a + c * (1 - Math.exp(-weights[j]! * s)), 0)
  const goal = k + 12 * Math.sqrt(k)
  let end = 40 / Math.min(...weights)
  if (goal < n - 1) {
    let lo = 0
    let hi = end
    for (let i = 0; i < 200; i++) {
      const mid = (lo + hi) / 2
      if (expected(mid) < goal) lo = mid
      else hi = mid
    }
    end = hi
  }
  const out = counts.map(() => 0)
  const h = end / panels
  for (let p = 0; p < panels; p++) {
    for (let q = 0; q < 10; q++) {
      const s = p * h + ((GL_X[q]! + 1) / 2) * h
      const pmfs = counts.map((c, j) => ({ c, pr: 1 - Math.exp(-weights[j]! * s), j }))
      counts.forEach((_, g) => {
        let dist: Float64Array = new Float64Array([1])
        for (const { c, pr, j } of pmfs) dist = convolve(dist, binomialPmf(j === g ? c - 1 : c, pr, k), k)
        let fewer = 0
        for (let x = 0; x < Math.min(dist.length, k); x++) fewer += dist[x]!
        out[g] = out[g]! + (h / 2) * GL_W[q]! * weights[g]! * Math.exp(-weights[g]! * s) * fewer
      })
    }
  }
  return out
}
