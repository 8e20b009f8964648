/**
 * The verifier page's results: the verdict (green only under the strict default policy), the
 * summary, outcome, search, evidence and checks of a proof; a participant's receipt; a commitment
 * dropped instead of a proof; an error.
 *
 * @module
 */
import type { CommitmentModel, ReceiptModel, RenderModel, SearchResult } from './model.js'
import { h, $, t, untrusted } from './page-dom.js'
import { renderEvidence } from './render-evidence.js'
import { renderOutcome, renderSummary } from './render-outcome.js'
export { renderProbabilities } from './render-outcome.js'
import { receiptTier } from './settings.js'
import { formatTimeBoth } from './text.js'

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
function renderSearch(m: RenderModel, onSearch: (query: string) => void): HTMLElement | undefined {
  if (m.searchable !== true || m.participants === undefined) return undefined
  const input = h('input', { type: 'search', id: 'entry-search', placeholder: t.ui.searchPlaceholder, autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'entry-search-status' })
  const status = h('p', { class: 'search-status', id: 'entry-search-status', role: 'status' }, t.ui.searchCount(m.participants.count.toLocaleString(t.lang)))
  const results = h('ol', { class: 'search-results', id: 'entry-search-results' })
  let timer: ReturnType<typeof setTimeout> | undefined
  input.addEventListener('input', () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(() => onSearch(input.value), 120)
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

export function renderSearchResult(r: SearchResult): void {
  const status = document.getElementById('entry-search-status')
  const results = document.getElementById('entry-search-results')
  const input = document.getElementById('entry-search') as HTMLInputElement | null
  if (status === null || results === null || input === null || input.value !== r.query) return
  results.replaceChildren(...r.matches.map((x) => h('li', { 'data-position': String(x.position) }, untrusted(x.entry, true), t.ui.searchPosition(x.position.toLocaleString(t.lang)), x.rank === undefined ? '' : h('span', { class: 'tag tag-rank' }, t.ui.searchRank(x.rank)))))
  status.textContent = r.query.trim() === '' ? '' : r.total === 0 ? t.ui.searchNone : t.ui.searchFound(r.total.toLocaleString(t.lang), r.total, r.matches.length)
}

export function render(m: RenderModel, source: string, onSearch: (query: string) => void, onProbabilities?: (action?: 'stop') => void): void {
  const out = $('result')
  out.replaceChildren(...[renderVerdict(m), renderSummary(m.summary, source, m), renderOutcome(m.outcome, m, onProbabilities), renderSearch(m, onSearch), m.evidence === undefined ? undefined : renderEvidence(m.evidence), renderChecks(m)].filter((x): x is HTMLElement => x !== undefined))
  out.dataset.verifyMs = m.verifyMs.toFixed(0)
  // Nothing needs Web Crypto (RSA, ECDSA and Ed25519 are pure JS in the worker); recorded for the tests.
  out.dataset.webCrypto = String(m.webCrypto)
  out.hidden = false
  document.body.dataset.state = m.verdict.tier
}

/** A participant's receipt: green only when every check passed AND the reader pinned the announced CID. */
export function renderReceipt(r: ReceiptModel): void {
  // A CID pinned by the page's link is the sender's word, not the reader's: never green (see receiptTier).
  const tier = receiptTier(r)
  const title = tier === 'failed' ? 'This receipt does not check out' : tier === 'verified' ? 'You were in the draw' : 'In the committed list — now compare the CID'
  const facts = h('ul', { class: 'facts-list', id: 'verdict-facts' })
  if (r.commitmentCid !== undefined) {
    facts.append(
      h(
        'li',
        null,
        // the receipt's own CID: untrusted text until it is compared
        untrusted(tier === 'verified' ? t.ui.receiptPinned(r.commitmentCid) : r.pinned && r.pinnedBy === 'link' ? t.ui.receiptLinkPinned(r.commitmentCid) : t.ui.receiptCompare(r.commitmentCid)),
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
export function renderCommitment(c: CommitmentModel): void {
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

export function renderError(message: string): void {
  const out = $('result')
  out.replaceChildren(h('div', { class: 'verdict verdict-error', id: 'verdict', 'data-ok': 'false', 'data-tier': 'error' }, h('div', { class: 'verdict-icon', 'aria-hidden': 'true' }, '!'), h('div', { class: 'verdict-body' }, h('h2', { id: 'verdict-title' }, t.couldNotLoad), h('p', { class: 'verdict-line' }, untrusted(message)))))
  out.hidden = false
  document.body.dataset.state = 'error'
}

