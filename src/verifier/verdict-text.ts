/**
 * The page's verdict in the reader's language, worded from `verify`'s result (never with the
 * library's option names): title, headline, the facts to compare first, the failure reason, and the
 * trust settings in force. Runs in the worker beside `verify`. Pure: no DOM.
 *
 * Green only for the strict policy: the core calls a proof `verified` when a beacon the caller added
 * is trusted, while the page, whose settings may come from a shared link, never shows a green verdict
 * under any non-default setting.
 *
 * @module
 */
import type { CheckName } from '../core/check-names.js'
import { normalizeTrustedBeacons, shortName } from '../core/trust.js'
import { failedAndSkipped, mostTellingFailure, TELLING_CHECKS } from '../core/verdict.js'
import type { VerifyResult } from '../core/verify.js'
import { en, type Messages } from './messages.js'
import { customSettings, DEFAULT_SETTINGS, type CustomSetting, type TrustSettings } from './settings.js'
import { formatTimeBoth } from './text.js'

/**
 * How the page colours a verdict: `verified` (green) only when `verify` said `verified` under the
 * strict default policy (a pinned CID included); `custom` (amber) when every check passed but under
 * a non-default setting or a relaxed rule; `failed` (red) when a check failed.
 */
export type Tier = 'verified' | 'custom' | 'failed'

/** A non-default setting in words, and whether this proof's verdict relied on it (`undefined`: cannot tell). */
export interface UsedSetting extends CustomSetting {
  readonly used: boolean | undefined
}

/** The page's verdict in words. */
export interface PageVerdict {
  readonly tier: Tier
  /** Short title, translated. */
  readonly title: string
  readonly headline: string
  /** Facts first: commitment CID, beacon, target block and time, commitment time, sources, relaxed rules. */
  readonly lines: readonly string[]
  /** Every non-default setting in force, with what to check instead. */
  readonly custom: readonly UsedSetting[]
  /** Names of the failed checks. */
  readonly failed: readonly string[]
  /** For a failed verdict: one plain sentence saying what is wrong, from the most telling failed check. */
  readonly reason?: string
  /** That check's own technical detail (the core's wording), shown under the reason. */
  readonly reasonDetail?: string
}

/**
 * The failed checks a reader most needs explained, most telling first: the core's order, with `version`
 * (a proof of a version this page does not read, for which the page has its own sentence) after `format`.
 */
const TELLING: readonly CheckName[] = ['format', 'version', ...TELLING_CHECKS.filter((n) => n !== 'format')]

/** Seconds as `4 min 59 s` (hours when over one). */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const parts = [h > 0 ? `${h} h` : '', m > 0 ? `${m} min` : '', s % 60 > 0 || s < 60 ? `${s % 60} s` : ''].filter((x) => x !== '')
  return parts.join(' ')
}

/** The failure reason: the most telling failed check in plain words, and that check's own detail. */
export function failureReason(r: VerifyResult, m: Messages): { reason: string; detail: string } | undefined {
  const c = mostTellingFailure(r.checks, TELLING)
  if (c === undefined) return undefined
  return { reason: m.verdict.reasons[c.name] ?? m.verdict.reasonOther(c.name), detail: c.detail }
}

/** The verdict's facts, in the reader's language. */
function verdictLines(r: VerifyResult, m: Messages, s: TrustSettings, link: TrustSettings): string[] {
  const v = m.verdict
  const when = (seconds: number): string => formatTimeBoth(seconds, m.lang, m.localTime)
  const lines: string[] = []
  if (r.commitmentCid !== undefined) lines.push(r.pinned ? v.cidPinned(r.commitmentCid) : v.cidCompare(r.commitmentCid))
  if (r.pinned && s.commitment !== undefined && s.commitment === link.commitment) lines.push(v.cidLinkPinned)
  const c = r.commitment
  if (c !== undefined) {
    const b = r.beacon
    // The beacon named once: its label and short name, or its short name and why it is not trusted.
    lines.push(b === undefined || !b.trusted ? v.beaconUntrusted(shortName(b?.name ?? c.beacon)) : b.source === 'caller' ? v.beaconAdded(shortName(b.name)) : v.beaconKnown(b.label ?? '', shortName(b.name)))
    lines.push(r.target === undefined ? v.targetUnproven(String(c.target)) : v.target(String(c.target), when(r.target.timestamp)))
  }
  const time = r.checks.find((x) => x.name === 'commitment-time')
  if (time !== undefined && time.relaxedBy === undefined) {
    const first = r.commitmentTime?.tokens.filter((t) => t.ok && t.time !== null).sort((a, b) => a.time!.localeCompare(b.time!))[0]
    if (time.ok && first !== undefined && c !== undefined) lines.push(v.timeOk(first.authority ?? '?', when(Date.parse(first.time!) / 1000), duration(first.marginSeconds ?? 0), String(c.target)))
    else lines.push(time.uncheckable === true ? v.timeUncheckable : v.timeFailed)
  }
  if (r.sources !== undefined && c !== undefined) {
    const target = String(c.target)
    const round = String(c.drand?.round ?? '')
    const order = r.checks.find((x) => x.name === 'source-order')
    lines.push(!r.sources.mixed ? v.sourcesSingle(target) : r.sources.eitherHonest ? v.sourcesEither(target, round) : v.sourcesNotProven(target, round, order !== undefined && !order.ok))
  }
  for (const x of r.checks) {
    if (x.relaxedBy === undefined) continue
    lines.push(x.relaxedBy === 'allowUnsigned' ? v.relaxedUnsigned : x.relaxedBy === 'allowUntimestamped' ? v.relaxedUntimestamped : v.relaxedOther(x.name))
  }
  return lines
}

/**
 * The page's verdict in `m`'s language.
 *
 * @param r - `verify`'s result.
 * @param s - the settings in force.
 * @param link - the settings the page's link gave (to say which came from the link).
 */
export function pageVerdict(r: VerifyResult, s: TrustSettings, link: TrustSettings = DEFAULT_SETTINGS, m: Messages = en): PageVerdict {
  const v = m.verdict
  const custom = customSettings(s, link, m.settings).map((c): UsedSetting => ({ ...c, used: settingUsed(c, r) }))
  const { failed, skipped } = failedAndSkipped(r.checks)
  const every = skipped.length === 0 ? v.every : v.everyRan(skipped.join(', '))
  const lines = verdictLines(r, m, s, link)
  const title = (en: string): string => m.titles[en] ?? en
  // `incomplete` (a check this browser could not perform) is never shown as passed. A file that is not
  // a readable proof is named as such, apart from a proof that was read and found false.
  const unreadable = failed.length > 0 && failed.every((n) => n === 'format' || n === 'version')
  if (r.verdict === 'failed' || r.verdict === 'incomplete') {
    const why = r.verdict === 'failed' ? failureReason(r, m) : undefined
    return {
      tier: 'failed',
      title: title(r.verdict === 'incomplete' ? 'Not verified here' : unreadable ? 'Not a readable proof' : 'Failed'),
      headline: r.verdict === 'incomplete' ? v.incomplete(failed.join(', ')) : v.failed(failed.join(', ')),
      lines,
      custom,
      failed,
      ...(why === undefined ? {} : { reason: why.reason, reasonDetail: why.detail }),
    }
  }
  if (r.verdict === 'verified' && custom.length === 0) return { tier: 'verified', title: title('Verified'), headline: r.sources?.eitherHonest === true ? v.eitherHonest(every) : v.verified(every), lines, custom, failed }
  const relaxed = r.verdict === 'verified-relaxed'
  return { tier: 'custom', title: title(relaxed ? 'Not fully verified' : 'Verified under custom trust settings'), headline: relaxed ? v.relaxed(every, r.relaxed.length) : v.custom, lines, custom, failed }
}

function settingUsed(c: CustomSetting, r: VerifyResult): boolean | undefined {
  switch (c.key) {
    case 'trust-beacon':
      return r.beacon?.source === 'caller' && r.beacon.name === canonicalName(c.value)
    case 'allow-unsigned':
      return r.checks.some((x) => x.relaxedBy === 'allowUnsigned')
    case 'allow-untimestamped':
      return r.checks.some((x) => x.relaxedBy === 'allowUntimestamped')
    case 'trust-drand':
      return r.commitment?.drand?.chain === c.value
    default:
      return undefined
  }
}

function canonicalName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined
  try {
    return normalizeTrustedBeacons([name])[0]!.name
  } catch {
    return undefined
  }
}
