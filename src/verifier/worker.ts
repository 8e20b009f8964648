/**
 * The verifier page's Web Worker: runs the core's `verify` on the proof's bytes exactly as loaded
 * (the spec's strict UTF-8, duplicate-key and size rules apply to them), then posts back only what
 * the page draws ({@link RenderModel}). The page stays responsive, and Cancel terminates this worker.
 *
 * Bundled by scripts/build-verifier.ts into the page as a non-executed `<script type="text/plain">`
 * block, which the page starts as a `blob:` worker (CSP `worker-src blob:`). The page's entry,
 * worker-main.ts, starts it with the built-in kinds; a test page starts it with its own kinds too.
 *
 * @module
 */
import { base64ToBytes } from '../core/bytes.js'
import { commitmentCid, parseCommitment, type Commitment } from '../core/commitment.js'
import { LIMITS } from '../core/limits.js'
import { COMMITMENT_FILE_TYPE } from '../core/schema/commitment-file.js'
import { readProofJson } from '../core/proof.js'
import { parseTimestampToken } from '../core/timestamp/token.js'
import { ORBITPORT_BEACONS } from '../core/trust.js'
import { checkReceipt, RECEIPT_TYPE } from '../core/receipt.js'
import { verify } from '../core/verify.js'
import type { DrawKinds } from '../core/kinds/kind.js'
import { buildModel, carriedParticipants, searchEntries, sectionView, sortitionFeatures, verifyOptions, winnerRanks, type CommitmentModel, type PageHashRequest, type ProbabilitiesRequest, type ProbabilitiesStopRequest, type SearchRequest, type SectionView, type VerifyRequest, type WorkerMessage } from './model.js'
import { probabilitiesSection, probabilityOffer, startProbabilities, type ProbabilityOffer } from './sortition-view.js'
import type { PanelProbabilities } from '../core/kinds/panel-probabilities.js'
import { en, LANGUAGES } from './messages.js'
import { pageDigest } from './page-digest.js'
import { answerPairing, type PairingAnswer } from './pairing-client.js'
import { pinOrigin } from './settings.js'

interface WorkerScope {
  onmessage: ((ev: MessageEvent<VerifyRequest | SearchRequest | ProbabilitiesRequest | ProbabilitiesStopRequest | PageHashRequest | PairingAnswer>) => void) | null
  postMessage(message: WorkerMessage): void
}

const scope = self as unknown as WorkerScope

/**
 * The entries of the last verified full disclosure, kept for "was I in the draw?" searches, and each
 * winner's rank by index. Only set when the `participants` check passed: the list is the committed one.
 */
let searchable: { entries: readonly string[]; ranks: ReadonlyMap<number, number> } | undefined

/** The sortition draw of the last verified proof whose probabilities the page may ask for, and its commitment CID. */
let estimable: { draw: unknown; cid: string; offer: ProbabilityOffer } | undefined

/** The estimate running, if any: set `stop` to end it with the figures of the panels drawn so far. */
let running: { stop: boolean } | undefined

/** How often a running estimate posts its partial figures (and lets a stop request in), in ms. */
const PROGRESS_MS = 1000

/**
 * Computes the offered probabilities of the last verified sortition proof, as a table by feature:
 * exact at once; an estimate a panel at a time, posting the figures of the panels drawn so far about
 * every second (`progress`; exactly those of `orbitdraw inspect --probabilities --panels n`) and
 * yielding, so that a stop request ends it with those figures (`stopped`).
 */
async function answerProbabilities(): Promise<void> {
  if (estimable === undefined) {
    scope.postMessage({ type: 'probabilities', error: 'no sortition proof was verified' })
    return
  }
  const { draw, cid, offer } = estimable
  const token = { stop: false }
  if (running !== undefined) running.stop = true
  running = token
  const table = (p: PanelProbabilities | undefined): SectionView | undefined => (p === undefined ? undefined : sectionView(probabilitiesSection(p), sortitionFeatures(draw)))
  try {
    const run = startProbabilities(draw, cid, offer.panels)
    let last = performance.now()
    while (!run.done && !token.stop) {
      run.advance(1)
      if (performance.now() - last >= PROGRESS_MS) {
        const section = table(run.current())
        scope.postMessage({ type: 'probabilities', progress: { drawn: run.drawn, panels: run.panels }, ...(section === undefined ? {} : { section }) })
        await new Promise((resolve) => setTimeout(resolve, 0))
        last = performance.now()
      }
    }
    const section = table(run.current())
    if (section === undefined) scope.postMessage({ type: 'probabilities', error: `stopped after ${run.drawn} sample panel(s): an estimate needs at least 2`, stopped: { drawn: run.drawn, panels: run.panels } })
    else scope.postMessage({ type: 'probabilities', section, ...(run.done ? {} : { stopped: { drawn: run.drawn, panels: run.panels } }) })
  } catch (err) {
    scope.postMessage({ type: 'probabilities', error: err instanceof Error ? err.message : String(err) })
  } finally {
    if (running === token) running = undefined
  }
}

/** The document's `type`; undefined when it is not an object. */
function documentType(doc: unknown): unknown {
  return typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as { type?: unknown }).type : undefined
}

/** The input read once by the core's byte-level rules (`readProofJson`), or undefined when it is not readable JSON. */
function readOnce(input: Uint8Array | string): { readonly doc: unknown } | undefined {
  try {
    return { doc: readProofJson(input) }
  } catch {
    return undefined
  }
}

/**
 * A commitment file (or a bare commitment) read as `orbitdraw inspect` reads it, or undefined when the
 * document is not one (then `verify` says why it is not a readable proof).
 */
function readCommitment(read: unknown, type: unknown, kinds: DrawKinds): CommitmentModel | undefined {
  if (type !== COMMITMENT_FILE_TYPE && type !== undefined) return undefined
  // As parseCommitmentFile reads it (without loading its schema into the page): a bare commitment, or
  // { type, version, cid, commitment, timestamps } whose cid is the commitment's.
  let file: { commitment: Commitment; cid: string; timestamps: readonly unknown[] }
  try {
    const doc = read as Record<string, unknown>
    const c = parseCommitment(type === undefined ? doc : doc.commitment, { kinds })
    const cid = commitmentCid(c, kinds)
    if (type !== undefined && doc.cid !== cid) return undefined
    const tokens = type === undefined ? [] : doc.timestamps
    if (!Array.isArray(tokens) || tokens.length > LIMITS.maxTimestampTokens) return undefined
    file = { commitment: c, cid, timestamps: tokens }
  } catch {
    return undefined
  }
  const c = file.commitment
  const known = ORBITPORT_BEACONS.find((b) => b.name === c.beacon)
  return {
    cid: file.cid,
    label: c.label,
    drawText: kinds.get(c.draw.kind)?.describe(c.draw, c.participants?.count) ?? c.draw.kind,
    ...(c.participants === undefined ? {} : { participants: { count: c.participants.count, salted: c.participants.salted === true } }),
    beacon: known === undefined ? c.beacon : `${known.label} (${c.beacon})`,
    target: c.target,
    after: c.after.sequence,
    timestamps: file.timestamps.map((t) => {
      try {
        return typeof t === 'string' ? Math.floor(parseTimestampToken(base64ToBytes(t)).tstInfo.genTime / 1000) : undefined
      } catch {
        return undefined
      }
    }),
  }
}

async function run(req: VerifyRequest, kinds: DrawKinds): Promise<void> {
  scope.postMessage({ type: 'phase', phase: 'verifying' })
  // Read once: the commitment, `verify` and the evidence use the value (a 250 MB file was read three
  // times, twice the CLI's time). An unreadable input goes to `verify` as given: `format` says why.
  const read = readOnce(req.proof)
  const type = read === undefined ? undefined : documentType(read.doc)
  const commitment = read === undefined ? undefined : readCommitment(read.doc, type, kinds)
  if (commitment !== undefined) {
    scope.postMessage({ type: 'commitment', commitment })
    return
  }
  if (type === RECEIPT_TYPE) {
    // A participant's receipt: "was I in the draw?" — checked offline against its own commitment.
    const r = checkReceipt(req.proof, req.settings.commitment === undefined ? {} : { commitment: req.settings.commitment })
    scope.postMessage({
      type: 'receipt',
      receipt: {
        ok: r.ok,
        pinned: r.pinned,
        ...(r.pinned ? { pinnedBy: pinOrigin(req.settings, req.link) } : {}),
        ...(r.receipt === undefined ? {} : { commitmentCid: r.receipt.commitmentCid, entry: r.receipt.entry, position: r.receipt.index + 1 }),
        ...(r.commitment?.participants === undefined ? {} : { count: r.commitment.participants.count }),
        checks: r.checks,
        notes: r.notes,
      },
    })
    return
  }
  const started = performance.now()
  const result = await verify(read === undefined ? req.proof : read.doc, verifyOptions(req.settings, new Date(), kinds))
  const verifyMs = performance.now() - started
  scope.postMessage({ type: 'phase', phase: 'preparing' })
  // Only a proof `verify` read as one (format passed) is pictured as evidence: the value read above.
  const proof = read !== undefined && result.checks.some((c) => c.name === 'format' && c.ok) ? read.doc : undefined
  const model = buildModel(result, proof, req.settings, req.link, { webCrypto: globalThis.crypto?.subtle !== undefined, verifyMs }, kinds, LANGUAGES[req.lang ?? 'en'] ?? en)
  const carried = carriedParticipants(proof)
  if (carried?.entries !== undefined && result.checks.some((c) => c.name === 'participants' && c.ok)) {
    searchable = { entries: carried.entries, ranks: winnerRanks(result.outcome, kinds) }
  }
  // The probabilities a sortition proof does not carry, computed later on request from the commitment alone.
  const offer = result.commitment === undefined || result.commitmentCid === undefined ? undefined : probabilityOffer(result.commitment.draw, result.outcome)
  estimable = offer === undefined ? undefined : { draw: result.commitment!.draw, cid: result.commitmentCid!, offer }
  scope.postMessage({ type: 'done', model: { ...model, searchable: searchable !== undefined, ...(offer === undefined ? {} : { probabilities: offer }) } })
}

/** Answers the page's messages, verifying with `kinds`. */
export function startVerifierWorker(kinds: DrawKinds): void {
  scope.onmessage = (ev) => {
    const msg = ev.data
    if (msg.type === 'pairing-result') {
      answerPairing(msg)
      return
    }
    if (msg.type === 'page-hash') {
      scope.postMessage({ type: 'page-hash', digest: pageDigest(msg.bytes) })
      return
    }
    if (msg.type === 'search') {
      if (searchable !== undefined) scope.postMessage({ type: 'search', result: searchEntries(searchable.entries, msg.query, searchable.ranks) })
      return
    }
    if (msg.type === 'probabilities') {
      void answerProbabilities()
      return
    }
    if (msg.type === 'probabilities-stop') {
      if (running !== undefined) running.stop = true
      return
    }
    run(msg, kinds).catch((err: unknown) => scope.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) }))
  }
}
