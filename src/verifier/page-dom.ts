/**
 * The verifier page's DOM kit: its language (messages.ts), elements built from text nodes only
 * (never HTML parsing), untrusted text with hidden characters made visible (in attributes too), and
 * the state badges.
 *
 * @module
 */
import type { State } from './evidence.js'
import { pickLanguage } from './messages.js'
import { markedText, splitInvisible } from './text.js'

/** The page's language: `?lang=` or the browser's preference (messages.ts). */
export const t = pickLanguage(new URLSearchParams(location.search).get('lang'), navigator.languages ?? [navigator.language])

export type Child = Node | string | number | false | null | undefined

/**
 * Creates an element; string children become text nodes (never parsed as HTML). Attribute values are
 * set as text with their hidden characters marked ({@link markedText}): a tooltip or a screen reader's
 * label that quotes a proof (a status, a CID, a table's title) reads as the text shown, never raw.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | undefined> | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  if (attrs !== null) {
    for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, markedText(v))
  }
  for (const c of children) {
    if (c === false || c === null || c === undefined) continue
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c)
  }
  return el
}

export const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id)
  if (el === null) throw new Error(`missing #${id}`)
  return el as T
}

/**
 * Untrusted text: ordinary runs as text nodes, hidden characters and spaces other than U+0020 as
 * visible `⟨U+202E⟩` marks. `isolate` wraps it in `<bdi>` (entries, labels) so right-to-left text
 * cannot reorder its neighbours.
 */
export function untrusted(s: string, isolate = false): Node {
  const parts = splitInvisible(s)
  const nodes = parts.map((p) => ('text' in p ? document.createTextNode(p.text) : h('span', { class: 'hidden-char', title: `${p.code} ${p.name} (${p.space === true ? 'shown as a plain space' : 'hidden'} in the original)` }, `⟨${p.code}⟩`)))
  if (isolate) return h('bdi', null, ...nodes)
  const f = document.createDocumentFragment()
  f.append(...nodes)
  return f
}

export const MARK: Record<State, string> = { ok: '✓', relaxed: '~', fail: '✗', unchecked: '○', absent: '–' }

export function badge(state: State): HTMLElement {
  return h('span', { class: `badge state-${state}` }, h('span', { class: 'badge-mark', 'aria-hidden': 'true' }, MARK[state]), ' ', t.ui.states[state])
}
