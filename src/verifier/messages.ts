/**
 * The verifier page's own words, in one place: a translation is one more object of the same shape.
 * English (`en`) is the source: the build writes it into the HTML (`data-i18n` elements), and the page
 * switches to another language when the link says `?lang=fr` or, without one, when the browser's
 * preferred language is one shipped here. The verdict (title, headline, facts, failure reason, trust
 * settings in force) and the evidence picture are worded here from the check results, never with the
 * library's option names; only each check's own technical detail (the Checks list) is the core's
 * English, and the other languages' pages say so. French lives in messages-fr.ts.
 *
 * Pure: no DOM.
 *
 * @module
 */
import { fr } from './messages-fr.js'

/** The page's static text, by `data-i18n` key. */
export interface PageText {
  readonly title: string
  readonly sub: string
  readonly lede: string
  readonly loadH: string
  readonly dropMain: string
  readonly or: string
  readonly choose: string
  readonly proofHint: string
  readonly pasteSummary: string
  readonly pasteLabel: string
  readonly verifyPaste: string
  readonly trustSummary: string
  readonly trustHint: string
  readonly beaconsLabel: string
  readonly allowUnsigned: string
  readonly allowUntimestamped: string
  readonly tsaLabel: string
  readonly tsaFile: string
  readonly drandLabel: string
  readonly pinLabel: string
  readonly apply: string
  readonly cancel: string
  readonly footVerifier: string
  readonly footNote: string
  readonly footLink: string
  /** Said on a page whose language is not English; empty in English. */
  readonly coreInEnglish: string
}

/** The state words of the evidence picture's badges. */
export type StateWords = Readonly<Record<'ok' | 'relaxed' | 'fail' | 'unchecked' | 'absent', string>>

/** The verdict's words, built from the check results (verdict-text.ts). */
export interface VerdictWords {
  readonly every: string
  readonly everyRan: (skipped: string) => string
  readonly verified: (every: string) => string
  readonly eitherHonest: (every: string) => string
  readonly relaxed: (every: string, rules: number) => string
  readonly incomplete: (names: string) => string
  readonly failed: (names: string) => string
  readonly custom: string
  readonly cidPinned: (cid: string) => string
  readonly cidCompare: (cid: string) => string
  readonly cidLinkPinned: string
  readonly beaconKnown: (label: string, short: string) => string
  readonly beaconAdded: (short: string) => string
  readonly beaconUntrusted: (short: string) => string
  readonly target: (sequence: string, when: string) => string
  readonly targetUnproven: (sequence: string) => string
  readonly timeOk: (authority: string, when: string, margin: string, sequence: string) => string
  readonly timeUncheckable: string
  readonly timeFailed: string
  readonly sourcesSingle: (target: string) => string
  readonly sourcesEither: (target: string, round: string) => string
  readonly sourcesNotProven: (target: string, round: string, orderFailed: boolean) => string
  readonly relaxedUnsigned: string
  readonly relaxedUntimestamped: string
  readonly relaxedOther: (check: string) => string
  /** The failure reason, by failed check name (the most telling first, as the core orders them). */
  readonly reasons: Readonly<Record<string, string>>
  readonly reasonOther: (check: string) => string
  /** Label of the failed check's own technical detail under the reason. */
  readonly reasonDetail: string
  readonly failedCount: (failed: number, total: number) => string
}

/** The trust settings in force, in words (what each does, and what to check instead). */
export interface SettingWords {
  readonly trustBeacon: (name: string) => string
  readonly trustBeaconInstead: string
  readonly allowUnsigned: string
  readonly allowUnsignedInstead: string
  readonly allowUntimestamped: string
  readonly allowUntimestampedInstead: string
  readonly trustTsa: (n: number) => string
  readonly trustTsaInstead: string
  readonly trustDrand: (hash: string, period: number, genesis: string) => string
  readonly trustDrandInstead: string
  readonly byLink: string
  readonly byPanel: string
  readonly notNeeded: string
  readonly checkInstead: string
  readonly headingFailed: string
  readonly heading: string
  readonly strictStatus: (pinned: boolean) => string
  readonly customStatus: (n: number) => string
  readonly invalid: (why: string) => string
}

/** The rest of the page's generated text. */
export interface UiWords {
  readonly authYes: string
  readonly authYesFailed: string
  readonly authBad: string
  readonly authUnchecked: string
  readonly authIntegrity: string
  readonly authIntegrityMore: string
  readonly states: StateWords
  readonly checks: (passed: number, total: number, relaxed: number) => string
  readonly notes: string
  readonly checkPassed: string
  readonly checkFailed: string
  readonly checkRelaxed: string
  readonly claimedTag: string
  readonly customTag: string
  readonly more: (n: string) => string
  readonly rank: string
  readonly entry: string
  readonly id: string
  readonly weight: string
  readonly position: string
  readonly privateDraw: (entries: string) => string
  readonly entries: (n: string, count: number) => string
  readonly published: (entries: string, weights: string, searchable: boolean) => string
  readonly totalWeight: (w: string) => string
  readonly saltedList: string
  readonly evidence: string
  readonly evidenceFlow: string
  readonly carried: (n: number) => string
  readonly blockToOutcome: string
  readonly commitmentCid: string
  readonly plusCtrng: string
  readonly seed: string
  readonly outcome: string
  readonly seenAtCommit: string
  readonly corrupt: string
  readonly searchH: string
  readonly searchLabel: string
  readonly searchPlaceholder: string
  readonly searchCount: (n: string) => string
  readonly searchNone: string
  readonly searchFound: (n: string, total: number, shown: number) => string
  readonly searchPosition: (n: string) => string
  readonly searchRank: (n: number) => string
  readonly verifying: (source: string, size: string) => string
  readonly preparing: string
  readonly checked: (source: string, seconds: string) => string
  readonly cancelled: string
  readonly invalidSettings: string
  readonly workerFailed: (why: string) => string
  readonly stopped: (why: string) => string
  readonly emptyPaste: string
  readonly pastedProof: string
  readonly droppedText: string
  readonly file: (name: string) => string
  readonly tooBig: (name: string, size: number, max: number) => string
  readonly badUrl: (url: string) => string
  readonly onlyHttp: (protocol: string) => string
  readonly fetching: (url: string) => string
  readonly fetchFailed: (url: string, why: string) => string
  readonly receiptChecks: string
  readonly receiptPinned: (cid: string) => string
  readonly receiptLinkPinned: (cid: string) => string
  readonly receiptCompare: (cid: string) => string
  readonly receiptEntry: (position: number, count: number | undefined) => string
}

/** The evidence picture's words (evidence.ts). */
export interface EvidenceWords {
  readonly titles: Readonly<Record<'time' | 'commitment' | 'after' | 'target' | 'head' | 'headSigned', string>>
  readonly labels: Readonly<Record<'cid' | 'label' | 'draw' | 'madeAfter' | 'target' | 'sequence' | 'time' | 'headBlock' | 'ipnsValue' | 'recordSeq' | 'validUntil' | 'ipnsRecord' | 'beacon', string>>
  readonly unknown: string
  readonly missing: string
  readonly notCarried: string
  readonly block: (n: string) => string
  readonly sequence: (n: string, isTarget: boolean) => string
  readonly doesNotParse: string
  readonly explainNoTime: string
  readonly explainTimeFailed: string
  readonly explainTimeRelaxed: string
  readonly explainTimeOk: string
  readonly explainAuthFailed: string
  readonly explainAuthRelaxed: string
  readonly explainAuthOk: string
  readonly explainUntrustedBeacon: string
  readonly explainOutcomeOk: string
  readonly explainOutcomeFailed: string
  readonly explainOutcomeNotRun: string
}

/** Every text of the page that a translation must give. */
export interface Messages {
  readonly lang: string
  readonly languageName: string
  /**
   * The static page text in this language; absent for English, whose words the build writes into the
   * HTML from {@link enPage} (so the page's script does not carry them twice).
   */
  readonly page?: PageText
  /** Verdict titles, by the core's English title. */
  readonly titles: Readonly<Record<string, string>>
  readonly summary: { readonly draw: string; readonly kind: string; readonly participants: string; readonly target: string; readonly beacon: string; readonly proof: string; readonly noLabel: string }
  readonly commitment: {
    readonly title: string
    readonly headline: string
    readonly compare: (cid: string, target: string) => string
    readonly pin: string
    readonly cid: string
    readonly seenAtCommit: string
    readonly timestamps: string
    readonly noTimestamps: string
    readonly claimed: string
    readonly unreadable: string
    readonly blocksLater: (n: string) => string
    readonly block: (n: string) => string
  }
  /** "local time" beside a UTC time. */
  readonly localTime: string
  readonly couldNotLoad: string
  readonly verdict: VerdictWords
  readonly settings: SettingWords
  readonly ui: UiWords
  readonly evidence: EvidenceWords
}

/** The English page text: the build writes it into the HTML (`data-i18n` elements). */
export const enPage: PageText = {
  title: 'orbitdraw — proof verifier',
  sub: 'proof verifier',
  lede: 'Check a draw made from the cosmic randomness beacon. Everything runs in this page, offline: the proof file never leaves your computer.',
  loadH: 'Load a proof',
  dropMain: 'Drop a proof file here',
  or: 'or',
  choose: 'choose a file…',
  proofHint: 'A proof is one JSON file (proof.json) made by orbitdraw draw.',
  pasteSummary: '…or paste the proof JSON',
  pasteLabel: 'Proof JSON',
  verifyPaste: 'Verify pasted proof',
  trustSummary: 'Advanced: trust settings',
  trustHint: "By default this page trusts only Orbitport's beacons, requires the beacon's signed record and a time-stamp, and shows Verified only then. Anything you change here (or a link sets) is named in the verdict, which is then never the plain green one.",
  beaconsLabel: 'Also trust these beacons (IPNS names, one per line)',
  allowUnsigned: 'Accept unsigned blocks (integrity only)',
  allowUntimestamped: 'Accept a commitment without a time-stamp',
  tsaLabel: 'Also trust these time-stamping root certificates (PEM; never taken from a link)',
  tsaFile: '…or load a PEM file',
  drandLabel: "Also trust this drand chain (paste its info JSON exactly as drand's /info serves it; never taken from a link). By default only drand's quicknet is trusted",
  pinLabel: 'Pin the commitment CID the organizer announced (a proof of any other commitment fails)',
  apply: 'Apply and re-verify',
  cancel: 'Cancel',
  footVerifier: 'verifier',
  footNote: 'runs the same verify() as the Node library · no server, no tracking, no external resources.',
  footLink: 'Link a proof with ?proof=<url> (the host must allow CORS); trust settings in a link (trust-beacon, allow-unsigned, allow-untimestamped, commitment) are always named in the verdict.',
  coreInEnglish: '',
}

export const en: Messages = {
  lang: 'en',
  languageName: 'English',
  titles: {},
  summary: { draw: 'Draw', kind: 'Kind', participants: 'Participants', target: 'Target block', beacon: 'Beacon', proof: 'Proof', noLabel: '(no label)' },
  commitment: {
    title: 'This is a commitment, not a proof',
    headline: 'A commitment fixes a draw before its randomness exists: the list, what is drawn and the future beacon block that decides it. It cannot show who won; the proof, written after that block, does. Nothing here is verified.',
    compare: (cid, target) => `Compare the CID ${cid} with the one the organizer announced before block ${target}.`,
    pin: 'Then pin it (trust settings) and load the proof once it is published: a proof of any other commitment will fail.',
    cid: 'Commitment CID',
    seenAtCommit: 'Seen at commit',
    timestamps: 'Time-stamps',
    noTimestamps: 'none carried',
    claimed: '(claimed, not checked)',
    unreadable: 'unreadable token',
    blocksLater: (n) => `${n} blocks later`,
    block: (n) => `block ${n}`,
  },
  localTime: 'your local time',
  couldNotLoad: 'Could not load the proof',
  verdict: {
    every: 'every check',
    everyRan: (skipped) => `every check that ran (not checked: ${skipped})`,
    verified: (every) => `VERIFIED: ${every} passed on its own evidence.`,
    eitherHonest: (every) => `VERIFIED, unbiased unless both Orbitport and drand are dishonest: ${every} passed on its own evidence.`,
    relaxed: (every, n) => `NOT FULLY VERIFIED: ${every} passed, but only because you relaxed ${n === 1 ? 'a rule' : `${n} rules`}; this is not the strict verdict.`,
    incomplete: (names) => `NOT VERIFIED HERE: nothing failed, but ${names} could not be checked in this browser; re-check where it can be (over https, from localhost or disk, or with the command-line tool).`,
    failed: (names) => `FAILED: ${names}.`,
    custom: 'VERIFIED UNDER CUSTOM TRUST SETTINGS: every check passed, but under trust settings that are not the default; this is not the strict verdict.',
    cidPinned: (cid) => `Commitment ${cid}: the one you pinned.`,
    cidCompare: (cid) => `Commitment ${cid}: compare it with the organizer's announcement (made before the target block).`,
    cidLinkPinned: "The CID was pinned by the link you opened, not by you: compare it with the organizer's announcement.",
    beaconKnown: (label, short) => `Beacon: ${label} (${short}).`,
    beaconAdded: (short) => `Beacon: ${short}, added in your trust settings.`,
    beaconUntrusted: (short) => `Beacon: ${short}, not one you trust.`,
    target: (n, when) => `Target block ${n}: published ${when}.`,
    targetUnproven: (n) => `Target block ${n}: not proven to be in the chain.`,
    timeOk: (authority, when, margin, n) => `Commitment time: time-stamped by ${authority} at ${when}, ${margin} before block ${n}.`,
    timeUncheckable: 'Commitment time: could not be checked in this browser.',
    timeFailed: 'Commitment time: not proven (see the commitment-time check).',
    sourcesSingle: (target) => `Sources: Orbitport's block ${target} alone decides the draw, so it trusts Orbitport's beacon operator.`,
    sourcesEither: (target, round) => `Sources: Orbitport block ${target} mixed with drand round ${round}, the block fixed before the round was public; unbiased unless both Orbitport and drand are dishonest.`,
    sourcesNotProven: (target, round, order) => `Sources: Orbitport block ${target} and drand round ${round}, but ${order ? `block ${target} is not proven fixed before drand round ${round} was public` : 'the two sources are not both proven'}: the Orbitport operator is trusted.`,
    relaxedUnsigned: 'Relaxed: unsigned blocks allowed. Nothing in the proof shows that the beacon published these blocks: check the target block on the beacon itself.',
    relaxedUntimestamped: "Relaxed: no time-stamp required. Nothing in the proof shows that the commitment existed before its target block: check that the organizer announced its CID publicly before the target block's time.",
    relaxedOther: (check) => `Relaxed: the ${check} check passed only because your settings allowed it.`,
    reasons: {
      format: 'The file is not a valid proof.',
      version: 'The file is a proof of a protocol version this page does not know.',
      'commitment-pinned': 'This is not the commitment you pinned.',
      'beacon-trusted': 'The draw names a beacon you do not trust: whoever runs it could choose its values.',
      'panel-quotas': 'The panel in the file breaks a quota.',
      'lottery-panels': 'A candidate panel of the lottery breaks the rules.',
      outcome: 'The outcome in the file is not the one the block decides.',
      participants: 'The participants in the file are not the committed ones.',
      'revealed-winners': 'The revealed winners are not the drawn ones.',
      'distinct-winners': 'A winner is revealed more than once.',
      'block-content': 'A beacon block in the file was altered.',
      'beacon-authenticity': 'Nothing in the file shows the beacon published these blocks.',
      'commitment-time': 'Nothing shows the commitment was made before its randomness existed.',
      'commitment-cid': 'The commitment does not match its CID.',
      seed: 'The seed is not the one the commitment and block give.',
      'drand-chain-trusted': 'The draw names a drand chain you do not trust: whoever runs it could predict or withhold its rounds.',
      'drand-round': 'The drand round is not the committed one.',
      'drand-signature': 'The drand round was not signed by its chain.',
      'source-order': 'Nothing shows the block was fixed before the drand round was public.',
      'chain-links': 'The carried blocks are not linked to each other by their hashes.',
      'chain-target': 'The target block is not proven to be in the beacon’s chain.',
      'after-block': 'The block the commitment was made after is not the one in the chain.',
      randomness: 'The target block’s randomness could not be read.',
    },
    reasonOther: (check) => `The ${check} check failed.`,
    reasonDetail: 'What the check found',
    failedCount: (n, total) => `${n} of ${total} check${total === 1 ? '' : 's'} failed: `,
  },
  settings: {
    trustBeacon: (name) => `beacon ${name} is trusted in addition to Orbitport's`,
    trustBeaconInstead: 'whoever runs that beacon could choose its values: make sure it is the beacon the organizer announced and that you have your own reason to trust its operator',
    allowUnsigned: 'unsigned blocks are accepted (integrity only)',
    allowUnsignedInstead: "nothing needs to show that the beacon published the blocks: check the target block's CID on the beacon itself (for example `orbitdraw verify --online`)",
    allowUntimestamped: 'a commitment without a time-stamp is accepted',
    allowUntimestampedInstead: "nothing needs to show that the commitment existed before its target block: check that the organizer announced this commitment CID publicly before the target block's time",
    trustTsa: (n) => `${n} time-stamping root certificate(s) you supplied are trusted in addition to the built-in ones`,
    trustTsaInstead: 'a time-stamp under those roots is only as good as their authority: make sure each certificate belongs to a time-stamping authority you trust',
    trustDrand: (hash, period, genesis) => `drand chain ${hash} (every ${period} s since ${genesis}) is trusted in addition to drand's quicknet`,
    trustDrandInstead: 'whoever runs that chain could predict or withhold its rounds: make sure it is the chain the organizer announced and that you have your own reason to trust its operators',
    byLink: 'Set by the link you opened: ',
    byPanel: 'Set in your trust settings: ',
    notNeeded: ' (this proof did not need it)',
    checkInstead: 'Check instead: ',
    headingFailed: 'Trust settings in use (not the default)',
    heading: 'Custom trust settings: what you must check yourself',
    strictStatus: (pinned) => `Strict default policy: Orbitport's beacons only, signed blocks required${pinned ? ', commitment CID pinned' : ''}.`,
    customStatus: (n) => `Custom trust settings (${n}): no verdict will be shown as plain “Verified”.`,
    invalid: (why) => `Trust settings: ${why}`,
  },
  ui: {
    authYes: 'Authenticated by the beacon’s signed IPNS record',
    authYesFailed: ' (the blocks are genuine; the failure is elsewhere)',
    authBad: 'Not authenticated — the signed beacon record does not check out',
    authUnchecked: 'Not authenticated — the signed beacon record could not be checked (see the notes)',
    authIntegrity: 'Integrity only — no signed beacon record',
    authIntegrityMore: ': the blocks match their content addresses, but nothing in the proof shows the beacon published them',
    states: { ok: 'checked', relaxed: 'relaxed', fail: 'failed', unchecked: 'not checked', absent: 'absent' },
    checks: (passed, total, relaxed) => `Checks (${passed}/${total} passed${relaxed > 0 ? `, ${relaxed} relaxed` : ''})`,
    notes: 'Notes',
    checkPassed: 'passed: ',
    checkFailed: 'failed: ',
    checkRelaxed: 'passed only because you relaxed the rule: ',
    claimedTag: 'claimed by the proof — not verified',
    customTag: 'under custom trust settings — see the verdict',
    more: (n) => `… and ${n} more (see the proof file)`,
    rank: 'Rank',
    entry: 'Entry',
    id: 'ID',
    weight: 'Weight',
    position: 'Position in list',
    privateDraw: (entries) => `private draw: ${entries}, only the winners are revealed`,
    entries: (n, count) => `${n} ${count === 1 ? 'entry' : 'entries'}`,
    published: (entries, weights, searchable) => `${entries}, all published in the proof${weights}${searchable ? ' (search them below)' : ''}`,
    totalWeight: (w) => `, total weight ${w}`,
    saltedList: ' (private list: salted, none revealed)',
    evidence: 'Evidence',
    evidenceFlow: 'Evidence chain, from the commitment to the signed head',
    carried: (n) => `Blocks carried in the proof (${n}), newest first`,
    blockToOutcome: 'From the block to the outcome',
    commitmentCid: 'Commitment CID',
    plusCtrng: '+ the target block’s ctrng values',
    seed: 'Seed',
    outcome: 'Outcome',
    seenAtCommit: 'seen at commit',
    corrupt: 'corrupt',
    searchH: 'Was I in the draw?',
    searchLabel: 'Search the committed list (the entries hash to the committed root):',
    searchPlaceholder: 'Type a name or part of it',
    searchCount: (n) => `${n} entries in the committed list.`,
    searchNone: 'No entry contains that text.',
    searchFound: (n, total, shown) => `${n} ${total === 1 ? 'entry contains' : 'entries contain'} that text${total > shown ? `; the first ${shown} are shown` : ''}.`,
    searchPosition: (n) => ` — position ${n}`,
    searchRank: (n) => ` rank #${n}`,
    verifying: (source, size) => `Verifying ${source} (${size})…`,
    preparing: 'Preparing the report…',
    checked: (source, seconds) => `Checked ${source} in ${seconds} s.`,
    cancelled: 'Verification cancelled: nothing was concluded about this proof.',
    invalidSettings: 'The trust settings are invalid (see the trust settings panel); nothing was verified.',
    workerFailed: (why) => `The verifier worker failed: ${why}`,
    stopped: (why) => `Verification stopped: ${why}`,
    emptyPaste: 'The paste box is empty.',
    pastedProof: 'pasted proof',
    droppedText: 'dropped text',
    file: (name) => `file “${name}”`,
    tooBig: (name, size, max) => `${name} is ${size} bytes, over the ${max}-byte limit for proofs.`,
    badUrl: (url) => `“${url}” is not a valid URL.`,
    onlyHttp: (protocol) => `Only http(s) proof links are fetched, not ${protocol}`,
    fetching: (url) => `Fetching ${url}…`,
    fetchFailed: (url, why) => `Could not fetch the proof from ${url}: ${why}. The host must allow cross-origin requests (CORS); otherwise download the file and drop it here.`,
    receiptChecks: 'Receipt checks',
    receiptPinned: (cid) => `Commitment ${cid}: the one you pinned.`,
    receiptLinkPinned: (cid) => `Commitment ${cid}: pinned by the link you opened, not by you. Compare it with the organizer's own announcement, and pin it yourself in the trust settings.`,
    receiptCompare: (cid) => `Commitment ${cid}: compare it with the organizer's announcement (or pin it in the trust settings).`,
    receiptEntry: (position, count) => ` at position ${position}${count === undefined ? '' : ` of ${count}`}.`,
  },
  evidence: {
    titles: { time: 'Commitment time-stamp', commitment: 'Commitment', after: 'Latest block seen at commit time', target: 'Target block', head: 'Signed head', headSigned: 'Signed head (IPNS record)' },
    labels: { cid: 'CID', label: 'Label', draw: 'Draw', madeAfter: 'Made after', target: 'Target', sequence: 'Sequence', time: 'Time', headBlock: 'Head block', ipnsValue: 'IPNS value', recordSeq: 'Record seq.', validUntil: 'Valid until', ipnsRecord: 'IPNS record', beacon: 'Beacon' },
    unknown: 'unknown',
    missing: 'missing',
    notCarried: 'not carried',
    block: (n) => `block ${n}`,
    sequence: (n, isTarget) => `sequence ${n}${isTarget ? ' (the target)' : ''}`,
    doesNotParse: 'does not parse',
    explainNoTime: 'These checks do not show when the commitment was made: only the organizer’s public announcement of its CID, made before the target block, can.',
    explainTimeFailed: 'The time-stamp check failed: nothing shows that the commitment existed before its target block.',
    explainTimeRelaxed: 'No time-stamp was required (your settings): nothing here shows that the commitment existed before its target block.',
    explainTimeOk: 'A trusted time-stamp shows that the commitment existed before its target block.',
    explainAuthFailed: 'The blocks are not shown to come from the beacon (beacon-authenticity failed).',
    explainAuthRelaxed: 'No signed beacon record: the blocks are intact, but nothing shows that the beacon published them (accepted by your settings).',
    explainAuthOk: 'The beacon’s signed record vouches for the chain of blocks down to the target block.',
    explainUntrustedBeacon: 'The commitment names a beacon you do not trust: its operator could choose its values.',
    explainOutcomeOk: 'The outcome was recomputed from the target block’s randomness and the commitment CID: it is exactly the one claimed.',
    explainOutcomeFailed: 'The claimed outcome does not follow from the target block (outcome failed).',
    explainOutcomeNotRun: 'The outcome was not recomputed.',
  },
}

/** The languages shipped, by primary language subtag. */
export const LANGUAGES: Readonly<Record<string, Messages>> = { en, fr }

/**
 * The page's language: `?lang=` when it names a shipped language, else the first of the browser's
 * preferred languages that is shipped (by primary subtag: `fr-CA` is French), else English.
 */
export function pickLanguage(query: string | null, preferred: readonly string[]): Messages {
  const of = (tag: string | null | undefined): Messages | undefined => (tag == null ? undefined : LANGUAGES[tag.toLowerCase().split('-')[0] ?? ''])
  return of(query) ?? preferred.map(of).find((m) => m !== undefined) ?? en
}
