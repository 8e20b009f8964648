/**
 * Untrusted text, made visible. Proof-derived strings (entries, labels, names, details quoting
 * them) may hide bidirectional controls that reorder what the reader sees (a "Trojan Source" entry
 * such as `alice\u202Eelgoog` shows as `alicegoogle`), zero-width characters that make two entries
 * look the same, control characters, or a space other than U+0020 (`Ann` + U+00A0 + `Lee` looks like
 * `Ann Lee`, a different entry). {@link splitInvisible} cuts such a string into plain runs and those
 * characters, which the page draws as visible `⟨U+202E⟩` marks; {@link markedText} gives the same
 * marks as plain text, for attributes.
 *
 * @module
 */
import { LINE_BREAKS, LOOKALIKE_SPACES, markedCharacters, NONCHARACTERS } from '../core/display-text.js'
import { invisibleCharacterName } from '../core/entry-text.js'

/**
 * A run of ordinary text, or one marked character: `hidden` is the character, `code` its code point,
 * `name` its name, and `space` is true for a space other than U+0020 (it shows as one, where the other
 * marked characters show as nothing or move the text around them).
 */
export type TextPart = { readonly text: string } | { readonly hidden: string; readonly code: string; readonly name: string; readonly space?: true }

/** The page's marked characters (`markedCharacters`, shared with the command's terminal output), built on first use, so that a bundle that only formats times (the worker) leaves it out. */
let hidden: RegExp | undefined
function hiddenCharacters(): RegExp {
  hidden ??= markedCharacters()
  return hidden
}

const codeOf = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`

/** Splits `s` into ordinary runs and marked characters. */
export function splitInvisible(s: string): TextPart[] {
  const parts: TextPart[] = []
  // one part per distinct character, shared by its occurrences (the parts are read-only)
  const seen = new Map<number, TextPart>()
  let last = 0
  for (const m of s.matchAll(hiddenCharacters())) {
    const at = m.index
    if (at > last) parts.push({ text: s.slice(last, at) })
    const cp = m[0].codePointAt(0)!
    let part = seen.get(cp)
    if (part === undefined) {
      const space = LOOKALIKE_SPACES[cp]
      const name = space ?? invisibleCharacterName(cp) ?? LINE_BREAKS[cp] ?? NONCHARACTERS[cp] ?? (cp >= 0xd800 && cp <= 0xdfff ? 'lone surrogate' : 'control character')
      part = space === undefined ? { hidden: m[0], code: codeOf(cp), name } : { hidden: m[0], code: codeOf(cp), name, space: true }
      seen.set(cp, part)
    }
    parts.push(part)
    last = at + m[0].length
  }
  if (last < s.length) parts.push({ text: s.slice(last) })
  return parts
}

/**
 * `s` as the page shows it, in plain text: each marked character replaced by its `⟨U+202E⟩` mark. For
 * attributes (a tooltip, a screen reader's label), which cannot hold the marks' elements.
 */
export function markedText(s: string): string {
  return s.replace(hiddenCharacters(), (c) => `⟨${codeOf(c.codePointAt(0)!)}⟩`)
}

/**
 * `text` shortened to at most `max` UTF-16 units with a final `…`, cut between grapheme clusters: never
 * inside a surrogate pair (half of an emoji would show as a lone surrogate's mark, a character the
 * text does not hold), nor inside a cluster (a family emoji cut after its joiner would end in a marked
 * U+200D). For a box's status line; the full text is in its title and the checks list.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  let end = 0
  for (const { index, segment } of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)) {
    if (index + segment.length > max - 1) break
    end = index + segment.length
  }
  return `${text.slice(0, end)}…`
}

/** Formats a Unix time in seconds as `YYYY-MM-DD HH:MM:SS UTC`. */
export function formatTime(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return 'unknown'
  const d = new Date(seconds * 1000)
  if (Number.isNaN(d.getTime())) return 'unknown'
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

/**
 * A Unix time in UTC and in the reader's own time zone: `2026-05-01 12:00:00 UTC (1 May 2026,
 * 14:00:00 CEST, your local time)`, the local part in the page's language.
 */
export function formatTimeBoth(seconds: number | undefined, lang: string, localWord: string): string {
  const utc = formatTime(seconds)
  if (utc === 'unknown' || seconds === undefined) return utc
  try {
    const local = new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' }).format(new Date(seconds * 1000))
    // the page's own spaces are plain ones: a U+202F that Intl puts before "PM" is not marked as a look-alike
    return `${utc} (${local.replace(/\p{Zs}/gu, ' ')}, ${localWord})`
  } catch {
    return utc
  }
}
