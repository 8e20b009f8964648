/**
 * The verifier page's trust settings: what the reader chose in the "Advanced: trust settings" panel
 * or what the page's link (query string) set. Pure (no DOM, no core crypto), so the main thread can
 * use it without loading the verifier itself.
 *
 * The strict default is: Orbitport's beacons only, signed head required, a time-stamp required, the
 * built-in time-stamping roots. Pinning the commitment CID only narrows what passes, so it is not a
 * "custom" setting; every other non-default value is, and the page never shows a green verdict under
 * one.
 *
 * @module
 */
import { parseDrandInfo, type DrandChainInfo } from '../core/drand/chain.js'
import { InvalidInputError, OrbitdrawError } from '../core/errors.js'
import { en, type SettingWords } from './messages.js'

/** The reader's trust settings. The empty value ({@link DEFAULT_SETTINGS}) is the strict policy. */
export interface TrustSettings {
  /** Beacon IPNS names trusted in addition to Orbitport's (checked by the core's `verify`). */
  readonly beacons: readonly string[]
  /** Accept blocks that no signed beacon record vouches for (integrity only). */
  readonly allowUnsigned: boolean
  /** Accept a commitment that carries no time-stamp. */
  readonly allowUntimestamped: boolean
  /** Time-stamping root certificates (PEM blocks) trusted in addition to the built-in ones. Panel only. */
  readonly tsaRoots: readonly string[]
  /** drand chains trusted in addition to drand's quicknet, each read from its `/info` JSON ({@link parseDrandChainText}). Panel only. */
  readonly drandChains?: readonly DrandChainInfo[]
  /** The commitment CID the organizer announced; any other commitment fails `commitment-pinned`. */
  readonly commitment?: string
}

/** The strict policy. */
export const DEFAULT_SETTINGS: TrustSettings = Object.freeze({ beacons: Object.freeze([]), allowUnsigned: false, allowUntimestamped: false, tsaRoots: Object.freeze([]) })

/** Settings read from a link, and what in the link was not accepted (shown to the reader). */
export interface LinkSettings {
  readonly settings: TrustSettings
  /** One sentence per query parameter that was ignored, and why. */
  readonly ignored: readonly string[]
}

/** The query parameters the page reads (besides `proof`). */
export const QUERY = {
  beacon: 'trust-beacon',
  allowUnsigned: 'allow-unsigned',
  allowUntimestamped: 'allow-untimestamped',
  tsa: 'trust-tsa',
  drand: 'trust-drand',
  commitment: 'commitment',
} as const

/** Longest beacon name or CID accepted from a link or the panel (the core's `maxCidChars`). */
const MAX_NAME_CHARS = 256
/** Most extra beacons. */
const MAX_BEACONS = 32

/**
 * Reads trust settings from a page link's query string: `trust-beacon=NAME` (repeatable),
 * `allow-unsigned=1`, `allow-untimestamped=1`, `commitment=CID`. Time-stamping roots are never taken
 * from a link (`trust-tsa` is ignored, with a notice): a trust anchor must come from the reader.
 *
 * @example
 * ```ts
 * const { settings, ignored } = settingsFromQuery(new URLSearchParams(location.search))
 * ```
 */
export function settingsFromQuery(params: URLSearchParams): LinkSettings {
  const ignored: string[] = []
  const beacons: string[] = []
  for (const raw of params.getAll(QUERY.beacon)) {
    const name = raw.trim()
    if (name === '') continue
    if (name.length > MAX_NAME_CHARS || !/^[A-Za-z0-9]+$/.test(name)) ignored.push(`${QUERY.beacon}: ignored a value that is not an IPNS name (letters and digits, at most ${MAX_NAME_CHARS})`)
    else if (beacons.length >= MAX_BEACONS) ignored.push(`${QUERY.beacon}: ignored names past the first ${MAX_BEACONS}`)
    else if (!beacons.includes(name)) beacons.push(name)
  }
  const flag = (key: string): boolean => {
    const values = params.getAll(key)
    if (values.length === 0) return false
    if (values.every((v) => v === '0')) return false
    if (values.every((v) => v === '1' || v === '0')) return values.includes('1')
    ignored.push(`${key}: ignored (use ${key}=1 to turn it on)`)
    return false
  }
  const allowUnsigned = flag(QUERY.allowUnsigned)
  const allowUntimestamped = flag(QUERY.allowUntimestamped)
  if (params.has(QUERY.tsa)) ignored.push(`${QUERY.tsa}: ignored. Time-stamping roots are trust anchors: this page takes them only from you, through the trust settings panel, never from a link`)
  if (params.has(QUERY.drand)) ignored.push(`${QUERY.drand}: ignored. A drand chain is a trust anchor: this page takes it only from you, through the trust settings panel, never from a link`)
  const pins = params.getAll(QUERY.commitment).map((c) => c.trim()).filter((c) => c !== '')
  let commitment: string | undefined
  if (pins.length > 1) ignored.push(`${QUERY.commitment}: ignored, the link pins more than one CID`)
  else if (pins.length === 1) {
    if (pins[0]!.length > MAX_NAME_CHARS || !/^[A-Za-z0-9]+$/.test(pins[0]!)) ignored.push(`${QUERY.commitment}: ignored a value that is not a CID`)
    else commitment = pins[0]
  }
  return { settings: { beacons, allowUnsigned, allowUntimestamped, tsaRoots: [], ...(commitment === undefined ? {} : { commitment }) }, ignored }
}

/** The query string (without `?`) that gives these settings; time-stamping roots are left out (panel only). */
export function settingsToQuery(s: TrustSettings): string {
  const p = new URLSearchParams()
  for (const b of s.beacons) p.append(QUERY.beacon, b)
  if (s.allowUnsigned) p.set(QUERY.allowUnsigned, '1')
  if (s.allowUntimestamped) p.set(QUERY.allowUntimestamped, '1')
  if (s.commitment !== undefined) p.set(QUERY.commitment, s.commitment)
  return p.toString()
}

/**
 * Splits the panel's beacon list (one name per line; blank lines and spaces ignored).
 *
 * @throws {@link InvalidInputError} `INVALID_TRUSTED_BEACON` for a line that cannot be an IPNS name.
 */
export function parseBeaconLines(text: string): string[] {
  const names: string[] = []
  text.split(/\r?\n/).forEach((line, i) => {
    const name = line.trim()
    if (name === '') return
    if (name.length > MAX_NAME_CHARS || !/^[A-Za-z0-9]+$/.test(name)) {
      throw new InvalidInputError('INVALID_TRUSTED_BEACON', `line ${i + 1} of the trusted beacons is not an IPNS name`, 'give one beacon IPNS name per line (k51… or k2k4r8…), as printed by `orbitdraw emulator` or the beacon operator', { path: `beacons[${i}]` })
    }
    if (!names.includes(name)) names.push(name)
  })
  if (names.length > MAX_BEACONS) throw new InvalidInputError('INVALID_TRUSTED_BEACON', `${names.length} extra beacons given; at most ${MAX_BEACONS}`, 'trust only the beacons you need')
  return names
}

const PEM_RE = /-----BEGIN CERTIFICATE-----\r?\n([A-Za-z0-9+/=\r\n]+?)-----END CERTIFICATE-----/g

/**
 * Splits PEM text into certificate blocks (each normalized to `-----BEGIN CERTIFICATE-----` … with
 * `\n` line ends). Only structure is checked here; the certificates themselves are checked by the core.
 *
 * @throws {@link InvalidInputError} `INVALID_PEM` when the text holds anything but certificate blocks.
 */
export function parsePemCertificates(text: string): string[] {
  const blocks: string[] = []
  const rest = text.replace(PEM_RE, (_m, body: string) => {
    const b64 = body.replace(/[\r\n]/g, '')
    if (b64.length === 0 || b64.length % 4 !== 0) throw new InvalidInputError('INVALID_PEM', `certificate ${blocks.length + 1} is not valid base64`, 'paste the PEM file exactly as the time-stamping authority publishes it')
    blocks.push(`-----BEGIN CERTIFICATE-----\n${b64.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----`)
    return ''
  })
  if (rest.trim() !== '') {
    throw new InvalidInputError('INVALID_PEM', blocks.length === 0 ? 'no "-----BEGIN CERTIFICATE-----" block found' : 'text outside the certificate blocks', 'paste only PEM certificates (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----); private keys never belong here')
  }
  return blocks
}

/** Most characters of the panel's drand field (the CLI reads at most 64 KiB of `--trust-drand` file). */
const MAX_DRAND_TEXT = 64 * 1024
/** Most extra drand chains. */
const MAX_DRAND_CHAINS = 8

/**
 * Reads the panel's drand field: one chain's info JSON exactly as drand's `/info` (or
 * `/{chainhash}/info`) serves it, or a JSON array of such objects. Each is read as `orbitdraw verify
 * --trust-drand INFO.json` reads its file ({@link parseDrandInfo}: the chain hash recomputed from the
 * public key, genesis, period, group hash and beacon ID must match, and only the
 * `bls-unchained-g1-rfc9380` scheme is accepted). Empty text: no extra chain.
 *
 * @throws {@link InvalidInputError} `INVALID_DRAND_INFO` naming what is wrong.
 */
export function parseDrandChainText(text: string): DrandChainInfo[] {
  if (text.trim() === '') return []
  const bad = (detail: string, hint: string, path?: string): never => {
    throw new InvalidInputError('INVALID_DRAND_INFO', detail, hint, path === undefined ? {} : { path })
  }
  if (text.length > MAX_DRAND_TEXT) bad(`the drand chain info is ${text.length} characters, over ${MAX_DRAND_TEXT}`, "paste only the chain's /info JSON")
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    bad('the drand chain info is not JSON', "paste the chain's info JSON exactly as drand's /{chainhash}/info serves it")
  }
  const list = Array.isArray(json) ? json : [json]
  if (list.length > MAX_DRAND_CHAINS) bad(`${list.length} drand chains given; at most ${MAX_DRAND_CHAINS}`, 'trust only the chains you need')
  const chains: DrandChainInfo[] = []
  list.forEach((item, i) => {
    try {
      const chain = parseDrandInfo(item, 'a drand chain added in the trust settings')
      if (!chains.some((c) => c.hash === chain.hash)) chains.push(chain)
    } catch (err) {
      if (!(err instanceof OrbitdrawError)) throw err
      bad(`${list.length === 1 ? 'the drand chain info' : `drand chain ${i + 1}`}: ${err.detail}`, err.hint, `${Array.isArray(json) ? `[${i}]` : ''}${err.path?.replace(/^\$/, '') ?? ''}`)
    }
  })
  return chains
}

/** Where a setting came from. */
export type SettingOrigin = 'link' | 'panel'

/** One non-default setting in words. */
export interface CustomSetting {
  /** Stable key: `trust-beacon`, `allow-unsigned`, `allow-untimestamped`, `trust-tsa`, `trust-drand`. */
  readonly key: 'trust-beacon' | 'allow-unsigned' | 'allow-untimestamped' | 'trust-tsa' | 'trust-drand'
  /** `link` when the page's link set it (and the panel still holds the link's value), else `panel`. */
  readonly origin: SettingOrigin
  /** The beacon name, for `trust-beacon`; the chain hash, for `trust-drand`. */
  readonly value?: string
  /** What the setting does. */
  readonly what: string
  /** What the reader must check by other means. */
  readonly instead: string
}

/**
 * Every non-default setting (pinning excluded: it only narrows), in words, with what the reader must
 * check instead. An empty list means the strict policy.
 *
 * @param s - the settings in force.
 * @param link - the settings the page's link gave (to say "set by the link").
 * @param w - the words, in the page's language (default English).
 */
export function customSettings(s: TrustSettings, link: TrustSettings = DEFAULT_SETTINGS, w: SettingWords = en.settings): CustomSetting[] {
  const out: CustomSetting[] = []
  for (const b of s.beacons) out.push({ key: 'trust-beacon', origin: link.beacons.includes(b) ? 'link' : 'panel', value: b, what: w.trustBeacon(b), instead: w.trustBeaconInstead })
  if (s.allowUnsigned) out.push({ key: 'allow-unsigned', origin: link.allowUnsigned ? 'link' : 'panel', what: w.allowUnsigned, instead: w.allowUnsignedInstead })
  if (s.allowUntimestamped) out.push({ key: 'allow-untimestamped', origin: link.allowUntimestamped ? 'link' : 'panel', what: w.allowUntimestamped, instead: w.allowUntimestampedInstead })
  if (s.tsaRoots.length > 0) out.push({ key: 'trust-tsa', origin: 'panel', what: w.trustTsa(s.tsaRoots.length), instead: w.trustTsaInstead })
  for (const c of s.drandChains ?? []) {
    out.push({ key: 'trust-drand', origin: 'panel', value: c.hash, what: w.trustDrand(c.hash, c.period, `${new Date(c.genesis * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`), instead: w.trustDrandInstead })
  }
  return out
}

/** True when two settings are the same policy. */
export function sameSettings(a: TrustSettings, b: TrustSettings): boolean {
  const chains = (s: TrustSettings): string => (s.drandChains ?? []).map((c) => c.hash).join('\n')
  return settingsToQuery(a) === settingsToQuery(b) && a.tsaRoots.join('\n') === b.tsaRoots.join('\n') && chains(a) === chains(b)
}

/**
 * Who pinned the commitment CID in force: the reader (panel), or the page's link (`?commitment=`,
 * unchanged in the panel). A link's pin narrows what passes, but it is the sender's word, not the
 * reader's: an organizer who left someone out of the announced list could link them to another list.
 */
export function pinOrigin(s: TrustSettings, link: TrustSettings): 'reader' | 'link' | undefined {
  if (s.commitment === undefined) return undefined
  return s.commitment === link.commitment ? 'link' : 'reader'
}

/**
 * A receipt's colour: green (`verified`) only when every check passed AND the reader pinned the
 * announced CID themselves; a CID pinned by the page's link leaves it amber (`custom`), like no pin.
 */
export function receiptTier(r: { readonly ok: boolean; readonly pinned: boolean; readonly pinnedBy?: 'reader' | 'link' | undefined }): 'verified' | 'custom' | 'failed' {
  if (!r.ok) return 'failed'
  return r.pinned && r.pinnedBy === 'reader' ? 'verified' : 'custom'
}
