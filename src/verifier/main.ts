/**
 * The browser verifier page: loads a proof (drop, file picker, paste, or `?proof=<url>`), hands its
 * bytes to the core's `verify` in a Web Worker (the page stays responsive; Cancel stops it), and
 * shows the verdict (green only under the strict default policy), the facts to compare first, every
 * check, the outcome and a picture of the evidence.
 *
 * The main thread never parses the proof: the worker posts back only what rendering needs. Proof
 * content is untrusted: it reaches the page through text nodes only (never HTML parsing), and hidden
 * characters (bidi controls, zero-width characters, controls) and spaces other than U+0020 are shown as
 * visible marks, in attributes (tooltips, screen-reader labels) too.
 *
 * @module
 */
import { LIMITS } from '../core/limits.js'
import { PROTOCOL_VERSION } from '../core/version.js'
import { LANGUAGES } from './messages.js'
import type { PageHashRequest, WorkerMessage } from './model.js'
import { $, h, t, untrusted } from './page-dom.js'
import { renderError } from './render.js'
import { cancel, isLatest, last, newInput, startWorker, verifyProof } from './run.js'
import { customSettings } from './settings.js'
import { errorText, fillPanel, fromLink, panelStatus } from './trust-panel.js'

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
// ---------------------------------------------------------------------------------------------
// inputs

// Each input first replaces the one before (newInput: its run stopped, its verdict cleared); one that
// reads before verifying checks, after each await, that no later input replaced it meanwhile.

async function checkFile(file: File): Promise<void> {
  const input = newInput()
  if (file.size > LIMITS.maxProofBytes) {
    renderError(t.ui.tooBig(file.name, file.size, LIMITS.maxProofBytes))
    return
  }
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(await file.arrayBuffer())
  } catch (err) {
    // a folder dropped instead of a file, or a file that changed or vanished since it was picked
    if (isLatest(input)) renderError(t.ui.readFailed(file.name, errorText(err)))
    return
  }
  if (isLatest(input)) verifyProof(bytes, t.ui.file(file.name), file)
}

async function checkUrl(raw: string): Promise<void> {
  const input = newInput()
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
    if (isLatest(input)) verifyProof(bytes, url.href)
  } catch (err) {
    if (!isLatest(input)) return
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
  const how = t.ui.pageHashHow
  if (location.protocol !== 'http:' && location.protocol !== 'https:') {
    line.textContent = `${t.ui.pageHashFromFile} ${how}`
    return
  }
  // On request only: the page starts no worker and makes no request of its own until asked.
  const button = h('button', { type: 'button', class: 'button', id: 'page-hash-button' }, t.ui.pageHashButton)
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
    line.replaceChildren(t.ui.pageHashShown, h('code', { id: 'page-sha256' }, digest.sha256), t.ui.pageHashCid, h('code', null, digest.cid), `${t.ui.pageHashProvesNothing} ${how}`)
  })().catch(() => {
    line.textContent = `${t.ui.pageHashFailed} ${how}`
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
      newInput()
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
      $('trust-status').replaceChildren(untrusted(t.ui.certTooLarge(f.name)))
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
    if (last === undefined) return
    // a file is read again (one changed or removed since it was picked is named as such); the rest were kept
    if (last.proof instanceof File) void checkFile(last.proof)
    else verifyProof(last.proof, last.source)
  })
  panelStatus()

  showPageHash()
  const link = new URLSearchParams(location.search).get('proof')
  if (link !== null && link !== '') void checkUrl(link)
  document.body.dataset.ready = 'true'
}

init()
