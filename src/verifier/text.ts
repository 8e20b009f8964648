/**
 * Untrusted text, made visible. Proof-derived strings (entries, labels, names, details quoting
 * them) may hide bidirectional controls that reorder what the reader sees (a "Trojan Source" entry
 * such as `alice\u202Eelgoog` shows as `alicegoogle`), zero-width characters that make two entries
 * look the same, or control characters. {@link splitInvisible} cuts such a string into plain runs
 * and the hidden characters, which the page draws as visible `⟨U+202E⟩` marks.
 *
 * @module
 */

/** A run of ordinary text, or one hidden character with its code point and name. */
export type TextPart = { readonly text: string } | { readonly hidden: string; readonly code: string; readonly name: string }

const NAMES: Record<number, string> = {
  0x00ad: 'soft hyphen',
  0x034f: 'combining grapheme joiner',
  0x061c: 'Arabic letter mark',
  0x115f: 'Hangul choseong filler',
  0x1160: 'Hangul jungseong filler',
  0x17b4: 'Khmer vowel inherent aq',
  0x17b5: 'Khmer vowel inherent aa',
  0x180e: 'Mongolian vowel separator',
  0x200b: 'zero width space',
  0x200c: 'zero width non-joiner',
  0x200d: 'zero width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2061: 'function application',
  0x2062: 'invisible times',
  0x2063: 'invisible separator',
  0x2064: 'invisible plus',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0x3164: 'Hangul filler',
  0xfeff: 'zero width no-break space',
  0xffa0: 'halfwidth Hangul filler',
}

/** Names of the invisible ranges past the BMP (besides tag characters and variation selectors). */
function astralName(cp: number): string {
  if (cp >= 0x1bca0 && cp <= 0x1bca3) return 'shorthand format control'
  if (cp >= 0x1d173 && cp <= 0x1d17a) return 'musical symbol format control'
  return 'tag or variation selector'
}

/**
 * Bidi controls, zero-width and other default-ignorable characters, C0/C1 controls (tab and line
 * feed included: entries are one line), variation selectors, tag characters, unassigned
 * noncharacters, and lone surrogates: at least every character the core refuses in an entry as
 * invisible (`INVISIBLE_RANGES`, src/core/entry-text.ts; a label or a failed proof may still carry one),
 * the shorthand and musical format controls (U+1BCA0–U+1BCA3, U+1D173–U+1D17A) and U+E0000–U+E0FFF
 * included (test/verifier/page-model.test.ts checks it).
 */
const HIDDEN =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- matching these characters one by one is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]|\ud82f[\udca0-\udca3]|\ud834[\udd73-\udd7a]|[\udb40-\udb43][\udc00-\udfff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** Splits `s` into ordinary runs and hidden characters. */
export function splitInvisible(s: string): TextPart[] {
  const parts: TextPart[] = []
  let last = 0
  for (const m of s.matchAll(HIDDEN)) {
    const at = m.index
    if (at > last) parts.push({ text: s.slice(last, at) })
    const cp = m[0].codePointAt(0)!
    const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`
    const name = NAMES[cp] ?? (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ? 'control character' : cp >= 0xd800 && cp <= 0xdfff ? 'lone surrogate' : cp > 0xffff ? astralName(cp) : 'invisible character')
    parts.push({ hidden: m[0], code, name })
    last = at + m[0].length
  }
  if (last < s.length) parts.push({ text: s.slice(last) })
  return parts
}

/** True when `s` holds a hidden character. */
export function hasInvisible(s: string): boolean {
  HIDDEN.lastIndex = 0
  const found = HIDDEN.test(s)
  HIDDEN.lastIndex = 0
  return found
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
    return `${utc} (${local}, ${localWord})`
  } catch {
    return utc
  }
}
