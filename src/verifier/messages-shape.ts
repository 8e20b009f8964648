/**
 * The shape of the verifier page's words (messages.ts): what every translation gives.
 *
 * @module
 */

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
  /** The footer's page-hash line (main.ts, showPageHash). */
  readonly pageHashHow: string
  readonly pageHashFromFile: string
  readonly pageHashButton: string
  readonly pageHashShown: string
  readonly pageHashCid: string
  readonly pageHashProvesNothing: string
  readonly pageHashFailed: string
  /** A trust-panel root file over the size limit. */
  readonly certTooLarge: (name: string) => string
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
  readonly readFailed: (name: string, why: string) => string
  readonly badUrl: (url: string) => string
  readonly onlyHttp: (protocol: string) => string
  readonly fetching: (url: string) => string
  readonly fetchFailed: (url: string, why: string) => string
  readonly receiptChecks: string
  readonly receiptPinned: (cid: string) => string
  readonly receiptLinkPinned: (cid: string) => string
  readonly receiptCompare: (cid: string) => string
  /** The heading of a sortition proof's probabilities by type (replacements: a panel-replacement draw). */
  readonly probabilitiesH: (replacements: boolean) => string
  /** What the page offers to compute: exact figures, or an estimate from `panels` sample panels. */
  readonly probabilitiesOffer: (exact: boolean, households: boolean, panels: string) => string
  readonly probabilitiesButton: (exact: boolean, panels: string, households: boolean) => string
  readonly probabilitiesRunning: string
  /** The button that stops an estimate running. */
  readonly probabilitiesStop: string
  /** An estimate running: sample panels drawn of those asked, and that the figures shown are theirs. */
  readonly probabilitiesProgress: (drawn: string, panels: string) => string
  /** A stopped estimate: the figures of the panels drawn (`n`: the same count for the CLI's --panels). */
  readonly probabilitiesStopped: (drawn: string, panels: string, n: string) => string
  readonly probabilitiesFailed: (why: string) => string
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
