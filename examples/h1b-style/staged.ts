/**
 * Exact selection probabilities of the H-1B-shaped two-stage draw: stage 1 draws k1 entries among all,
 * weighted without replacement (successive sampling, the rule of `weightedPick`); stage 2 draws k2 among
 * the remaining *advanced* entries, with the same weights. An advanced entry can be selected in either
 * stage; its overall probability is the sum of the two.
 *
 * Method (exponential race, as exact.ts, conditioned on the regular stage's threshold time):
 *
 * 1. Successive weighted sampling is an exponential race: entry i gets E_i ~ Exp(w_i), independent, and a
 *    draw of k takes the first k arrivals. Stage 1 ends at T, the k1-th arrival. By memorylessness the
 *    remaining entries' clocks restart at T, so stage 2 (a fresh weighted draw among the remaining
 *    advanced entries) takes the first k2 advanced arrivals after T.
 * 2. So an advanced entry g of weight w is selected in stage 2 iff T < E_g and fewer than k2 other
 *    advanced entries arrive in (T, E_g). Conditioning on T = s and E_g = s + u:
 *
 *      P2(g) = ∫∫ e^{−ws} · w e^{−wu} · Σ_j w_j e^{−w_j s} · P(exactly k1−1 of the others, j and g
 *              excepted, arrive before s, and fewer than k2 of the other advanced arrive in (s, s+u)) du ds
 *
 *    where j runs over the other entries (the one arriving at s). Given s and u the other entries are
 *    independent, each before s (mark x), in (s, s+u) if advanced (mark y), or later: the probability is
 *    the coefficient [x^{k1−1}] of the sum of [y^j], j < k2, of Π_c φ_c(x, y)^{m_c}, φ_c = p_c x + (1−p_c)
 *    for a bachelor's class and p_c x + (1−p_c)(1−π_c) + (1−p_c)π_c y for an advanced one (p_c = 1−e^{−w_c s},
 *    π_c = 1−e^{−w_c u}, m_c the class's other entries). This is the joint law of the number of stage-1
 *    winners and of the remaining advanced registrations per weight class (a multinomial per class),
 *    summed in closed form by its generating function.
 * 3. The coefficients are taken by Cauchy's formula on circles through the saddle points (a discrete
 *    Fourier sum; with more points than the polynomial's degree it is exact, and otherwise the aliasing
 *    error is below e^{−30} by the number of points chosen from the standard deviations), the tail sum
 *    over y through the factor 1/(1−y) (or 1/(1−1/y) for the upper tail, whichever side is small), and
 *    the two integrals by composite Gauss–Legendre quadrature over windows outside which the integrand's
 *    mass is below 1e−15 (Bernstein's inequality for the counts). The quadrature is the method's one
 *    approximation: below 1e−9 on the tested small cases (8 panels), and at the example's size (2,000
 *    registrations, 2 panels, about 15 s) the 800 advanced probabilities add up to 200 within 0.003,
 *    about 1e−5 per probability (3 panels: within 1e−4, twice the time).
 *
 * The result is checked against enumeration of every outcome with rational arithmetic on small cases
 * and against the sampler over many seeds (test/examples/h1b-staged.test.ts); the run asserts that the
 * probabilities add up to k1 + k2.
 */
import { inclusionProbabilities } from './exact.js'

/** A class of interchangeable entries: how many, their weight, whether stage 2 may select them. */
export interface StagedGroup {
  readonly count: number
  readonly weight: number
  readonly advanced: boolean
}

/** Per group: the probability that one of its entries is selected in stage 1, in stage 2, overall. */
export interface StagedProbability {
  readonly regular: number
  readonly advanced: number
  readonly overall: number
}

const GL_X = [-0.9739065285171717, -0.8650633666889845, -0.6794095682990244, -0.4333953941292472, -0.1488743389816312, 0.1488743389816312, 0.4333953941292472, 0.6794095682990244, 0.8650633666889845, 0.9739065285171717]
const GL_W = [0.0666713443086881, 0.1494513491505806, 0.219086362515982, 0.2692667193099963, 0.2955242247147529, 0.2955242247147529, 0.2692667193099963, 0.219086362515982, 0.1494513491505806, 0.0666713443086881]

/**
 * Composite 10-point Gauss–Legendre nodes and weights over [a, b]: `panels` equal panels, or, when they
 * would be wider than `h` (a window over which the integrand may fall by e^{−1} or more, which a few
 * panels do not resolve), panels from width `h` growing by half each, so that an exponential tail is
 * integrated with the same relative accuracy throughout.
 */
function gauss(a: number, b: number, panels: number, h: number): { x: number; w: number }[] {
  const out: { x: number; w: number }[] = []
  if (!(b > a)) return out
  const edges = [a]
  if ((b - a) / panels <= h) for (let k = 1; k <= panels; k++) edges.push(a + ((b - a) * k) / panels)
  else {
    let width = h / panels
    while (edges.at(-1)! < b) {
      edges.push(Math.min(b, edges.at(-1)! + width))
      width *= 1.5
    }
  }
  for (let e = 0; e + 1 < edges.length; e++) {
    const lo = edges[e]!
    const width = edges[e + 1]! - lo
    for (let q = 0; q < 10; q++) out.push({ x: lo + ((GL_X[q]! + 1) / 2) * width, w: (width / 2) * GL_W[q]! })
  }
  return out
}

/** Bernstein's bound on P(S − mean ≥ t) (or ≤ −t) for a sum of independent indicators of variance v. */
function bernstein(t: number, v: number): number {
  return t <= 0 ? 1 : Math.exp(-(t * t) / (2 * (v + t / 3)))
}

/** The root of an increasing function on [lo, hi] (bisection). */
function solve(f: (x: number) => number, lo: number, hi: number): number {
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2
    if (f(mid) < 0) lo = mid
    else hi = mid
  }
  return (lo + hi) / 2
}

const EPS = 1e-15

/**
 * For `groups` of interchangeable entries, the exact probability that an entry of each group is
 * selected in stage 1 (k1 among all, weighted), in stage 2 (k2 among the remaining advanced, weighted)
 * and overall. `panels` sets the quadrature's panels per window (more for a check, fewer for speed).
 */
export function stagedProbabilities(groups: readonly StagedGroup[], k1: number, k2: number, panels = 3): StagedProbability[] {
  const n = groups.reduce((a, g) => a + g.count, 0)
  const regular = inclusionProbabilities(groups.map((g) => g.count), groups.map((g) => g.weight), k1, 8 * panels)
  const advanced = groups.map(() => 0)
  const advancedTotal = groups.reduce((a, g) => a + (g.advanced ? g.count : 0), 0)
  if (k1 < n && k2 > 0 && advancedTotal > 0) {
    const stage2 = stageTwo(groups, k1, k2, panels)
    groups.forEach((g, i) => (advanced[i] = g.advanced ? stage2[i]! : 0))
  }
  return groups.map((_, i) => ({ regular: regular[i]!, advanced: advanced[i]!, overall: regular[i]! + advanced[i]! }))
}

/** P2 for every advanced group (step 2 of the method). */
function stageTwo(groups: readonly StagedGroup[], k1: number, k2: number, panels: number): number[] {
  const C = groups.length
  const n = groups.reduce((a, g) => a + g.count, 0)
  const m = groups.map((g) => g.count) // every entry; the target g is taken out of its class below
  const w = groups.map((g) => g.weight)
  const adv = groups.map((g) => g.advanced)
  const K = k1 - 1
  const L = k2
  const wMin = Math.min(...w)
  const out = groups.map(() => 0)
  const targets = groups.map((g, i) => (g.advanced && g.count > 0 ? i : -1)).filter((i) => i >= 0)

  // The window of T: outside it, P(T < s) or P(T > s) is below EPS (Bernstein on the count of arrivals).
  const arrivals = (s: number): { mean: number; v: number } => {
    let mean = 0
    let v = 0
    for (let c = 0; c < C; c++) {
      const p = -Math.expm1(-w[c]! * s)
      mean += m[c]! * p
      v += m[c]! * p * (1 - p)
    }
    return { mean, v }
  }
  const sMax = 60 / wMin
  const sLo = solve((s) => {
    const { mean, v } = arrivals(s)
    return bernstein(k1 - 1 - mean, v) - EPS
  }, 0, sMax)
  const sHi = solve((s) => {
    const { mean, v } = arrivals(s)
    return EPS - bernstein(mean - (k1 - 1), v)
  }, sLo, sMax)

  const h = 1 / Math.max(...w)
  for (const { x: s, w: ws } of gauss(sLo, sHi, panels, h)) {
    const q = w.map((wc) => Math.exp(-wc * s)) // not arrived by s
    const p = q.map((qc) => 1 - qc)
    // x-radius: the saddle point, where the tilted mean of the arrivals is K.
    const meanX = (r: number): number => m.reduce((a, mc, c) => a + (mc * p[c]! * r) / (p[c]! * r + q[c]!), 0)
    const rx = K === 0 ? 1e-3 : Math.min(1e3, Math.max(1e-3, solve((r) => meanX(r) - K, 1e-6, 1e6)))
    const varX = m.reduce((a, mc, c) => a + (mc * p[c]! * rx * q[c]!) / (p[c]! * rx + q[c]!) ** 2, 0)
    const Mx = Math.min(n + 1, Math.max(16, Math.ceil(7 * Math.sqrt(varX) + 4)))
    // Mass of the stage-2 window below uLo: every t's integrand is the y-free coefficient (fewer than k2 arrived).
    const yFree = coefficients(m, w, adv, p, q, null, K, rx, Mx, null, targets, s)
    const remaining = (u: number): { mean: number; v: number } => {
      let mean = 0
      let v = 0
      for (let c = 0; c < C; c++) {
        if (!adv[c]) continue
        const r = q[c]! * -Math.expm1(-w[c]! * u)
        mean += m[c]! * r
        v += m[c]! * r * (1 - r)
      }
      return { mean, v }
    }
    const uCap = 40 / Math.min(...targets.map((t) => w[t]!))
    const uLo = solve((u) => {
      const { mean, v } = remaining(u)
      return bernstein(L - mean, v) - EPS
    }, 0, uCap)
    const uHi = solve((u) => {
      const { mean, v } = remaining(u)
      return EPS - bernstein(mean - (L - 1), v)
    }, uLo, uCap)
    targets.forEach((t) => {
      // ∫_0^{uLo} w e^{−wu} du · yFree, exactly.
      out[t] = out[t]! + ws * Math.exp(-w[t]! * s) * -Math.expm1(-w[t]! * uLo) * yFree[t]!
    })
    // Past uHi, fewer than k2 arrivals has probability below EPS, unless there may be fewer than k2 to arrive.
    const { mean: endMean, v: endV } = remaining(uHi)
    const tail = bernstein(endMean - (L - 1), endV) <= 2 * EPS ? [] : gauss(uHi, uCap, panels, h)
    for (const { x: u, w: wu } of [...gauss(uLo, uHi, panels, h), ...tail]) {
      const pi = w.map((wc) => -Math.expm1(-wc * u))
      const c2 = coefficients(m, w, adv, p, q, pi, K, rx, Mx, L, targets, s)
      targets.forEach((t) => {
        out[t] = out[t]! + ws * wu * Math.exp(-w[t]! * s) * w[t]! * Math.exp(-w[t]! * u) * c2[t]!
      })
    }
  }
  return out
}

/**
 * For each target group t: Σ_j w_j e^{−w_j s} [x^K] [y^{<L}] Π_c φ_c^{m_c − δ_{ct} − δ_{cj}} (the sum
 * over the class of the entry arriving at s, j, of the others), by Cauchy's formula. With `pi` null
 * (and `L` null), y = 1: the coefficient without the stage-2 condition.
 */
function coefficients(
  m: readonly number[],
  w: readonly number[],
  adv: readonly boolean[],
  p: readonly number[],
  q: readonly number[],
  pi: readonly number[] | null,
  K: number,
  rx: number,
  Mx: number,
  L: number | null,
  targets: readonly number[],
  s: number,
): number[] {
  const C = m.length
  const out = m.map(() => 0)
  const rate = w.map((wc) => wc * Math.exp(-wc * s)) // density factor of the entry arriving at s
  // The y-circle: through the saddle point of whichever tail is small, clamped so that the aliasing of
  // the geometric factor (r^{±My}) stays below e^{−30}.
  let ry = 1
  let My = 1
  let upper = false
  if (pi !== null && L !== null) {
    // The saddle point of the pair: the x-radius where the arrivals' tilted mean is K given the y-circle,
    // the y-radius where the stage-2 count's tilted mean (with the geometric factor) is at its target.
    const n = m.reduce((a, b) => a + b, 0)
    const constant = (c: number, y: number): number => (adv[c] ? q[c]! * (1 - pi[c]!) + q[c]! * pi[c]! * y : q[c]!)
    const meanX = (r: number, y: number): number => m.reduce((a, mc, c) => a + (mc * p[c]! * r) / (p[c]! * r + constant(c, y)), 0)
    const varX = (r: number, y: number): number => m.reduce((a, mc, c) => a + (mc * p[c]! * r * constant(c, y)) / (p[c]! * r + constant(c, y)) ** 2, 0)
    const chooseY = (x: number): void => {
      const alpha = (c: number): number => p[c]! * x + q[c]! * (1 - pi[c]!)
      const beta = (c: number): number => q[c]! * pi[c]!
      const meanY = (r: number): number => m.reduce((a, mc, c) => (adv[c] ? a + (mc * beta(c) * r) / (alpha(c) + beta(c) * r) : a), 0)
      const varY = (r: number): number => m.reduce((a, mc, c) => (adv[c] ? a + (mc * beta(c) * r * alpha(c)) / (alpha(c) + beta(c) * r) ** 2 : a), 0)
      upper = L - 1 >= meanY(1)
      if (upper) ry = Math.max(1.43, solve((r) => meanY(r) - (L - 1) - r / (r - 1), 1.0001, 1e6))
      else ry = Math.min(0.7, solve((r) => meanY(r) + r / (1 - r) - (L - 1), 1e-9, 0.9999))
      const geo = upper ? ry / (ry - 1) ** 2 : ry / (1 - ry) ** 2
      // A clamped circle is off the saddle by `off`: the points must reach that far too.
      const off = Math.abs(upper ? meanY(ry) - ry / (ry - 1) - (L - 1) : meanY(ry) + ry / (1 - ry) - (L - 1))
      My = Math.max(16, Math.ceil(off + 7 * Math.sqrt(varY(ry) + geo) + 4), Math.ceil(30 / Math.abs(Math.log(ry))))
    }
    chooseY(rx)
    for (let i = 0; i < 2; i++) {
      if (K > 0) rx = Math.min(1e3, Math.max(1e-3, solve((r) => meanX(r, ry) - K, 1e-6, 1e6)))
      Mx = Math.min(n + 1, Math.max(16, Math.ceil(7 * Math.sqrt(varX(rx, ry)) + 4)))
      chooseY(rx)
    }
  }
  const acc = targets.map(() => ({ re: 0, im: 0 }))
  const logPhi = new Float64Array(2 * C)
  const phiRe = new Float64Array(C)
  const phiIm = new Float64Array(C)
  for (let a = 0; a < Mx; a++) {
    const th = (2 * Math.PI * a) / Mx
    const xr = rx * Math.cos(th)
    const xi = rx * Math.sin(th)
    // x^{−K}
    const lxK = -K * Math.log(rx)
    const axK = -K * th
    for (let b = 0; 2 * b <= My; b++) {
      const ps = (2 * Math.PI * b) / My
      const yr = pi === null ? 1 : ry * Math.cos(ps)
      const yi = pi === null ? 0 : ry * Math.sin(ps)
      // φ_c and Σ m_c log φ_c
      let sumRe = 0
      let sumIm = 0
      for (let c = 0; c < C; c++) {
        let re = p[c]! * xr
        let im = p[c]! * xi
        if (adv[c] && pi !== null) {
          re += q[c]! * (1 - pi[c]!) + q[c]! * pi[c]! * yr
          im += q[c]! * pi[c]! * yi
        } else {
          re += q[c]!
        }
        phiRe[c] = re
        phiIm[c] = im
        const lr = 0.5 * Math.log(re * re + im * im)
        const li = Math.atan2(im, re)
        logPhi[2 * c] = lr
        logPhi[2 * c + 1] = li
        sumRe += m[c]! * lr
        sumIm += m[c]! * li
      }
      // The y factor: y^{−(L−1)}/(1−y) (lower tail) or y^{−L}/(1−1/y) (upper tail).
      let fr = 1
      let fi = 0
      let lyr = 0
      let lyi = 0
      if (pi !== null && L !== null) {
        const e = upper ? L : L - 1
        lyr = -e * Math.log(ry)
        lyi = -e * ps
        // 1/(1−y) or 1/(1−1/y) = y/(y−1)
        const dr = upper ? yr - 1 : 1 - yr
        const di = upper ? yi : -yi
        const nr = upper ? yr : 1
        const ni = upper ? yi : 0
        const d2 = dr * dr + di * di
        fr = (nr * dr + ni * di) / d2
        fi = (ni * dr - nr * di) / d2
      }
      // Σ_j m_j rate_j / φ_j over every class (the target's own entry is taken out below).
      let sr = 0
      let si = 0
      for (let c = 0; c < C; c++) {
        if (m[c] === 0) continue
        const d2 = phiRe[c]! * phiRe[c]! + phiIm[c]! * phiIm[c]!
        sr += (m[c]! * rate[c]! * phiRe[c]!) / d2
        si -= (m[c]! * rate[c]! * phiIm[c]!) / d2
      }
      // Conjugate points give conjugate terms (the coefficients are real): count b and My − b once, twice.
      const twice = pi !== null && b > 0 && 2 * b !== My ? 2 : 1
      targets.forEach((t, k) => {
        // Π φ^{m − δ_t} · Σ_j (m_j − δ_{jt}) rate_j / φ_j
        const lr = sumRe - logPhi[2 * t]! + lxK + lyr
        const li = sumIm - logPhi[2 * t + 1]! + axK + lyi
        const d2 = phiRe[t]! * phiRe[t]! + phiIm[t]! * phiIm[t]!
        const str = sr - (rate[t]! * phiRe[t]!) / d2
        const sti = si + (rate[t]! * phiIm[t]!) / d2
        const mag = twice * Math.exp(lr)
        const vr = mag * Math.cos(li)
        const vi = mag * Math.sin(li)
        const tr = vr * str - vi * sti
        const ti = vr * sti + vi * str
        acc[k]!.re += tr * fr - ti * fi
        acc[k]!.im += tr * fi + ti * fr
      })
    }
  }
  const result = targets.map((_, k) => acc[k]!.re / (Mx * My))
  if (pi !== null && upper) {
    const free = coefficients(m, w, adv, p, q, null, K, rx, Mx, null, targets, s)
    targets.forEach((t, k) => (out[t] = free[t]! - result[k]!))
  } else targets.forEach((t, k) => (out[t] = result[k]!))
  return out
}
