/**
 * Tiny benchmark harness. Each figure is measured beside a baseline in the same run; results are
 * medians of several timed repetitions after warm-up. Benchmarks never assert: they report.
 */
export interface BenchRow {
  /** What was measured. */
  name: string
  /** The measured value. */
  value: number
  /** Unit of `value`, e.g. `ms`, `requests`, `MiB`. */
  unit: string
  /** The baseline measured in the same run, if any. */
  baseline?: { name: string; value: number }
  /** The goal, in words, e.g. `<= 1.5x baseline` or `< 2 ms`. */
  goal?: string
  /** Whether the goal was met (reported, never asserted). */
  met?: boolean
}

/** Median wall time in milliseconds of `fn` over `runs` runs after `warmup` runs. */
export async function timeMs(fn: () => unknown, runs = 7, warmup = 2): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn()
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

/** Runs `fn` alternately with `baseline` so both see the same machine state; returns both medians. */
export async function timePair(fn: () => unknown, baseline: () => unknown, runs = 7, warmup = 2): Promise<{ value: number; baseline: number }> {
  for (let i = 0; i < warmup; i++) {
    await fn()
    await baseline()
  }
  const a: number[] = []
  const b: number[] = []
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now()
    await baseline()
    b.push(performance.now() - t0)
    t0 = performance.now()
    await fn()
    a.push(performance.now() - t0)
  }
  const med = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!
  return { value: med(a), baseline: med(b) }
}

/** Heap growth in bytes while `fn` runs (needs `--expose-gc` for stable figures; best effort otherwise). */
export function heapDelta(fn: () => unknown): number {
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  const before = process.memoryUsage().heapUsed
  const keep = fn()
  const after = process.memoryUsage().heapUsed
  void keep
  return Math.max(0, after - before)
}

/** Formats rows as a Markdown table. */
export function formatRows(rows: BenchRow[]): string {
  const lines = ['| benchmark | value | baseline | ratio | goal | met |', '|---|---|---|---|---|---|']
  for (const r of rows) {
    const v = `${round(r.value)} ${r.unit}`
    const b = r.baseline ? `${round(r.baseline.value)} ${r.unit} (${r.baseline.name})` : ''
    const ratio = r.baseline && r.baseline.value > 0 ? `${(r.value / r.baseline.value).toFixed(2)}x` : ''
    lines.push(`| ${r.name} | ${v} | ${b} | ${ratio} | ${r.goal ?? ''} | ${r.met === undefined ? '' : r.met ? 'yes' : 'NO'} |`)
  }
  return lines.join('\n')
}

function round(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toFixed(4)
}
