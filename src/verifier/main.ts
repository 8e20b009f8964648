/**
 * The browser verifier page: loads a proof (drop, file picker, paste, or `?proof=<url>`), runs the
 * same `verify` as Node, and shows the verdict, every check, the outcome and a picture of the
 * evidence. Proof content is untrusted: every piece of it reaches the page through `textContent` or
 * `setAttribute`, never through HTML parsing.
 *
 * @module
 */
import { LIMITS, PROTOCOL_VERSION, verify, type OutcomeJson, type VerifyResult } from '../core/index.js'
import { buildEvidence, formatTime, type Evidence, type EvidenceLink, type EvidenceNode, type State } from './evidence.js'

/** Rows of a ranking / value list shown before "… and N more". */
const MAX_ROWS = 500

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

const MARK: Record<State, string> = { ok: '✓', fail: '✗', unchecked: '○', absent: '–' }
const STATE_TEXT: Record<State, string> = { ok: 'checked', fail: 'failed', unchecked: 'not checked', absent: 'absent' }

function badge(state: State): HTMLElement {
  return h('span', { class: `badge state-${state}` }, h('span', { class: 'badge-mark', 'aria-hidden': 'true' }, MARK[state]), ' ', STATE_TEXT[state])
}

// ---------------------------------------------------------------------------------------------
// rendering

function renderVerdict(r: VerifyResult, hasRecord: boolean): HTMLElement {
  const failed = r.checks.filter((c) => !c.ok)
  const recordChecked = r.checks.some((c) => c.name.startsWith('ipns-record-'))
  const integrityOk = r.checks.some((c) => c.name === 'block-content' && c.ok)
  const mark = (m: string): HTMLElement => h('span', { class: 'auth-mark', 'aria-hidden': 'true' }, m)
  const auth = r.authenticated
    ? h('p', { class: `auth ${r.ok ? 'auth-yes' : 'auth-partial'}`, id: 'auth' }, mark('✓'), 'Authenticated by the beacon’s signed IPNS record', r.ok ? '' : ' (the blocks are genuine; the failure is elsewhere)')
    : hasRecord && recordChecked
      ? h('p', { class: 'auth auth-bad', id: 'auth' }, mark('!'), 'Not authenticated — the signed beacon record does not check out')
      : hasRecord
        ? h('p', { class: 'auth auth-partial', id: 'auth' }, mark('?'), 'Not authenticated — the signed beacon record could not be checked (see the notes)')
        : integrityOk
          ? h('p', { class: 'auth auth-no', id: 'auth' }, mark('i'), 'Integrity only — no signed beacon record', h('span', { class: 'auth-more' }, ': the blocks match their content addresses, but nothing in the proof shows the beacon published them'))
          : undefined
  return h(
    'div',
    { class: `verdict ${r.ok ? 'verdict-ok' : 'verdict-fail'}`, id: 'verdict', 'data-ok': String(r.ok), 'data-authenticated': String(r.authenticated) },
    h('div', { class: 'verdict-icon', 'aria-hidden': 'true' }, r.ok ? '✓' : '✗'),
    h(
      'div',
      { class: 'verdict-body' },
      h('h2', { id: 'verdict-title' }, r.ok ? 'Verified' : 'Failed'),
      h(
        'p',
        { class: 'verdict-line' },
        r.ok
          ? `All ${r.checks.length} checks passed: the outcome follows from the committed list and the committed beacon block.`
          : `${failed.length} of ${r.checks.length} check${r.checks.length === 1 ? '' : 's'} failed: `,
        ...(r.ok ? [] : failed.flatMap((c, i) => [i > 0 ? ', ' : '', h('code', { class: 'failed-name' }, c.name)])),
      ),
      auth,
      noWebCrypto() && failed.some((c) => c.name === 'ipns-record-signature' && c.detail.includes('RSA'))
        ? h('p', { class: 'warning', id: 'webcrypto-warning' }, 'This page has no Web Crypto API (it is served over plain http), which RSA signatures need: the ipns-record-signature failure may come from that rather than from the record. Re-check the proof over https, from localhost, or from disk.')
        : undefined,
    ),
  )
}

/** True when the browser exposes no Web Crypto API (insecure context), so RSA signatures cannot be checked. */
function noWebCrypto(): boolean {
  return globalThis.crypto?.subtle === undefined
}

function renderSummary(r: VerifyResult, source: string): HTMLElement | undefined {
  const c = r.commitment
  if (c === undefined) return undefined
  const drawText =
    c.draw.kind === 'range'
      ? `${c.draw.count} ${c.draw.distinct ? 'distinct ' : ''}integer(s) in [${c.draw.min}, ${c.draw.max}]`
      : c.draw.kind === 'shuffle'
        ? `shuffle of ${c.participants?.count ?? 0} entries`
        : `${c.draw.kind === 'weighted' ? 'weighted ' : ''}pick ${c.draw.count} of ${c.participants?.count ?? 0}`
  const rows: [string, string, boolean?][] = [
    ['Draw', c.label === '' ? '(no label)' : c.label],
    ['Kind', drawText],
    ['Target block', `${c.target}${r.target ? ` · ${formatTime(r.target.timestamp)}` : ''}`],
    ['Beacon', c.beacon, true],
    ['Proof', source],
  ]
  return h('section', { class: 'card summary', 'aria-label': 'Summary' }, dl(rows))
}

function dl(rows: readonly (readonly [string, string, boolean?])[]): HTMLElement {
  const list = h('dl', { class: 'facts' })
  for (const [k, v, mono] of rows) list.append(h('dt', null, k), h('dd', mono === true ? { class: 'mono', title: v } : null, v))
  return list
}

function renderOutcome(o: OutcomeJson | undefined, r: VerifyResult): HTMLElement | undefined {
  if (o === undefined) return undefined
  const verified = r.ok
  const title = o.kind === 'range' ? 'Values' : o.kind === 'shuffle' ? 'Ranking' : 'Winners'
  const section = h(
    'section',
    { class: `card outcome ${verified ? '' : 'unverified'}`, id: 'outcome', 'aria-labelledby': 'outcome-h' },
    h('h2', { id: 'outcome-h' }, title, verified ? '' : h('span', { class: 'tag tag-fail' }, 'claimed by the proof — not verified')),
  )
  if (o.kind === 'range') {
    const ol = h('ol', { class: 'values' })
    for (const v of o.values.slice(0, MAX_ROWS)) ol.append(h('li', null, h('span', { class: 'mono' }, v)))
    section.append(ol)
    if (o.values.length > MAX_ROWS) section.append(h('p', { class: 'more' }, `… and ${o.values.length - MAX_ROWS} more`))
    return section
  }
  const rows = o.kind === 'shuffle' ? o.ranking : o.winners
  const table = h('table', { class: 'ranked' }, h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Entry'), h('th', { scope: 'col', class: 'index' }, 'Position in list'))))
  const body = h('tbody')
  for (const w of rows.slice(0, MAX_ROWS)) {
    body.append(h('tr', { class: 'winner' }, h('td', { class: 'rank' }, `#${w.rank}`), h('td', { class: 'entry' }, h('bdi', null, w.entry)), h('td', { class: 'index' }, String(w.index))))
  }
  table.append(body)
  section.append(table)
  if (rows.length > MAX_ROWS) section.append(h('p', { class: 'more' }, `… and ${rows.length - MAX_ROWS} more (see the proof file)`))
  return section
}

/** Shortens a long status for a box; the full text is in the title and in the checks list. */
function clip(text: string, max = 170): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

function renderNode(n: EvidenceNode): HTMLElement {
  const facts = h('dl', { class: 'facts small' })
  for (const f of n.facts) facts.append(h('dt', null, f.label), h('dd', f.mono === true ? { class: 'mono', title: f.value } : null, f.value))
  return h(
    'li',
    { class: `node state-${n.state}`, 'data-node': n.key, 'data-state': n.state },
    h('div', { class: 'node-head' }, h('h3', null, n.title), badge(n.state)),
    h('p', { class: 'node-status', title: n.status }, clip(n.status)),
    facts,
    n.state === 'absent' ? undefined : h('p', { class: 'node-checks' }, ...n.checks.flatMap((c, i) => [i > 0 ? ' ' : '', h('code', null, c)])),
  )
}

function renderLink(l: EvidenceLink): HTMLElement {
  return h(
    'li',
    { class: `link state-${l.state}`, 'data-link': `${l.from}-${l.to}`, 'data-state': l.state, 'aria-label': `${l.label}: ${STATE_TEXT[l.state]} — ${l.status}` },
    h('span', { class: 'arrow', 'aria-hidden': 'true' }),
    h('span', { class: 'link-body', 'aria-hidden': 'true' }, h('span', { class: 'link-label' }, l.label), badge(l.state), h('span', { class: 'link-status' }, clip(l.status, 90))),
  )
}

function renderEvidence(e: Evidence): HTMLElement {
  const flow = h('ol', { class: 'flow', 'aria-label': 'Evidence chain, from the commitment to the signed head' })
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
        ...b.roles.map((r) => h('span', { class: 'chip-role' }, r === 'after' ? 'seen at commit' : r)),
        b.intact ? '' : h('span', { class: 'chip-role bad' }, 'corrupt'),
      ),
    )
  })

  const [seed, outcome] = e.derivation
  const step = (l: EvidenceLink | undefined, title: string): HTMLElement =>
    h('li', { class: `dnode state-${l?.state ?? 'unchecked'}`, 'data-step': l?.label ?? title, 'data-state': l?.state ?? 'unchecked' }, h('div', { class: 'node-head row' }, h('h3', null, title), badge(l?.state ?? 'unchecked')), h('p', { class: 'node-status', title: l?.status }, clip(l?.status ?? 'not checked', 240)), h('p', { class: 'node-checks' }, h('code', null, l?.label ?? '')))
  const deriv = h(
    'ol',
    { class: 'derive', 'aria-label': 'How the outcome follows from the block' },
    h('li', { class: 'dnode input' }, h('h3', null, 'Commitment CID'), h('p', { class: 'node-status' }, '+ the target block’s ctrng values')),
    h('li', { class: `dlink state-${seed?.state ?? 'unchecked'}`, 'aria-hidden': 'true' }, h('span', { class: 'arrow' })),
    step(seed, 'Seed'),
    h('li', { class: `dlink state-${outcome?.state ?? 'unchecked'}`, 'aria-hidden': 'true' }, h('span', { class: 'arrow' })),
    step(outcome, 'Outcome'),
  )

  const legend = h(
    'p',
    { class: 'legend' },
    ...(['ok', 'fail', 'unchecked', 'absent'] as const).flatMap((s) => [badge(s), ' ']),
  )

  return h(
    'section',
    { class: 'card evidence', id: 'evidence', 'aria-labelledby': 'evidence-h' },
    h('h2', { id: 'evidence-h' }, 'Evidence'),
    h('p', { class: 'explain' }, 'The commitment was published before its target block existed; the target block’s randomness decides the draw; a signed record of the beacon vouches for the chain of blocks.'),
    flow,
    h('h3', { class: 'minor' }, `Blocks carried in the proof (${e.blockCount}), newest first`),
    strip,
    h('h3', { class: 'minor' }, 'From the block to the outcome'),
    deriv,
    legend,
  )
}

function renderChecks(r: VerifyResult): HTMLElement {
  const list = h('ol', { class: 'checks', id: 'checks' })
  for (const c of r.checks) {
    list.append(
      h(
        'li',
        { class: `check ${c.ok ? 'ok' : 'fail'}`, 'data-check': c.name, 'data-ok': String(c.ok) },
        h('span', { class: 'mark', 'aria-hidden': 'true' }, c.ok ? '✓' : '✗'),
        h('span', { class: 'visually-hidden' }, c.ok ? 'passed: ' : 'failed: '),
        h('code', { class: 'check-name' }, c.name),
        h('span', { class: 'check-detail' }, c.detail),
      ),
    )
  }
  const section = h('section', { class: 'card', 'aria-labelledby': 'checks-h' }, h('h2', { id: 'checks-h' }, `Checks (${r.checks.filter((c) => c.ok).length}/${r.checks.length} passed)`), list)
  if (r.notes.length > 0) {
    const notes = h('ul', { class: 'notes', id: 'notes' })
    for (const n of r.notes) notes.append(h('li', null, n))
    section.append(h('h3', { class: 'minor' }, 'Notes'), notes)
  }
  return section
}

function render(result: VerifyResult, parsed: unknown, source: string): void {
  const out = $('result')
  const evidence = buildEvidence(parsed, result)
  const hasRecord = evidence?.hasRecord ?? false
  out.replaceChildren(
    ...[
      renderVerdict(result, hasRecord),
      renderSummary(result, source),
      renderOutcome(result.outcome, result),
      evidence === undefined ? undefined : renderEvidence(evidence),
      renderChecks(result),
    ].filter((x): x is HTMLElement => x !== undefined),
  )
  out.hidden = false
  document.body.dataset.state = result.ok ? 'verified' : 'failed'
}

function renderError(message: string): void {
  const out = $('result')
  out.replaceChildren(h('div', { class: 'verdict verdict-error', id: 'verdict', 'data-ok': 'false' }, h('div', { class: 'verdict-icon', 'aria-hidden': 'true' }, '!'), h('div', { class: 'verdict-body' }, h('h2', { id: 'verdict-title' }, 'Could not load the proof'), h('p', { class: 'verdict-line' }, message))))
  out.hidden = false
  document.body.dataset.state = 'error'
}

// ---------------------------------------------------------------------------------------------
// inputs

let runId = 0

async function check(input: string | Uint8Array, source: string): Promise<void> {
  const id = ++runId
  $('source').textContent = `Verifying ${source}…`
  document.body.dataset.state = 'verifying'
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  const result = await verify(parsed === undefined ? text : parsed, { now: new Date() })
  if (id !== runId) return
  $('source').textContent = `Checked ${source}.`
  render(result, parsed, source)
  $('result').scrollIntoView({ behavior: 'smooth', block: 'start' })
}

async function checkFile(file: File): Promise<void> {
  if (file.size > LIMITS.maxProofBytes) {
    renderError(`${file.name} is ${file.size} bytes, over the ${LIMITS.maxProofBytes}-byte limit for proofs.`)
    return
  }
  await check(new Uint8Array(await file.arrayBuffer()), `file “${file.name}”`)
}

async function checkUrl(raw: string): Promise<void> {
  let url: URL
  try {
    url = new URL(raw, location.href)
  } catch {
    renderError(`“${raw}” is not a valid URL.`)
    return
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:' && url.protocol !== location.protocol) {
    renderError(`Only http(s) proof links are fetched, not ${url.protocol}`)
    return
  }
  $('source').textContent = `Fetching ${url.href}…`
  try {
    const res = await fetch(url, { credentials: 'omit', referrerPolicy: 'no-referrer' })
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`)
    const length = Number(res.headers.get('content-length') ?? '0')
    if (length > LIMITS.maxProofBytes) throw new Error(`the proof is ${length} bytes, over the limit`)
    const bytes = new Uint8Array(await res.arrayBuffer())
    if (bytes.length > LIMITS.maxProofBytes) throw new Error(`the proof is ${bytes.length} bytes, over the limit`)
    await check(bytes, url.href)
  } catch (err) {
    $('source').textContent = ''
    renderError(`Could not fetch the proof from ${url.href}: ${(err as Error).message}. The host must allow cross-origin requests (CORS); otherwise download the file and drop it here.`)
  }
}

function init(): void {
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
      renderError('The paste box is empty.')
      return
    }
    void check(text, 'pasted proof')
  })
  // Paste anywhere outside a text field verifies the clipboard text.
  document.addEventListener('paste', (ev) => {
    const target = ev.target as HTMLElement | null
    if (target?.closest('textarea, input') != null) return
    const text = ev.clipboardData?.getData('text') ?? ''
    if (text.trim().startsWith('{')) {
      ev.preventDefault()
      $<HTMLTextAreaElement>('paste').value = text
      void check(text, 'pasted proof')
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
    ev.preventDefault()
    depth = 0
    drop.classList.remove('over')
    const f = ev.dataTransfer?.files?.[0]
    if (f !== undefined) {
      void checkFile(f)
      return
    }
    const text = ev.dataTransfer?.getData('text') ?? ''
    if (text.trim() !== '') void check(text, 'dropped text')
  })
  // RSA record signatures (the Orbitport beacon's key is RSA) are checked with the browser's Web
  // Crypto API, which only exists in secure contexts (https, localhost, file://).
  if (noWebCrypto()) {
    $('input').append(
      h('p', { class: 'warning', id: 'insecure', role: 'note' }, 'This page is served over plain http, so the browser offers no Web Crypto API: signed beacon records with RSA keys (like the Orbitport beacon’s) cannot be checked here. Open the page over https, from localhost, or from disk.'),
    )
  }
  const link = new URLSearchParams(location.search).get('proof')
  if (link !== null && link !== '') void checkUrl(link)
  document.body.dataset.ready = 'true'
}

init()
