/**
 * What the verifier page shows, computed next to `verify` in the Web Worker: the page's verdict
 * (green only for the strict policy), the facts a reader must see first, and only the parts of the
 * proof that rendering needs (the outcome's first rows, the evidence picture). The main thread gets
 * this plain object and never parses the proof itself.
 *
 * @module
 */
import { DEFAULT_DRAW_KINDS } from '../core/kinds/registry.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES } from '../core/timestamp/defaults.js'
import { ORBITPORT_BEACONS } from '../core/trust.js'
import { type Check } from '../core/check.js'
import { type DisplaySection, type DrawKinds, type OutcomeBase, type OutcomeDisplay, type TableColumn } from '../core/kinds/kind.js'
import { type ReceiptCheckName } from '../core/check-names.js'
import { type VerifyOptions, type VerifyResult } from '../core/verify.js'
import { DEFAULT_DRAND_CHAINS } from '../core/drand/chain.js'
import { buildEvidence, type Evidence } from './evidence.js'
import type { PageDigest } from './page-digest.js'
import type { PairingRequest } from './pairing-client.js'
import { en, type Messages } from './messages.js'
import type { TrustSettings } from './settings.js'
import { pageVerdict, type PageVerdict } from './verdict-text.js'
import { followUpSection, type ProbabilityOffer } from './sortition-view.js'

/** Rows of a ranking / value list / table (each section's) sent to the page; the rest is counted, not sent. */
export const MAX_ROWS = 500

export { pageVerdict, type PageVerdict, type Tier, type UsedSetting } from './verdict-text.js'

/** The headline of a verdict that passed under custom trust settings without relaxing a rule (English). */
export const CUSTOM_HEADLINE = en.verdict.custom

/**
 * The core's verify options for the page's settings.
 *
 * Extra beacons are added to {@link ORBITPORT_BEACONS} (a bad name makes `verify` fail its `policy`
 * check, naming it). `kinds` is the registry the page verifies with (the built-in kinds; a test page adds its own).
 */
export function verifyOptions(s: TrustSettings, now: Date, kinds: DrawKinds = DEFAULT_DRAW_KINDS): VerifyOptions {
  const trust = {
    ...(s.beacons.length === 0 ? {} : { beacons: [...ORBITPORT_BEACONS, ...s.beacons.map((name) => ({ name, label: 'a beacon added in the trust settings' }))] }),
    ...(s.tsaRoots.length === 0 ? {} : { timestampAuthorities: [...DEFAULT_TIMESTAMP_AUTHORITIES, ...s.tsaRoots] }),
    ...(s.drandChains === undefined || s.drandChains.length === 0 ? {} : { drandChains: [...DEFAULT_DRAND_CHAINS, ...s.drandChains.filter((c) => !DEFAULT_DRAND_CHAINS.some((d) => d.hash === c.hash))] }),
  }
  return {
    now,
    ...(Object.keys(trust).length === 0 ? {} : { trust }),
    ...(s.allowUnsigned ? { allowUnsigned: true } : {}),
    ...(s.allowUntimestamped ? { allowUntimestamped: true } : {}),
    ...(s.commitment === undefined ? {} : { commitment: s.commitment }),
    ...(kinds === DEFAULT_DRAW_KINDS ? {} : { kinds }),
  }
}

/** One table cell as the page draws it: text, and an emphasis (`ok`: a condition met, `bad`: not met). */
export interface CellView {
  readonly text: string
  readonly tone?: 'ok' | 'bad'
}

/** One part of the outcome, cut to at most {@link MAX_ROWS} rows; `total` counts them all. */
export type SectionView =
  | { readonly layout: 'values'; readonly title: string; readonly note?: string; readonly values: readonly string[]; readonly total: number }
  | { readonly layout: 'ranked'; readonly title: string; readonly note?: string; readonly rows: readonly RowView[]; readonly total: number; readonly features?: readonly string[] }
  | { readonly layout: 'table'; readonly title: string; readonly note?: string; readonly columns: readonly TableColumn[]; readonly rows: readonly (readonly CellView[])[]; readonly total: number; readonly compact?: boolean; readonly typeColumns?: number }

/** The outcome, cut to what the page draws: the kind's `display` (values, a ranked table, a plain table, or titled sections of those). */
export type OutcomeView = SectionView | { readonly layout: 'sections'; readonly title: string; readonly sections: readonly SectionView[] }

/** One ranked row: `index` is 0-based as in the proof (the page shows `index + 1`); `weight` for weighted draws whose weights the proof carries. */
export interface RowView {
  readonly rank: number
  readonly index: number
  /** The entry; for a sortition member shown by feature, its id. */
  readonly entry: string
  readonly weight?: number
  /** A sortition member's value on each feature (the section's `features`), read from its `id|feature=value|…` entry. */
  readonly fields?: readonly string[]
}

/**
 * The participants as the page describes them: a private (winners-only) proof reveals only the
 * winners; a full disclosure can be searched ("was I in the draw?") in the worker, which keeps the
 * entries (the main thread never receives the whole list).
 */
export interface ParticipantsView {
  readonly disclosure: 'full' | 'winners'
  /** The committed count. */
  readonly count: number
  /** True when the committed list is salted (private). */
  readonly salted: boolean
  /** Sum of the weights, for weighted draws whose weights the proof carries. */
  readonly totalWeight?: number
}

/** The summary card. */
export interface SummaryView {
  readonly label: string
  readonly draw: string
  readonly target: number
  readonly targetTime?: number
  readonly beacon: string
}

/** Everything the page renders for one verification. Plain data: it crosses from the worker by structured clone. */
export interface RenderModel {
  readonly verdict: PageVerdict
  readonly ok: boolean
  readonly authenticated: boolean
  readonly checks: readonly Check[]
  readonly notes: readonly string[]
  readonly summary?: SummaryView
  readonly outcome?: OutcomeView
  readonly participants?: ParticipantsView
  /** True when the worker kept the committed entries of a full disclosure for searching (set by the worker). */
  readonly searchable?: boolean
  readonly evidence?: Evidence
  /**
   * Per-type probabilities the proof does not carry that the worker can compute from the commitment on
   * request (a `panel` plan with rejection or households: an estimate; a `panel-replacement` draw).
   */
  readonly probabilities?: ProbabilityOffer
  /** True when the worker had the Web Crypto API (informational: every signature is checked in pure JS too). */
  readonly webCrypto: boolean
  /** Time `verify` took, in milliseconds. */
  readonly verifyMs: number
}

/**
 * Builds the {@link RenderModel}.
 *
 * @param proof - the proof as parsed JSON, only when `verify` accepted its bytes (format check passed).
 */
export function buildModel(r: VerifyResult, proof: unknown, s: TrustSettings, link: TrustSettings, env: { webCrypto: boolean; verifyMs: number }, kinds: DrawKinds = DEFAULT_DRAW_KINDS, m: Messages = en): RenderModel {
  const c = r.commitment
  const summary: SummaryView | undefined =
    c === undefined
      ? undefined
      : {
          label: c.label,
          draw: kinds.get(c.draw.kind)?.describe(c.draw, c.participants?.count) ?? c.draw.kind,
          target: c.target,
          ...(r.target === undefined ? {} : { targetTime: r.target.timestamp }),
          // named once: Orbitport's label and the name, or the name alone
          beacon: r.beacon?.source === 'default' && r.beacon.label !== undefined ? `${r.beacon.label} (${r.beacon.name})` : (r.beacon?.name ?? c.beacon),
        }
  const o = r.outcome
  const carried = carriedParticipants(proof)
  const features = sortitionFeatures(c?.draw)
  let outcome = o === undefined ? undefined : outcomeView(o, carried?.weights, kinds, features)
  // A follow-up draw (a replacement): who dropped out of the original draw it names, and the link.
  const follow = followUpSection(c?.draw, proof)
  if (outcome?.layout === 'sections' && follow !== undefined) outcome = { ...outcome, sections: [...outcome.sections, sectionView(follow, features)] }
  const participants: ParticipantsView | undefined =
    c?.participants === undefined || carried === undefined
      ? undefined
      : {
          disclosure: carried.disclosure,
          count: c.participants.count,
          salted: c.participants.salted === true,
          ...(carried.weights === undefined ? {} : { totalWeight: carried.weights.reduce((a, b) => a + b, 0) }),
        }
  const evidence = proof === undefined ? undefined : buildEvidence(proof, r, kinds, m)
  return {
    verdict: pageVerdict(r, s, link, m),
    ok: r.ok,
    authenticated: r.authenticated,
    checks: r.checks.map((x) => ({ ...x })),
    notes: [...r.notes],
    ...(summary === undefined ? {} : { summary }),
    ...(outcome === undefined ? {} : { outcome }),
    ...(participants === undefined ? {} : { participants }),
    ...(evidence === undefined ? {} : { evidence }),
    webCrypto: env.webCrypto,
    verifyMs: env.verifyMs,
  }
}

/**
 * What a proof that `verify` accepted as a document carries about its participants: the disclosure,
 * the entries of a full disclosure (for the worker's search) and the weights of a weighted one.
 */
export function carriedParticipants(proof: unknown): { disclosure: 'full' | 'winners'; entries?: readonly string[]; weights?: readonly number[] } | undefined {
  const p = (proof as { participants?: unknown } | undefined)?.participants
  if (typeof p !== 'object' || p === null) return undefined
  const { disclosure, entries } = p as { disclosure?: unknown; entries?: unknown }
  if (disclosure === 'winners') return { disclosure }
  if (disclosure !== 'full' || !Array.isArray(entries)) return undefined
  if (entries.every((e): e is string => typeof e === 'string')) return { disclosure, entries }
  const weighted = entries.every((e): e is { entry: string; weight: number } => typeof e === 'object' && e !== null && typeof (e as { entry?: unknown }).entry === 'string' && Number.isSafeInteger((e as { weight?: unknown }).weight))
  return weighted ? { disclosure, entries: entries.map((e) => e.entry), weights: entries.map((e) => e.weight) } : { disclosure }
}

/**
 * The outcome as the page shows it, from its kind's `display` (undefined for a kind the page does not
 * know); ranked rows get their weight when the proof carries the weights. Each section keeps at most
 * {@link MAX_ROWS} rows; a table row gets exactly one cell per column.
 */
export function outcomeView(o: OutcomeBase, weights?: readonly number[], kinds: DrawKinds = DEFAULT_DRAW_KINDS, features?: readonly string[]): OutcomeView | undefined {
  const d: OutcomeDisplay | undefined = kinds.get(o.kind)?.display(o)
  if (d === undefined) return undefined
  const section = (x: DisplaySection): SectionView => sectionView(x, features, weights)
  return d.layout === 'sections' ? { layout: 'sections', title: d.title, sections: d.sections.map(section) } : section(d)
}

/**
 * One display section as the page draws it: at most {@link MAX_ROWS} rows; a sortition draw's ranked
 * rows split into one column per committed feature (`features`), a table of respondent types
 * (`Type` first) likewise; a table row gets exactly one cell per column.
 */
export function sectionView(x: DisplaySection, features?: readonly string[], weights?: readonly number[]): SectionView {
  const row = (w: { rank: number; index: number; entry: string }): RowView => {
    const weight = weights?.[w.index]
    return { rank: w.rank, index: w.index, entry: w.entry, ...(weight === undefined ? {} : { weight }) }
  }
  const note = x.note === undefined ? {} : { note: x.note }
  if (x.layout === 'values') return { layout: 'values', title: x.title, ...note, values: x.values.slice(0, MAX_ROWS), total: x.values.length }
  if (x.layout === 'ranked') {
    const rows = x.rows.slice(0, MAX_ROWS).map(row)
    const split = features === undefined || features.length === 0 ? undefined : rows.map((r) => byFeature(r.entry, features))
    if (split !== undefined && split.every((f) => f !== undefined)) {
      return { layout: 'ranked', title: x.title, ...note, features, rows: rows.map((r, i) => ({ ...r, entry: split[i]!.id, fields: split[i]!.fields })), total: x.rows.length }
    }
    return { layout: 'ranked', title: x.title, ...note, rows, total: x.rows.length }
  }
  const rows = x.rows.slice(0, MAX_ROWS).map((r) => x.columns.map((_, i): CellView => {
    const c = r[i] ?? ''
    return typeof c === 'string' ? { text: c } : { text: c.text, tone: c.tone }
  }))
  const columns = x.columns.map((c): TableColumn => ({ label: c.label, ...(c.align === undefined ? {} : { align: c.align }) }))
  // A respondent type `feature=value|…` (probabilities by type): one column per feature, as the members.
  const types = x.columns[0]?.label === 'Type' ? typeColumns(rows.map((r) => r[0]?.text ?? '')) : undefined
  // A sortition draw's tables (quotas, probabilities) wrap their cells on a phone rather than scroll.
  const compact = features === undefined ? {} : { compact: true }
  // `typeColumns`: how many leading columns are the type's features (a phone shows them as one cell).
  if (types !== undefined) return { layout: 'table', title: x.title, ...note, columns: [...types.names.map((label) => ({ label })), ...columns.slice(1)], rows: rows.map((r, i) => [...types.values[i]!.map((text) => ({ text })), ...r.slice(1)]), total: x.rows.length, ...compact, typeColumns: types.names.length }
  return { layout: 'table', title: x.title, ...note, columns, rows, total: x.rows.length, ...compact }
}

/**
 * A sortition entry `id|feature=value|…` read by its committed features (names in order): the id (which
 * may itself hold `|`: read from the right) and each feature's value; undefined when it is not one.
 */
export function byFeature(entry: string, features: readonly string[]): { id: string; fields: string[] } | undefined {
  const parts = entry.split('|')
  if (parts.length < features.length + 1) return undefined
  const tail = parts.slice(parts.length - features.length)
  const fields: string[] = []
  for (const [i, f] of features.entries()) {
    const p = tail[i]!
    if (!p.startsWith(`${f}=`)) return undefined
    fields.push(p.slice(f.length + 1))
  }
  return { id: parts.slice(0, parts.length - features.length).join('|'), fields }
}

/** Respondent types `feature=value|…` split into one column per feature (the same features in every row), or undefined. */
function typeColumns(types: readonly string[]): { names: string[]; values: string[][] } | undefined {
  if (types.length === 0) return undefined
  if (!types.every((t) => t.split('|').every((p) => p.indexOf('=') > 0))) return undefined
  const split = types.map((t) => t.split('|').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as const))
  const names = split[0]!.map(([n]) => n)
  if (names.some((n) => n === '') || !split.every((row) => row.length === names.length && row.every(([n], i) => n === names[i]))) return undefined
  return { names, values: split.map((row) => row.map(([, v]) => v)) }
}

/** The committed feature names of a sortition draw (`panel`, `panel-lottery`), in committed order. */
export function sortitionFeatures(draw: unknown): string[] | undefined {
  const f = (draw as { kind?: unknown; features?: unknown } | undefined)?.features
  if (!Array.isArray(f)) return undefined
  const names = f.map((x) => (typeof (x as { name?: unknown })?.name === 'string' ? (x as { name: string }).name : undefined))
  return names.every((n): n is string => n !== undefined) ? names : undefined
}

/**
 * Each winner's rank by committed index, for "was I in the draw?": the rows of the display's ranked
 * layout, or of its first ranked section.
 */
export function winnerRanks(o: OutcomeBase | undefined, kinds: DrawKinds = DEFAULT_DRAW_KINDS): Map<number, number> {
  const d = o === undefined ? undefined : kinds.get(o.kind)?.display(o)
  const ranked = d?.layout === 'sections' ? d.sections.find((x) => x.layout === 'ranked') : d
  const ranks = new Map<number, number>()
  if (ranked?.layout === 'ranked') for (const w of ranked.rows) if (!ranks.has(w.index)) ranks.set(w.index, w.rank)
  return ranks
}

/** The most matches a search answers with (the total is counted). */
export const MAX_MATCHES = 50

/** One search answer: the matching entries' 1-based positions, and their rank when they won. */
export interface SearchResult {
  readonly query: string
  readonly total: number
  readonly matches: readonly { readonly position: number; readonly entry: string; readonly rank?: number }[]
}

/**
 * Finds entries containing `query`, compared case-insensitively after NFC normalisation (entries are
 * NFC by the spec; what a reader types may not be). At most {@link MAX_MATCHES} are returned; all are
 * counted. An empty query matches nothing.
 */
export function searchEntries(entries: readonly string[], query: string, ranks: ReadonlyMap<number, number>): SearchResult {
  const q = query.normalize('NFC').trim().toLowerCase()
  const matches: { position: number; entry: string; rank?: number }[] = []
  let total = 0
  if (q === '') return { query, total, matches }
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!
    if (!e.toLowerCase().includes(q)) continue
    total++
    if (matches.length < MAX_MATCHES) {
      const rank = ranks.get(i)
      matches.push({ position: i + 1, entry: e, ...(rank === undefined ? {} : { rank }) })
    }
  }
  return { query, total, matches }
}

/** Main thread → worker: verify a proof (a fresh worker each time). */
export interface VerifyRequest {
  readonly type?: 'verify'
  /** The proof exactly as loaded: file or fetched bytes, or pasted text. */
  readonly proof: Uint8Array | string
  readonly settings: TrustSettings
  readonly link: TrustSettings
  /** The page's language (messages.ts): the verdict and evidence are worded in it. */
  readonly lang?: string
}

/** Main thread → worker: compute the offered probabilities ({@link RenderModel.probabilities}) of the sortition proof it verified last. */
export interface ProbabilitiesRequest {
  readonly type: 'probabilities'
}

/** Main thread → worker: stop the estimate running; the figures of the sample panels drawn so far become its answer. */
export interface ProbabilitiesStopRequest {
  readonly type: 'probabilities-stop'
}

/** Main thread → worker: search the entries of the full disclosure it verified last. */
export interface SearchRequest {
  readonly type: 'search'
  readonly query: string
}

/**
 * What the page shows for a commitment file dropped instead of a proof (as `orbitdraw inspect` reads
 * it): read, not verified; it fixes a draw before its randomness exists and cannot show who won.
 */
export interface CommitmentModel {
  /** The CID recomputed from the commitment (the file's own claim is checked against it when read). */
  readonly cid: string
  readonly label: string
  /** The draw in words ("pick 3 of 120"). */
  readonly drawText: string
  readonly participants?: { readonly count: number; readonly salted: boolean }
  /** The beacon in words (its label when it is one of Orbitport's) and its name. */
  readonly beacon: string
  readonly target: number
  readonly after: number
  /** The genTime (Unix seconds) each carried time-stamp token claims (read, not verified); undefined: unreadable. */
  readonly timestamps: readonly (number | undefined)[]
}

/** Main thread → worker: the SHA-256 and CID of the page file as its server sends it (footer). */
export interface PageHashRequest {
  readonly type: 'page-hash'
  readonly bytes: Uint8Array
}

/** What the page shows for a participant's receipt ("was I in the draw?"). */
export interface ReceiptModel {
  /** True when every check passed. */
  readonly ok: boolean
  /** True when a pinned CID (the reader's or the link's) matched the receipt's commitment. */
  readonly pinned: boolean
  /**
   * Who pinned the CID: `reader` (typed into the trust panel), `link` (the page's `?commitment=`, left
   * as the link set it), or undefined (no pin). Only the reader's pin can make a receipt green.
   */
  readonly pinnedBy?: 'reader' | 'link'
  /** The receipt's commitment CID (to compare with the announcement), entry and 1-based position. */
  readonly commitmentCid?: string
  readonly entry?: string
  readonly position?: number
  readonly count?: number
  readonly checks: readonly Check<ReceiptCheckName>[]
  readonly notes: readonly string[]
}

/** Worker → main thread. */
export type WorkerMessage =
  | { readonly type: 'phase'; readonly phase: 'verifying' | 'preparing' }
  | { readonly type: 'done'; readonly model: RenderModel }
  | { readonly type: 'receipt'; readonly receipt: ReceiptModel }
  | { readonly type: 'search'; readonly result: SearchResult }
  | {
      readonly type: 'probabilities'
      readonly section?: SectionView
      readonly error?: string
      /** While an estimate runs: sample panels drawn so far and in all (`section`: the figures of those drawn). */
      readonly progress?: { readonly drawn: number; readonly panels: number }
      /** The answer of a stopped estimate: the figures of the `drawn` panels (of `panels` asked). */
      readonly stopped?: { readonly drawn: number; readonly panels: number }
    }
  | { readonly type: 'page-hash'; readonly digest: PageDigest }
  | { readonly type: 'commitment'; readonly commitment: CommitmentModel }
  | { readonly type: 'error'; readonly message: string }
  | PairingRequest
