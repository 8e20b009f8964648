/**
 * "Did you mean --pick?": the closest known word to a misspelled one, by edit distance. A few lines of
 * code instead of a dependency: the lists are short (a command's flags), the words shorter.
 *
 * @module
 */

/**
 * Optimal string alignment distance (Levenshtein with adjacent transpositions): the number of
 * insertions, deletions, substitutions and swaps of two neighbours that turn `a` into `b`.
 *
 * @example
 * ```ts
 * editDistance('pikc', 'pick') // 1 (a swap)
 * editDistance('wieghted', 'weighted') // 1
 * ```
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1
  const cols = b.length + 1
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1)
      d[i]![j] = v
    }
  }
  return d[a.length]![b.length]!
}

/**
 * The known word closest to `word`, when it is close enough to be a typo: at most one edit for words
 * of up to four letters, two up to eight, three beyond (case is ignored); or a unique known word that
 * starts with `word` (an abbreviation, `--weig` for `--weighted`). Otherwise undefined.
 *
 * @example
 * ```ts
 * closest('pik', ['pick', 'shuffle', 'weighted']) // 'pick'
 * closest('zzz', ['pick', 'shuffle']) // undefined
 * ```
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase()
  const limit = w.length <= 4 ? 1 : w.length <= 8 ? 2 : 3
  let best: string | undefined
  let bestDistance = Infinity
  for (const k of known) {
    const dist = editDistance(w, k.toLowerCase())
    if (dist < bestDistance) {
      best = k
      bestDistance = dist
    }
  }
  if (best !== undefined && bestDistance <= limit) return best
  const prefixed = w.length >= 3 ? known.filter((k) => k.toLowerCase().startsWith(w)) : []
  return prefixed.length === 1 ? prefixed[0] : undefined
}
