/**
 * The verifier page's summary card and outcome: values, ranked tables, a sortition draw's tables
 * with one column per feature, plain tables, and titled sections of those.
 *
 * @module
 */
import type { CellView, OutcomeView, ParticipantsView, RenderModel, RowView, SectionView, SummaryView, WorkerMessage } from './model.js'
import { h, t, untrusted } from './page-dom.js'
import { formatTimeBoth } from './text.js'

/** "private draw: 20,000 entries, only the winners are revealed", or the published list's size. */
function participantsText(p: ParticipantsView, searchable: boolean): string {
  const entries = t.ui.entries(p.count.toLocaleString(t.lang), p.count)
  const weights = p.totalWeight === undefined ? '' : t.ui.totalWeight(p.totalWeight.toLocaleString(t.lang))
  if (p.disclosure === 'winners') return t.ui.privateDraw(entries)
  return t.ui.published(entries, weights, searchable)
}

export function renderSummary(s: SummaryView | undefined, source: string, m?: RenderModel): HTMLElement | undefined {
  if (s === undefined) return undefined
  const list = h('dl', { class: 'facts' })
  const row = (k: string, v: Node | string, mono = false): void => {
    list.append(h('dt', null, k), h('dd', mono ? { class: 'mono' } : null, v))
  }
  row(t.summary.draw, s.label === '' ? t.summary.noLabel : untrusted(s.label, true))
  row(t.summary.kind, untrusted(s.draw))
  if (m?.participants !== undefined) list.append(h('dt', null, t.summary.participants), h('dd', { id: 'participants-summary' }, participantsText(m.participants, m.searchable === true)))
  row(t.summary.target, `${s.target}${s.targetTime === undefined ? '' : ` · ${formatTimeBoth(s.targetTime, t.lang, t.localTime)}`}`)
  row(t.summary.beacon, untrusted(s.beacon), true)
  row(t.summary.proof, untrusted(source))
  return h('section', { class: 'card summary', 'aria-label': 'Summary' }, list)
}

/**
 * A sortition section (members, alternates) by feature: rank, id, one column per committed feature,
 * 1-based position in the list; in its own scrolling box, its cells wrapping on a phone.
 */
function featureTable(title: string, features: readonly string[], rows: readonly RowView[]): HTMLElement {
  const table = h(
    'table',
    { class: 'ranked by-feature' },
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, t.ui.rank), h('th', { scope: 'col' }, t.ui.id), ...features.map((f) => h('th', { scope: 'col', class: 'feature' }, untrusted(f))), h('th', { scope: 'col', class: 'index' }, t.ui.position))),
  )
  const body = h('tbody')
  for (const w of rows) body.append(h('tr', { class: 'winner' }, h('td', { class: 'rank' }, `#${w.rank}`), h('td', { class: 'entry' }, untrusted(w.entry, true)), ...(w.fields ?? []).map((v) => h('td', { class: 'feature' }, untrusted(v, true))), h('td', { class: 'index' }, String(w.index + 1))))
  table.append(body)
  return h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': title }, table)
}

/** A ranked table of entries: rank, entry, weight (when carried), 1-based position in the list. */
function rankedTable(rows: readonly RowView[]): HTMLElement {
  const weighted = rows.some((w) => w.weight !== undefined)
  const table = h(
    'table',
    { class: 'ranked' },
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, t.ui.rank), h('th', { scope: 'col' }, t.ui.entry), weighted ? h('th', { scope: 'col', class: 'weight' }, t.ui.weight) : undefined, h('th', { scope: 'col', class: 'index' }, t.ui.position))),
  )
  const body = h('tbody')
  // Positions are 1-based for people (the proof's `index` is 0-based).
  for (const w of rows) body.append(h('tr', { class: 'winner' }, h('td', { class: 'rank' }, `#${w.rank}`), h('td', { class: 'entry' }, untrusted(w.entry, true)), weighted ? h('td', { class: 'weight' }, w.weight === undefined ? '' : w.weight.toLocaleString(t.lang)) : undefined, h('td', { class: 'index' }, String(w.index + 1))))
  table.append(body)
  return table
}

/**
 * A plain table of text cells, inside its own horizontally scrolling box (focusable, so a keyboard
 * can scroll it) so a wide table never widens the page. An emphasised cell carries a mark as well
 * as a colour: ✓ for `ok`, ✗ for `bad`.
 */
function plainTable(t: Extract<SectionView, { layout: 'table' }>): HTMLElement {
  // A type split into one column per feature (`typeColumns`) also gets one cell holding the whole type,
  // "16-24 · Centre · degree": a phone shows that cell instead of the feature columns (styles.css), so five
  // features need not share a third of a 390 px screen.
  const typed = t.typeColumns ?? 0
  const align = (i: number): string | undefined => (t.columns[i]?.align === 'right' ? 'num' : i < typed ? 'type-part' : undefined)
  const joinedHead = typed > 0 ? h('th', { scope: 'col', class: 'type-joined' }, 'Type') : undefined
  const joined = (r: readonly CellView[]): HTMLElement | undefined => (typed > 0 ? h('td', { class: 'type-joined' }, ...r.slice(0, typed).flatMap((c, i) => [...(i === 0 ? [] : [' · ']), untrusted(c.text, true)])) : undefined)
  const head = h('tr', null, joinedHead, ...t.columns.map((c, i) => h('th', { scope: 'col', class: align(i) }, untrusted(c.label))))
  const body = h('tbody')
  for (const r of t.rows) {
    body.append(
      h(
        'tr',
        null,
        joined(r),
        ...r.map((c, i) =>
          h(
            'td',
            { class: [align(i), c.tone === undefined ? undefined : `tone-${c.tone}`].filter((x) => x !== undefined).join(' ') || undefined, 'data-tone': c.tone },
            untrusted(c.text, true),
            c.tone === undefined ? undefined : h('span', { class: 'tone-mark' }, c.tone === 'ok' ? ' ✓' : ' ✗'),
          ),
        ),
      ),
    )
  }
  return h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': t.title }, h('table', { class: t.compact === true ? 'plain compact' : 'plain' }, h('thead', null, head), body))
}

/** One section's content (values, ranked rows or a table), its note, and how many rows were left out. */
function sectionBody(o: SectionView): Node[] {
  const out: Node[] = []
  if (o.note !== undefined) out.push(h('p', { class: 'section-note' }, untrusted(o.note)))
  let shown: number
  if (o.layout === 'values') {
    const ol = h('ol', { class: 'values' })
    for (const v of o.values) ol.append(h('li', null, h('span', { class: 'mono' }, untrusted(v))))
    out.push(ol)
    shown = o.values.length
  } else if (o.layout === 'ranked') {
    out.push(o.features === undefined ? rankedTable(o.rows) : featureTable(o.title, o.features, o.rows))
    shown = o.rows.length
  } else {
    out.push(plainTable(o))
    shown = o.rows.length
  }
  if (o.total > shown) out.push(h('p', { class: 'more' }, t.ui.more((o.total - shown).toLocaleString(t.lang))))
  return out
}

/**
 * The offer to compute a sortition proof's per-type probabilities (not carried in the proof): a
 * titled section with what will be computed and a button; the worker's answer replaces it
 * ({@link renderProbabilities}).
 */
function probabilitiesOffer(m: RenderModel, onProbabilities: (action?: 'stop') => void): HTMLElement | undefined {
  const p = m.probabilities
  if (p === undefined) return undefined
  const button = h('button', { type: 'button', id: 'probabilities-button' }, t.ui.probabilitiesButton(p.exact, p.panels.toLocaleString(t.lang), p.households))
  // Shown while an estimate runs: ends it with the figures of the sample panels drawn so far.
  const stop = h('button', { type: 'button', id: 'probabilities-stop', hidden: '' }, t.ui.probabilitiesStop)
  const status = h('p', { class: 'section-note', id: 'probabilities-status', role: 'status' })
  button.addEventListener('click', () => {
    ;(button as HTMLButtonElement).disabled = true
    status.textContent = t.ui.probabilitiesRunning
    document.getElementById('probabilities')?.setAttribute('data-state', 'running')
    onProbabilities()
  })
  stop.addEventListener('click', () => {
    ;(stop as HTMLButtonElement).disabled = true
    onProbabilities('stop')
  })
  return h(
    'section',
    { class: 'outcome-section', id: 'probabilities', 'data-layout': 'table', 'data-state': 'offered', 'aria-labelledby': 'probabilities-h' },
    h('h3', { id: 'probabilities-h' }, t.ui.probabilitiesH(p.scope === 'replacements')),
    h('p', { class: 'section-note' }, t.ui.probabilitiesOffer(p.exact, p.households, p.panels.toLocaleString(t.lang))),
    button,
    stop,
    status,
    h('div', { id: 'probabilities-partial' }),
  )
}

/** Rows of the partial figures drawn while an estimate runs (the answer shows every row, up to the page's 500). */
export const PARTIAL_ROWS = 50

/**
 * The worker's answer to the probabilities offer: while an estimate runs, its progress and the figures
 * of the sample panels drawn so far (with their wider intervals) under the Stop button; then the table
 * by type (exact, or the labelled estimate with its interval, of every panel or of those drawn before
 * a stop), or why it failed.
 */
export function renderProbabilities(msg: Extract<WorkerMessage, { type: 'probabilities' }>): void {
  const section = document.getElementById('probabilities')
  if (section === null) return
  if (msg.progress !== undefined) {
    if (section.dataset.state !== 'running') return
    const { drawn, panels } = msg.progress
    section.dataset.drawn = String(drawn)
    const status = document.getElementById('probabilities-status')
    if (status !== null) status.textContent = t.ui.probabilitiesProgress(drawn.toLocaleString(t.lang), panels.toLocaleString(t.lang))
    document.getElementById('probabilities-stop')?.removeAttribute('hidden')
    const partial = document.getElementById('probabilities-partial')
    // only the first rows while it runs: re-laying out a 500-row table every second took the main thread
    // 0.2 to 0.5 s each time (about 40 % of it); every row is shown when the estimate ends or is stopped
    const shown = msg.section?.layout === 'table' ? { ...msg.section, rows: msg.section.rows.slice(0, PARTIAL_ROWS) } : msg.section
    if (partial !== null && shown !== undefined) partial.replaceChildren(h('h4', {}, untrusted(shown.title)), ...sectionBody(shown))
    return
  }
  if (msg.section === undefined) {
    section.dataset.state = 'failed'
    const status = document.getElementById('probabilities-status')
    if (status !== null) status.replaceChildren(untrusted(t.ui.probabilitiesFailed(msg.error ?? '')))
    const button = document.getElementById('probabilities-button') as HTMLButtonElement | null
    if (button !== null) button.disabled = false
    return
  }
  section.dataset.state = msg.stopped === undefined ? 'done' : 'stopped'
  const stopped = msg.stopped === undefined ? [] : [h('p', { class: 'section-note', id: 'probabilities-status', role: 'status' }, t.ui.probabilitiesStopped(msg.stopped.drawn.toLocaleString(t.lang), msg.stopped.panels.toLocaleString(t.lang), String(msg.stopped.drawn)))]
  section.replaceChildren(h('h3', { id: 'probabilities-h' }, untrusted(msg.section.title)), ...stopped, ...sectionBody(msg.section))
}

export function renderOutcome(o: OutcomeView | undefined, m: RenderModel, onProbabilities?: (action?: 'stop') => void): HTMLElement | undefined {
  if (o === undefined) return undefined
  const tier = m.verdict.tier
  const tag = tier === 'failed' ? h('span', { class: 'tag tag-fail' }, t.ui.claimedTag) : tier === 'custom' ? h('span', { class: 'tag tag-custom' }, t.ui.customTag) : undefined
  const section = h('section', { class: `card outcome ${tier === 'failed' ? 'unverified' : ''}`, id: 'outcome', 'aria-labelledby': 'outcome-h', 'data-layout': o.layout }, h('h2', { id: 'outcome-h' }, untrusted(o.title), tag))
  if (o.layout !== 'sections') {
    section.append(...sectionBody(o))
    return section
  }
  o.sections.forEach((s, i) => {
    const id = `outcome-s${i}`
    section.append(h('section', { class: 'outcome-section', 'data-layout': s.layout, 'aria-labelledby': id }, h('h3', { id }, untrusted(s.title)), ...sectionBody(s)))
  })
  const offer = onProbabilities === undefined ? undefined : probabilitiesOffer(m, onProbabilities)
  if (offer !== undefined) section.append(offer)
  return section
}

