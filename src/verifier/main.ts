/**
 * The browser verifier page: loads a proof (drop, file picker, paste, or `?proof=<url>`), hands its
 * bytes to the core's `verify` in a Web Worker (the page stays responsive; Cancel stops it), and
 * shows the verdict (green only under the strict default policy), the facts to compare first, every
 * check, the outcome and a picture of the evidence.
 *
 * The main thread never parses the proof: the worker posts back only what rendering needs. Proof
 * content is untrusted: it reaches the page through text nodes only (never HTML parsing), and hidden
 * characters (bidi controls, zero-width characters, controls) are shown as visible marks.
 *
 * @module
 */
import { OrbitdrawError } from '../core/errors.js'
import { LIMITS } from '../core/limits.js'
import { PROTOCOL_VERSION } from '../core/version.js'
import type { Evidence, EvidenceLink, EvidenceNode, State } from './evidence.js'
import type { CommitmentModel, OutcomeView, PageHashRequest, ParticipantsView, ReceiptModel, RowView, SectionView, RenderModel, SearchRequest, SearchResult, SummaryView, VerifyRequest, WorkerMessage } from './model.js'
import { drandInfoJson } from '../core/drand/chain.js'
import { customSettings, parseBeaconLines, parseDrandChainText, parsePemCertificates, receiptTier, settingsFromQuery, type TrustSettings } from './settings.js'
import { LANGUAGES, pickLanguage } from './messages.js'
import type { PairingAnswer } from './pairing-client.js'
import { formatTimeBoth, splitInvisible } from './text.js'

type Child = Node | string | number | false | null | undefined

/** Creates an element; string children become text nodes (never parsed as HTML). */
function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | undefined> | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  if (attrs !== null) {
    for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, v)
  }
  for (const c of children) {
    if (c === false || c === null || c === undefined) continue
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c)
  }
  return el
}

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id)
  if (el === null) throw new Error(`missing #${id}`)
  return el as T
}

/**
 * Untrusted text: ordinary runs as text nodes, hidden characters as visible `⟨U+202E⟩` marks.
 * `isolate` wraps it in `<bdi>` (entries, labels) so right-to-left text cannot reorder its neighbours.
 */
function untrusted(s: string, isolate = false): Node {
  const parts = splitInvisible(s)
  const nodes = parts.map((p) => ('text' in p ? document.createTextNode(p.text) : h('span', { class: 'hidden-char', title: `${p.code} ${p.name} (hidden in the original)` }, `⟨${p.code}⟩`)))
  if (isolate) return h('bdi', null, ...nodes)
  const f = document.createDocumentFragment()
  f.append(...nodes)
  return f
}

const MARK: Record<State, string> = { ok: '✓', relaxed: '~', fail: '✗', unchecked: '○', absent: '–' }

function badge(state: State): HTMLElement {
  return h('span', { class: `badge state-${state}` }, h('span', { class: 'badge-mark', 'aria-hidden': 'true' }, MARK[state]), ' ', t.ui.states[state])
}

// ---------------------------------------------------------------------------------------------
// rendering

function renderVerdict(m: RenderModel): HTMLElement {
  const v = m.verdict
  const green = v.tier === 'verified'
  const recordChecked = m.checks.some((c) => c.name.startsWith('ipns-record-'))
  const integrityOk = m.checks.some((c) => c.name === 'block-content' && c.ok)
  const hasRecord = m.evidence?.hasRecord ?? false
  const mark = (x: string): HTMLElement => h('span', { class: 'auth-mark', 'aria-hidden': 'true' }, x)
  // A green pill only inside the green verdict.
  const auth = m.authenticated
    ? h('p', { class: `auth ${green ? 'auth-yes' : 'auth-neutral'}`, id: 'auth' }, mark('✓'), t.ui.authYes, v.tier === 'failed' ? t.ui.authYesFailed : '')
    : hasRecord && recordChecked
      ? h('p', { class: 'auth auth-bad', id: 'auth' }, mark('!'), t.ui.authBad)
      : hasRecord
        ? h('p', { class: 'auth auth-neutral', id: 'auth' }, mark('?'), t.ui.authUnchecked)
        : integrityOk
          ? h('p', { class: 'auth auth-no', id: 'auth' }, mark('i'), t.ui.authIntegrity, h('span', { class: 'auth-more' }, t.ui.authIntegrityMore))
          : undefined
  const facts = h('ul', { class: 'verdict-facts', id: 'verdict-facts' })
  for (const line of v.lines) facts.append(h('li', null, untrusted(line)))
  const custom =
    v.custom.length === 0
      ? undefined
      : h(
          'div',
          { class: 'custom', id: 'custom-settings' },
          h('h3', null, v.tier === 'failed' ? t.settings.headingFailed : t.settings.heading),
          h(
            'ul',
            null,
            ...v.custom.map((c) =>
              h(
                'li',
                { 'data-setting': c.key, 'data-origin': c.origin, 'data-used': String(c.used) },
                h('strong', null, c.origin === 'link' ? t.settings.byLink : t.settings.byPanel),
                untrusted(c.what),
                c.used === false ? t.settings.notNeeded : '',
                '. ',
                h('span', { class: 'instead' }, t.settings.checkInstead, c.instead, '.'),
              ),
            ),
          ),
        )
  return h(
    'div',
    { class: `verdict verdict-${v.tier}`, id: 'verdict', 'data-tier': v.tier, 'data-ok': String(m.ok), 'data-authenticated': String(m.authenticated) },
    h('div', { class: 'verdict-icon', 'aria-hidden': 'true' }, green ? '✓' : v.tier === 'custom' ? '!' : '✗'),
    h(
      'div',
      { class: 'verdict-body' },
      h('h2', { id: 'verdict-title' }, v.title),
      v.reason === undefined ? undefined : h('p', { class: 'verdict-reason', id: 'verdict-reason' }, v.reason),
      v.reasonDetail === undefined ? undefined : h('details', { class: 'verdict-reason-detail', id: 'verdict-reason-detail' }, h('summary', null, t.verdict.reasonDetail), h('p', null, untrusted(v.reasonDetail))),
      h('p', { class: 'verdict-line', id: 'verdict-headline' }, v.headline),
      facts,
      custom,
      v.failed.length === 0 ? undefined : h('p', { class: 'verdict-line' }, t.verdict.failedCount(v.failed.length, m.checks.length), ...v.failed.flatMap((n, i) => [i > 0 ? ', ' : '', h('code', { class: 'failed-name' }, n)])),
      auth,
    ),
  )
}

/** "private draw: 20,000 entries, only the winners are revealed", or the published list's size. */
function participantsText(p: ParticipantsView, searchable: boolean): string {
  const entries = t.ui.entries(p.count.toLocaleString(t.lang), p.count)
  const weights = p.totalWeight === undefined ? '' : t.ui.totalWeight(p.totalWeight.toLocaleString(t.lang))
  if (p.disclosure === 'winners') return t.ui.privateDraw(entries)
  return t.ui.published(entries, weights, searchable)
}

function renderSummary(s: SummaryView | undefined, source: string, m?: RenderModel): HTMLElement | undefined {
  if (s === undefined) return undefined
  const list = h('dl', { class: 'facts' })
  const row = (k: string, v: Node | string, mono = false): void => {
    list.append(h('dt', null, k), h('dd', mono ? { class: 'mono' } : null, v))
  }
  row(t.summary.draw, s.label === '' ? t.summary.noLabel : untrusted(s.label, true))
  row(t.summary.kind, s.draw)
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
  const align = (i: number): string | undefined => (t.columns[i]?.align === 'right' ? 'num' : undefined)
  const head = h('tr', null, ...t.columns.map((c, i) => h('th', { scope: 'col', class: align(i) }, untrusted(c.label))))
  const body = h('tbody')
  for (const r of t.rows) {
    body.append(
      h(
        'tr',
        null,
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

function renderOutcome(o: OutcomeView | undefined, m: RenderModel): HTMLElement | undefined {
  if (o === undefined) return undefined
  const tier = m.verdict.tier
  const tag = tier === 'failed' ? h('span', { class: 'tag tag-fail' }, t.ui.claimedTag) : tier === 'custom' ? h('span', { class: 'tag tag-custom' }, t.ui.customTag) : undefined
  const section = h('section', { class: `card outcome ${tier === 'failed' ? 'unverified' : ''}`, id: 'outcome', 'aria-labelledby': 'outcome-h', 'data-layout': o.layout }, h('h2', { id: 'outcome-h' }, o.title, tag))
  if (o.layout !== 'sections') {
    section.append(...sectionBody(o))
    return section
  }
  o.sections.forEach((s, i) => {
    const id = `outcome-s${i}`
    section.append(h('section', { class: 'outcome-section', 'data-layout': s.layout, 'aria-labelledby': id }, h('h3', { id }, untrusted(s.title)), ...sectionBody(s)))
  })
  return section
}

/** Shortens a long status for a box; the full text is in the title and in the checks list. */
function clip(text: string, max = 170): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

function renderNode(n: EvidenceNode): HTMLElement {
  const facts = h('dl', { class: 'facts small' })
  for (const f of n.facts) facts.append(h('dt', null, f.label), h('dd', f.mono === true ? { class: 'mono', title: f.value } : null, untrusted(f.value, f.untrusted === true)))
  return h(
    'li',
    { class: `node state-${n.state}`, 'data-node': n.key, 'data-state': n.state },
    h('div', { class: 'node-head' }, h('h3', null, n.title), badge(n.state)),
    h('p', { class: 'node-status', title: n.status }, untrusted(clip(n.status))),
    facts,
    n.state === 'absent' ? undefined : h('p', { class: 'node-checks' }, ...n.checks.flatMap((c, i) => [i > 0 ? ' ' : '', h('code', null, c)])),
  )
}

function renderLink(l: EvidenceLink): HTMLElement {
  return h(
    'li',
    { class: `link state-${l.state}`, 'data-link': `${l.from}-${l.to}`, 'data-state': l.state, 'aria-label': `${l.label}: ${t.ui.states[l.state]} — ${l.status}` },
    h('span', { class: 'arrow', 'aria-hidden': 'true' }),
    h('span', { class: 'link-body', 'aria-hidden': 'true' }, h('span', { class: 'link-label' }, l.label), badge(l.state), h('span', { class: 'link-status' }, untrusted(clip(l.status, 90)))),
  )
}

function renderEvidence(e: Evidence): HTMLElement {
  const flow = h('ol', { class: `flow nodes-${e.nodes.length}`, 'aria-label': t.ui.evidenceFlow })
  e.nodes.forEach((n, i) => {
    flow.append(renderNode(n))
    const l = e.links[i]
    if (l !== undefined) flow.append(renderLink(l))
  })

  // carried chain strip
  const strip = h('ol', { class: 'strip', 'aria-label': `Blocks carried in the proof, newest first (${e.blockCount})` })
  const n = e.blocks.length
  const keep = new Set<number>()
  e.blocks.forEach((b, i) => {
    if (n <= 14 || i < 2 || i >= n - 2 || b.roles.length > 0) {
      keep.add(i - 1)
      keep.add(i)
      keep.add(i + 1)
    }
  })
  let gap = false
  e.blocks.forEach((b, i) => {
    if (!keep.has(i)) {
      if (!gap) strip.append(h('li', { class: 'chip gap', 'aria-label': 'more blocks' }, '…'))
      gap = true
      return
    }
    gap = false
    if (i > 0) strip.append(h('li', { class: 'chip-link', 'aria-hidden': 'true' }, '←'))
    strip.append(
      h(
        'li',
        { class: `chip ${b.intact ? '' : 'corrupt'} ${b.roles.map((r) => `role-${r}`).join(' ')}`, title: `${b.cid}${b.intact ? '' : ' — content does not match this CID'}` },
        h('span', { class: 'chip-seq' }, b.sequence === undefined ? '?' : `#${b.sequence}`),
        ...b.roles.map((r) => h('span', { class: 'chip-role' }, r === 'after' ? t.ui.seenAtCommit : r)),
        b.intact ? '' : h('span', { class: 'chip-role bad' }, t.ui.corrupt),
      ),
    )
  })

  const [seed, outcome] = e.derivation
  const step = (l: EvidenceLink | undefined, title: string): HTMLElement =>
    h(
      'li',
      { class: `dnode state-${l?.state ?? 'unchecked'}`, 'data-step': l?.label ?? title, 'data-state': l?.state ?? 'unchecked' },
      h('div', { class: 'node-head row' }, h('h3', null, title), badge(l?.state ?? 'unchecked')),
      h('p', { class: 'node-status', title: l?.status }, untrusted(clip(l?.status ?? 'not checked', 240))),
      h('p', { class: 'node-checks' }, h('code', null, l?.label ?? '')),
    )
  const deriv = h(
    'ol',
    { class: 'derive', 'aria-label': 'How the outcome follows from the block' },
    h('li', { class: 'dnode input' }, h('h3', null, t.ui.commitmentCid), h('p', { class: 'node-status' }, t.ui.plusCtrng)),
    h('li', { class: `dlink state-${seed?.state ?? 'unchecked'}`, 'aria-hidden': 'true' }, h('span', { class: 'arrow' })),
    step(seed, t.ui.seed),
    h('li', { class: `dlink state-${outcome?.state ?? 'unchecked'}`, 'aria-hidden': 'true' }, h('span', { class: 'arrow' })),
    step(outcome, t.ui.outcome),
  )

  const legend = h('p', { class: 'legend' }, ...(['ok', 'relaxed', 'fail', 'unchecked', 'absent'] as const).flatMap((s) => [badge(s), ' ']))
  const explain = h('ul', { class: 'explain', id: 'explain' }, ...e.explain.map((s) => h('li', null, s)))

  return h(
    'section',
    { class: 'card evidence', id: 'evidence', 'aria-labelledby': 'evidence-h' },
    h('h2', { id: 'evidence-h' }, t.ui.evidence),
    explain,
    flow,
    h('h3', { class: 'minor' }, t.ui.carried(e.blockCount)),
    strip,
    h('h3', { class: 'minor' }, t.ui.blockToOutcome),
    deriv,
    legend,
  )
}

function renderChecks(m: RenderModel): HTMLElement {
  const list = h('ol', { class: 'checks', id: 'checks' })
  for (const c of m.checks) {
    const relaxed = c.ok && c.relaxedBy !== undefined
    list.append(
      h(
        'li',
        { class: `check ${!c.ok ? 'fail' : relaxed ? 'relaxed' : 'ok'}`, 'data-check': c.name, 'data-ok': String(c.ok), 'data-relaxed': relaxed ? c.relaxedBy : undefined },
        h('span', { class: 'mark', 'aria-hidden': 'true' }, !c.ok ? '✗' : relaxed ? '~' : '✓'),
        h('span', { class: 'visually-hidden' }, !c.ok ? t.ui.checkFailed : relaxed ? t.ui.checkRelaxed : t.ui.checkPassed),
        h('code', { class: 'check-name' }, c.name),
        h('span', { class: 'check-detail' }, untrusted(c.detail)),
      ),
    )
  }
  const passed = m.checks.filter((c) => c.ok && c.relaxedBy === undefined).length
  const relaxedCount = m.checks.filter((c) => c.ok && c.relaxedBy !== undefined).length
  const section = h('section', { class: 'card', 'aria-labelledby': 'checks-h' }, h('h2', { id: 'checks-h' }, t.ui.checks(passed, m.checks.length, relaxedCount)), list)
  if (m.notes.length > 0) {
    const notes = h('ul', { class: 'notes', id: 'notes' })
    for (const n of m.notes) notes.append(h('li', null, untrusted(n)))
    section.append(h('h3', { class: 'minor' }, t.ui.notes), notes)
  }
  return section
}

/** "Was I in the draw?": a search box over the committed entries, answered by the worker that verified them. */
function renderSearch(m: RenderModel): HTMLElement | undefined {
  if (m.searchable !== true || m.participants === undefined) return undefined
  const input = h('input', { type: 'search', id: 'entry-search', placeholder: t.ui.searchPlaceholder, autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'entry-search-status' })
  const status = h('p', { class: 'search-status', id: 'entry-search-status', role: 'status' }, t.ui.searchCount(m.participants.count.toLocaleString(t.lang)))
  const results = h('ol', { class: 'search-results', id: 'entry-search-results' })
  let timer: ReturnType<typeof setTimeout> | undefined
  input.addEventListener('input', () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(() => searchEntriesInWorker(input.value), 120)
  })
  return h(
    'section',
    { class: 'card search', id: 'search', 'aria-labelledby': 'search-h' },
    h('h2', { id: 'search-h' }, t.ui.searchH),
    h('label', { for: 'entry-search' }, t.ui.searchLabel),
    input,
    status,
    results,
  )
}

function renderSearchResult(r: SearchResult): void {
  const status = document.getElementById('entry-search-status')
  const results = document.getElementById('entry-search-results')
  const input = document.getElementById('entry-search') as HTMLInputElement | null
  if (status === null || results === null || input === null || input.value !== r.query) return
  results.replaceChildren(...r.matches.map((x) => h('li', { 'data-position': String(x.position) }, untrusted(x.entry, true), t.ui.searchPosition(x.position.toLocaleString(t.lang)), x.rank === undefined ? '' : h('span', { class: 'tag tag-rank' }, t.ui.searchRank(x.rank)))))
  status.textContent = r.query.trim() === '' ? '' : r.total === 0 ? t.ui.searchNone : t.ui.searchFound(r.total.toLocaleString(t.lang), r.total, r.matches.length)
}

function render(m: RenderModel, source: string): void {
  const out = $('result')
  out.replaceChildren(...[renderVerdict(m), renderSummary(m.summary, source, m), renderOutcome(m.outcome, m), renderSearch(m), m.evidence === undefined ? undefined : renderEvidence(m.evidence), renderChecks(m)].filter((x): x is HTMLElement => x !== undefined))
  out.dataset.verifyMs = m.verifyMs.toFixed(0)
  // Nothing needs Web Crypto (RSA, ECDSA and Ed25519 are pure JS in the worker); recorded for the tests.
  out.dataset.webCrypto = String(m.webCrypto)
  out.hidden = false
  document.body.dataset.state = m.verdict.tier
}

/** A participant's receipt: green only when every check passed AND the reader pinned the announced CID. */
function renderReceipt(r: ReceiptModel): void {
  // A CID pinned by the page's link is the sender's word, not the reader's: never green (see receiptTier).
  const tier = receiptTier(r)
  const title = tier === 'failed' ? 'This receipt does not check out' : tier === 'verified' ? 'You were in the draw' : 'In the committed list — now compare the CID'
  const facts = h('ul', { class: 'facts-list', id: 'verdict-facts' })
  if (r.commitmentCid !== undefined) {
    facts.append(
      h(
        'li',
        null,
        tier === 'verified'
          ? t.ui.receiptPinned(r.commitmentCid)
          : r.pinned && r.pinnedBy === 'link'
            ? t.ui.receiptLinkPinned(r.commitmentCid)
            : t.ui.receiptCompare(r.commitmentCid),
      ),
    )
  }
  if (r.entry !== undefined) facts.append(h('li', null, 'Entry ', untrusted(r.entry, true), t.ui.receiptEntry(r.position ?? 0, r.count)))
  const checks = h('ol', { class: 'checks', id: 'checks' })
  for (const c of r.checks) {
    checks.append(h('li', { class: `check ${c.ok ? 'ok' : 'fail'}`, 'data-check': c.name, 'data-ok': String(c.ok) }, h('span', { class: 'mark', 'aria-hidden': 'true' }, c.ok ? '✓' : '✗'), h('code', { class: 'check-name' }, c.name), h('span', { class: 'check-detail' }, untrusted(c.detail))))
  }
  const out = $('result')
  out.replaceChildren(
    h('div', { class: `verdict verdict-${tier}`, id: 'verdict', 'data-ok': String(r.ok), 'data-tier': tier, 'data-kind': 'receipt' }, h('div', { class: 'verdict-icon', 'aria-hidden': 'true' }, tier === 'verified' ? '✓' : tier === 'custom' ? '~' : '✗'), h('div', { class: 'verdict-body' }, h('h2', { id: 'verdict-title' }, t.titles[title] ?? title), facts)),
    h('section', { class: 'card', 'aria-labelledby': 'checks-h' }, h('h2', { id: 'checks-h' }, t.ui.receiptChecks), checks),
  )
  out.hidden = false
  document.body.dataset.state = tier
}

/** A commitment file dropped instead of a proof: what it says (as `orbitdraw inspect`), and what to do with it. */
function renderCommitment(c: CommitmentModel): void {
  const facts = h('dl', { class: 'facts', id: 'commitment-facts' })
  const row = (k: string, v: Node | string, mono = false): void => {
    facts.append(h('dt', null, k), h('dd', mono ? { class: 'mono' } : null, v))
  }
  const k = t.commitment
  row(k.cid, c.cid, true)
  row(t.summary.draw, c.label === '' ? t.summary.noLabel : untrusted(c.label, true))
  row(t.summary.kind, untrusted(c.drawText))
  if (c.participants !== undefined) row(t.summary.participants, `${t.ui.entries(c.participants.count.toLocaleString(t.lang), c.participants.count)}${c.participants.salted ? t.ui.saltedList : ''}`)
  row(t.summary.beacon, untrusted(c.beacon), true)
  row(k.seenAtCommit, k.block(c.after.toLocaleString(t.lang)))
  row(t.summary.target, `${c.target.toLocaleString(t.lang)} (${k.blocksLater((c.target - c.after).toLocaleString(t.lang))})`)
  row(k.timestamps, c.timestamps.length === 0 ? k.noTimestamps : c.timestamps.map((x) => (x === undefined ? k.unreadable : `${formatTimeBoth(x, t.lang, t.localTime)} ${k.claimed}`)).join('; '))
  const out = $('result')
  out.replaceChildren(
    h(
      'div',
      { class: 'verdict verdict-custom', id: 'verdict', 'data-ok': 'false', 'data-tier': 'commitment', 'data-kind': 'commitment' },
      h('div', { class: 'verdict-icon', 'aria-hidden': 'true' }, 'i'),
      h(
        'div',
        { class: 'verdict-body' },
        h('h2', { id: 'verdict-title' }, k.title),
        h('p', { class: 'verdict-line', id: 'verdict-headline' }, k.headline),
        h(
          'ul',
          { class: 'verdict-facts', id: 'verdict-facts' },
          h('li', null, k.compare(c.cid, c.target.toLocaleString(t.lang))),
          h('li', null, k.pin),
        ),
      ),
    ),
    h('section', { class: 'card summary', 'aria-label': 'What the commitment says' }, facts),
  )
  out.hidden = false
  document.body.dataset.state = 'commitment'
}

function renderError(message: string): void {
  const out = $('result')
  out.replaceChildren(h('div', { class: 'verdict verdict-error', id: 'verdict', 'data-ok': 'false', 'data-tier': 'error' }, h('div', { class: 'verdict-icon', 'aria-hidden': 'true' }, '!'), h('div', { class: 'verdict-body' }, h('h2', { id: 'verdict-title' }, t.couldNotLoad), h('p', { class: 'verdict-line' }, untrusted(message)))))
  out.hidden = false
  document.body.dataset.state = 'error'
}

// ---------------------------------------------------------------------------------------------
// trust settings

/** The page's language: `?lang=` or the browser's preference (messages.ts). */
const t = pickLanguage(new URLSearchParams(location.search).get('lang'), navigator.languages ?? [navigator.language])

/** Puts the page's static text in its language, and the language links (`?lang=`, keeping the rest of the link). */
function applyLanguage(): void {
  document.documentElement.lang = t.lang
  const page = t.page
  if (page !== undefined) {
    document.title = page.title
    for (const el of document.querySelectorAll<HTMLElement>('[data-i18n]')) {
      const text = (page as unknown as Record<string, string | undefined>)[el.dataset.i18n ?? '']
      if (text !== undefined) el.textContent = text
    }
  }
  const links = Object.values(LANGUAGES).map((m) => {
    const params = new URLSearchParams(location.search)
    params.set('lang', m.lang)
    return m === t ? h('strong', { 'aria-current': 'true', lang: m.lang }, m.languageName) : h('a', { href: `?${params.toString()}`, hreflang: m.lang, lang: m.lang }, m.languageName)
  })
  $('lang').replaceChildren(...links.flatMap((l, i) => (i === 0 ? [l] : [' · ', l])))
}

/** The settings the page's link gave, and the notices about parameters it ignored. */
const fromLink = settingsFromQuery(new URLSearchParams(location.search))

function errorText(err: unknown): string {
  return err instanceof OrbitdrawError ? `${err.detail}. ${err.hint}` : err instanceof Error ? err.message : String(err)
}

/** Reads the panel. @throws OrbitdrawError naming the bad field. */
function readPanel(): TrustSettings {
  const pin = $<HTMLInputElement>('pin').value.trim()
  if (pin !== '' && (pin.length > LIMITS.maxCidChars || !/^[A-Za-z0-9]+$/.test(pin))) throw new OrbitdrawError('INVALID_COMMITMENT_PIN', 'the pinned commitment CID is not a CID', 'paste the CID exactly as the organizer announced it (bagu…)')
  return {
    beacons: parseBeaconLines($<HTMLTextAreaElement>('trust-beacons').value),
    allowUnsigned: $<HTMLInputElement>('allow-unsigned').checked,
    allowUntimestamped: $<HTMLInputElement>('allow-untimestamped').checked,
    tsaRoots: $<HTMLTextAreaElement>('trust-tsa').value.trim() === '' ? [] : parsePemCertificates($<HTMLTextAreaElement>('trust-tsa').value),
    drandChains: parseDrandChainText($<HTMLTextAreaElement>('trust-drand').value),
    ...(pin === '' ? {} : { commitment: pin }),
  }
}

function fillPanel(s: TrustSettings): void {
  $<HTMLTextAreaElement>('trust-beacons').value = s.beacons.join('\n')
  $<HTMLInputElement>('allow-unsigned').checked = s.allowUnsigned
  $<HTMLInputElement>('allow-untimestamped').checked = s.allowUntimestamped
  $<HTMLTextAreaElement>('trust-tsa').value = s.tsaRoots.join('\n')
  $<HTMLTextAreaElement>('trust-drand').value = (s.drandChains ?? []).length === 0 ? '' : JSON.stringify((s.drandChains ?? []).map(drandInfoJson))
  $<HTMLInputElement>('pin').value = s.commitment ?? ''
}

/** Shows the policy in force under the panel (or the panel's error); returns the settings or undefined. */
function panelStatus(): TrustSettings | undefined {
  const status = $('trust-status')
  try {
    const s = readPanel()
    const custom = customSettings(s, fromLink.settings)
    status.className = custom.length === 0 ? 'trust-status strict' : 'trust-status custom'
    status.replaceChildren(
      custom.length === 0
        ? t.settings.strictStatus(s.commitment !== undefined)
        : t.settings.customStatus(custom.length),
    )
    return s
  } catch (err) {
    status.className = 'trust-status error'
    status.replaceChildren(t.settings.invalid(errorText(err)))
    return undefined
  }
}

// ---------------------------------------------------------------------------------------------
// verification in a worker

let workerUrl: string | undefined
let pairingUrl: string | undefined
let current: { worker: Worker; timer: ReturnType<typeof setInterval>; pairing?: Worker } | undefined
/** The worker that verified the shown full disclosure, kept to answer searches of its entries. */
let searcher: Worker | undefined

function searchEntriesInWorker(query: string): void {
  const request: SearchRequest = { type: 'search', query }
  searcher?.postMessage(request)
}
let last: { proof: Uint8Array | string; source: string } | undefined

function startWorker(): Worker {
  if (workerUrl === undefined) {
    const code = document.getElementById('verify-worker')?.textContent ?? ''
    if (code === '') throw new Error('this page was built without its verifier worker')
    workerUrl = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }))
  }
  return new Worker(workerUrl, { name: 'orbitdraw-verify' })
}

/**
 * The pairing worker (BLS12-381 for drand signatures), started from its own data block only when the
 * verify worker asks for a pairing check: a mixed (protocol v2) proof. `data-pairing` on the body
 * records that it was started (the browser tests read it).
 */
function startPairingWorker(): Worker {
  if (pairingUrl === undefined) {
    const code = document.getElementById('pairing-worker')?.textContent ?? ''
    if (code === '') throw new Error('this page was built without its pairing worker')
    pairingUrl = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }))
  }
  document.body.dataset.pairing = 'started'
  return new Worker(pairingUrl, { name: 'orbitdraw-pairing' })
}

/** Relays a pairing request of the verify worker to the pairing worker (started on the first one). */
function relayPairing(run: NonNullable<typeof current>, req: Extract<WorkerMessage, { type: 'pairing' }>): void {
  if (run.pairing === undefined) {
    const pairing = startPairingWorker()
    pairing.onmessage = (ev: MessageEvent<PairingAnswer>) => run.worker.postMessage(ev.data)
    pairing.onerror = (ev) => {
      ev.preventDefault()
      run.worker.postMessage({ type: 'pairing-result', id: req.id, error: { code: 'INVALID_PUBLIC_KEY', detail: `the pairing worker failed: ${ev.message}`, hint: 'reload the page' } } satisfies PairingAnswer)
    }
    run.pairing = pairing
  }
  run.pairing.postMessage(req)
}

function stopRun(keep = false): void {
  if (!keep) {
    searcher?.terminate()
    searcher = undefined
  }
  if (current === undefined) return
  current.pairing?.terminate()
  if (!keep) current.worker.terminate()
  clearInterval(current.timer)
  current = undefined
  $('progress').hidden = true
}

function verifyProof(proof: Uint8Array | string, source: string): void {
  stopRun()
  const settings = panelStatus()
  if (settings === undefined) {
    $<HTMLDetailsElement>('trust').open = true
    renderError(t.ui.invalidSettings)
    return
  }
  last = { proof, source }
  let worker: Worker
  try {
    worker = startWorker()
  } catch (err) {
    renderError(`The verifier could not start its worker: ${errorText(err)}`)
    return
  }
  const started = performance.now()
  const elapsed = $('progress-elapsed')
  const phase = $('progress-text')
  const size = typeof proof === 'string' ? `${proof.length} characters` : `${proof.length} bytes`
  phase.textContent = t.ui.verifying(source, size)
  elapsed.textContent = '0.0 s'
  const timer = setInterval(() => {
    elapsed.textContent = `${((performance.now() - started) / 1000).toFixed(1)} s`
  }, 100)
  current = { worker, timer }
  $('progress').hidden = false
  $('source').textContent = ''
  document.body.dataset.state = 'verifying'
  const run = current
  worker.onmessage = (ev: MessageEvent<WorkerMessage>) => {
    if (current !== run) return
    const msg = ev.data
    if (msg.type === 'phase') {
      phase.textContent = msg.phase === 'verifying' ? t.ui.verifying(source, size) : t.ui.preparing
      return
    }
    if (msg.type === 'search') {
      renderSearchResult(msg.result)
      return
    }
    if (msg.type === 'page-hash') return
    if (msg.type === 'pairing') {
      relayPairing(run, msg)
      return
    }
    const keep = msg.type === 'done' && msg.model.searchable === true
    stopRun(keep)
    if (keep) {
      searcher = run.worker
      searcher.onmessage = (e: MessageEvent<WorkerMessage>) => {
        if (e.data.type === 'search') renderSearchResult(e.data.result)
      }
    }
    if (msg.type === 'error') {
      renderError(t.ui.stopped(msg.message))
      return
    }
    const total = performance.now() - started
    $('source').textContent = t.ui.checked(source, (total / 1000).toFixed(1))
    if (msg.type === 'receipt') renderReceipt(msg.receipt)
    else if (msg.type === 'commitment') renderCommitment(msg.commitment)
    else render(msg.model, source)
    $('result').dataset.totalMs = total.toFixed(0)
    $('result').scrollIntoView({ behavior: 'smooth', block: 'start' })
  }
  worker.onerror = (ev) => {
    if (current !== run) return
    ev.preventDefault()
    stopRun()
    renderError(t.ui.workerFailed(ev.message))
  }
  // A copy (not a transfer): the page keeps the bytes to re-verify under other trust settings.
  const request: VerifyRequest = { proof, settings, link: fromLink.settings, lang: t.lang }
  worker.postMessage(request)
}

function cancel(): void {
  if (current === undefined) return
  stopRun()
  $('source').textContent = t.ui.cancelled
  $('result').replaceChildren()
  $('result').hidden = true
  document.body.dataset.state = 'cancelled'
}

// ---------------------------------------------------------------------------------------------
// inputs

async function checkFile(file: File): Promise<void> {
  if (file.size > LIMITS.maxProofBytes) {
    renderError(t.ui.tooBig(file.name, file.size, LIMITS.maxProofBytes))
    return
  }
  verifyProof(new Uint8Array(await file.arrayBuffer()), t.ui.file(file.name))
}

async function checkUrl(raw: string): Promise<void> {
  let url: URL
  try {
    url = new URL(raw, location.href)
  } catch {
    renderError(t.ui.badUrl(raw))
    return
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:' && url.protocol !== location.protocol) {
    renderError(t.ui.onlyHttp(url.protocol))
    return
  }
  $('source').textContent = t.ui.fetching(url.href)
  try {
    const res = await fetch(url, { credentials: 'omit', referrerPolicy: 'no-referrer' })
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`)
    const length = Number(res.headers.get('content-length') ?? '0')
    if (length > LIMITS.maxProofBytes) throw new Error(`the proof is ${length} bytes, over the limit`)
    const bytes = new Uint8Array(await res.arrayBuffer())
    if (bytes.length > LIMITS.maxProofBytes) throw new Error(`the proof is ${bytes.length} bytes, over the limit`)
    verifyProof(bytes, url.href)
  } catch (err) {
    $('source').textContent = ''
    renderError(t.ui.fetchFailed(url.href, (err as Error).message))
  }
}

/**
 * The footer's "this page's file" line: over http(s), the SHA-256 and CID of the file the server sends
 * for this address (fetched again, hashed in a worker); from a file, how to check it. A convenience
 * only: a page altered by its host could print anything here (docs/verifier.md, A page you can check).
 */
function showPageHash(): void {
  const line = $('page-hash')
  const how = 'Check it yourself: hash the downloaded file, compare with docs/verifier.md or orbitdraw verifier-page.'
  if (location.protocol !== 'http:' && location.protocol !== 'https:') {
    line.textContent = `Opened from a file, so this page cannot read its own bytes. ${how}`
    return
  }
  // On request only: the page starts no worker and makes no request of its own until asked.
  const button = h('button', { type: 'button', class: 'button', id: 'page-hash-button' }, "Show this page's SHA-256")
  line.replaceChildren(button)
  button.addEventListener('click', () => hashOwnFile(line, how), { once: true })
}

function hashOwnFile(line: HTMLElement, how: string): void {
  void (async () => {
    const res = await fetch(location.href, { credentials: 'omit', cache: 'force-cache' })
    if (!res.ok) throw new Error(`HTTP ${res.status}`)
    const bytes = new Uint8Array(await res.arrayBuffer())
    const worker = startWorker()
    const digest = await new Promise<{ sha256: string; cid: string }>((resolve, reject) => {
      worker.onmessage = (ev: MessageEvent<WorkerMessage>) => (ev.data.type === 'page-hash' ? resolve(ev.data.digest) : undefined)
      worker.onerror = () => reject(new Error('the hashing worker failed'))
      worker.postMessage({ type: 'page-hash', bytes } satisfies PageHashRequest, [bytes.buffer])
    }).finally(() => worker.terminate())
    line.dataset.sha256 = digest.sha256
    line.replaceChildren("This page's file as the server sends it: SHA-256 ", h('code', { id: 'page-sha256' }, digest.sha256), ', CID ', h('code', null, digest.cid), `. Shown by the page itself, so it proves nothing alone. ${how}`)
  })().catch(() => {
    line.textContent = `This page could not read its own file. ${how}`
  })
}

function init(): void {
  applyLanguage()
  $('version').textContent = `(protocol v${PROTOCOL_VERSION})`
  const file = $<HTMLInputElement>('file')
  file.addEventListener('change', () => {
    const f = file.files?.[0]
    if (f !== undefined) void checkFile(f)
    file.value = ''
  })
  $('verify-paste').addEventListener('click', () => {
    const text = $<HTMLTextAreaElement>('paste').value
    if (text.trim() === '') {
      renderError(t.ui.emptyPaste)
      return
    }
    verifyProof(text, t.ui.pastedProof)
  })
  $('cancel').addEventListener('click', cancel)
  // Paste anywhere outside a text field verifies the clipboard text.
  document.addEventListener('paste', (ev) => {
    const target = ev.target as HTMLElement | null
    if (target?.closest('textarea, input') != null) return
    const text = ev.clipboardData?.getData('text') ?? ''
    if (text.trim().startsWith('{')) {
      ev.preventDefault()
      $<HTMLTextAreaElement>('paste').value = text
      verifyProof(text, t.ui.pastedProof)
    }
  })
  // Drag and drop onto the whole page.
  const drop = $('drop')
  let depth = 0
  document.addEventListener('dragenter', (ev) => {
    ev.preventDefault()
    depth++
    drop.classList.add('over')
  })
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1)
    if (depth === 0) drop.classList.remove('over')
  })
  document.addEventListener('dragover', (ev) => {
    ev.preventDefault()
    if (ev.dataTransfer !== null) ev.dataTransfer.dropEffect = 'copy'
  })
  document.addEventListener('drop', (ev) => {
    const target = ev.target as HTMLElement | null
    if (target?.closest('#trust') != null) return // a PEM file dropped on the trust settings
    ev.preventDefault()
    depth = 0
    drop.classList.remove('over')
    const f = ev.dataTransfer?.files?.[0]
    if (f !== undefined) {
      void checkFile(f)
      return
    }
    const text = ev.dataTransfer?.getData('text') ?? ''
    if (text.trim() !== '') verifyProof(text, t.ui.droppedText)
  })

  // trust settings: the link's, shown in the panel (opened when they are not the default)
  fillPanel(fromLink.settings)
  if (customSettings(fromLink.settings).length > 0 || fromLink.settings.commitment !== undefined || fromLink.ignored.length > 0) $<HTMLDetailsElement>('trust').open = true
  $('trust-ignored').replaceChildren(...fromLink.ignored.map((t) => h('li', null, untrusted(t))))
  for (const id of ['trust-beacons', 'allow-unsigned', 'allow-untimestamped', 'trust-tsa', 'trust-drand', 'pin']) $(id).addEventListener('input', () => panelStatus())
  $<HTMLInputElement>('trust-tsa-file').addEventListener('change', () => {
    const input = $<HTMLInputElement>('trust-tsa-file')
    const f = input.files?.[0]
    input.value = ''
    if (f === undefined) return
    if (f.size > 1024 * 1024) {
      $('trust-status').textContent = `${f.name} is over 1 MiB: not a certificate file.`
      return
    }
    void f.text().then((text) => {
      const box = $<HTMLTextAreaElement>('trust-tsa')
      box.value = `${box.value.trim()}${box.value.trim() === '' ? '' : '\n'}${text.trim()}\n`
      panelStatus()
    })
  })
  $('apply-trust').addEventListener('click', () => {
    if (panelStatus() === undefined) return
    if (last !== undefined) verifyProof(last.proof, last.source)
  })
  panelStatus()

  showPageHash()
  const link = new URLSearchParams(location.search).get('proof')
  if (link !== null && link !== '') void checkUrl(link)
  document.body.dataset.ready = 'true'
}

init()
