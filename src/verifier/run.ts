/**
 * The verifier page's runs: each proof verified in a fresh `blob:` Web Worker (Cancel terminates it),
 * the pairing worker started only for a mixed proof and relayed to, and the worker of a verified full
 * disclosure kept to answer "was I in the draw?".
 *
 * @module
 */
import type { ProbabilitiesRequest, ProbabilitiesStopRequest, SearchRequest, VerifyRequest, WorkerMessage } from './model.js'
import type { PairingAnswer } from './pairing-client.js'
import { $, t, untrusted } from './page-dom.js'
import { render, renderCommitment, renderError, renderProbabilities, renderReceipt, renderSearchResult } from './render.js'
import { errorText, fromLink, panelStatus } from './trust-panel.js'

let workerUrl: string | undefined
let pairingUrl: string | undefined
let current: { worker: Worker; timer: ReturnType<typeof setInterval>; pairing?: Worker } | undefined
/** The worker that verified the shown proof, kept to answer searches of its entries and to compute a sortition proof's probabilities. */
let searcher: Worker | undefined

function searchEntriesInWorker(query: string): void {
  const request: SearchRequest = { type: 'search', query }
  searcher?.postMessage(request)
}
function probabilitiesInWorker(action?: 'stop'): void {
  const request: ProbabilitiesRequest | ProbabilitiesStopRequest = { type: action === 'stop' ? 'probabilities-stop' : 'probabilities' }
  searcher?.postMessage(request)
}
/**
 * What *Apply and re-verify* checks again: the picked or dropped `File` itself (read again then: its
 * bytes were moved to the worker, not kept), else the fetched bytes or the pasted text.
 */
export let last: { proof: File | Uint8Array | string; source: string } | undefined

/** Counts the page's inputs (a file, a paste, a link, a re-verify): only the latest one's answer is ever shown. */
let inputs = 0

/**
 * A new input replaces whatever the page was doing and showing: the run in progress is stopped (its
 * verdict would be another proof's) and the shown result is cleared, so no verdict ever stays on screen,
 * or arrives later, under another input. Returns the input's number; after an `await` (reading a file,
 * fetching a link), {@link isLatest} tells whether a later input replaced it.
 */
export function newInput(): number {
  stopRun()
  $('result').replaceChildren()
  $('result').hidden = true
  $('source').textContent = ''
  document.body.dataset.state = 'loading'
  return ++inputs
}

/** True while no input came after `input` ({@link newInput}). */
export function isLatest(input: number): boolean {
  return input === inputs
}

export function startWorker(): Worker {
  if (workerUrl === undefined) {
    const code = document.getElementById('verify-worker')?.textContent ?? ''
    // the page's words (every language), which the worker reads from the words script run before it
    const words = document.getElementById('page-messages')?.textContent ?? ''
    if (code === '' || words === '') throw new Error('this page was built without its verifier worker')
    workerUrl = URL.createObjectURL(new Blob([words, '\n', code], { type: 'text/javascript' }))
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

/**
 * Verifies `proof` in a fresh worker, replacing whatever the page was doing. `file`: the File the bytes
 * were read from; they are then moved to the worker (a transfer, not a copy: a 250 MB file cost the
 * page 250 MB more for as long as it was shown) and the File is kept to re-verify.
 */
export function verifyProof(proof: Uint8Array | string, source: string, file?: File): void {
  newInput()
  const settings = panelStatus()
  if (settings === undefined) {
    $<HTMLDetailsElement>('trust').open = true
    renderError(t.ui.invalidSettings)
    return
  }
  last = { proof: file ?? proof, source }
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
  // the source names a file or a link: untrusted text, its hidden characters shown (a U+202E in a file name)
  phase.replaceChildren(untrusted(t.ui.verifying(source, size)))
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
      phase.replaceChildren(untrusted(msg.phase === 'verifying' ? t.ui.verifying(source, size) : t.ui.preparing))
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
    if (msg.type === 'probabilities') return
    const keep = msg.type === 'done' && (msg.model.searchable === true || msg.model.probabilities !== undefined)
    stopRun(keep)
    if (keep) {
      searcher = run.worker
      searcher.onmessage = (e: MessageEvent<WorkerMessage>) => {
        if (e.data.type === 'search') renderSearchResult(e.data.result)
        if (e.data.type === 'probabilities') renderProbabilities(e.data)
      }
    }
    if (msg.type === 'error') {
      renderError(t.ui.stopped(msg.message))
      return
    }
    const total = performance.now() - started
    $('source').replaceChildren(untrusted(t.ui.checked(source, (total / 1000).toFixed(1))))
    if (msg.type === 'receipt') renderReceipt(msg.receipt)
    else if (msg.type === 'commitment') renderCommitment(msg.commitment)
    else render(msg.model, source, searchEntriesInWorker, probabilitiesInWorker)
    $('result').dataset.totalMs = total.toFixed(0)
    $('result').scrollIntoView({ behavior: 'smooth', block: 'start' })
  }
  worker.onerror = (ev) => {
    if (current !== run) return
    ev.preventDefault()
    stopRun()
    renderError(t.ui.workerFailed(ev.message))
  }
  const request: VerifyRequest = { proof, settings, link: fromLink.settings, lang: t.lang }
  // A file's bytes are moved (the File is read again to re-verify); fetched bytes are copied, the page
  // keeps them to re-verify under other trust settings (fetching again might give other bytes).
  worker.postMessage(request, file !== undefined && typeof proof !== 'string' ? [proof.buffer] : [])
}

export function cancel(): void {
  if (current === undefined) return
  stopRun()
  $('source').textContent = t.ui.cancelled
  $('result').replaceChildren()
  $('result').hidden = true
  document.body.dataset.state = 'cancelled'
}

