/**
 * Offline verification of a proof bundle. `verify` never throws on a bad proof: it returns every
 * check it ran, by name, with what was wrong.
 *
 * @module
 */
import { CID } from 'multiformats/cid'
import { parseBlock, type BeaconBlock } from './block.js'
import { base64ToBytes, bytesToHex } from './bytes.js'
import { check, relaxedCheck, uncheckableCheck, type Check } from './check.js'
import { checkChain } from './chain.js'
import { commitmentCid, parseCommitment, underPath, type Commitment } from './commitment.js'
import { kindOf } from './draw-spec.js'
import { outcomeToJson } from './draw.js'
import { InvalidInputError, OrbitdrawError, UnsupportedVersionError } from './errors.js'
import { expectObject } from './json.js'
import { LIMITS } from './limits.js'
import { DEFAULT_DRAW_KINDS, type AnyDrawKind, type DrawKinds, type OutcomeJson } from './kinds/index.js'
import { computeOutcome, type Outcome } from './outcome.js'
import { type WeightedEntry } from './participants.js'
import { checkProofVersion, parseProof, readProofJson, type Proof } from './proof.js'
import { deriveSeed } from './seed.js'
// The time-stamp checks (DER, certificates, RSA/ECDSA) load only when a proof carries tokens or the caller
// passes authorities to parse: an untimestamped proof does not pay for them (docs/performance.md, Start-up).
import type { CommitmentTimeResult, TimestampTrustAnchor } from './timestamp/index.js'
import { formatUnixTime } from './unix-time.js'
import { checkChainInfo, DEFAULT_DRAND_CHAINS, type DrandChainInfo } from './drand/chain.js'
import { drawSources, type DrawSources } from './drand/sources.js'
import { identifyBeacon, normalizeTrustedBeacons, ORBITPORT_BEACONS, type BeaconIdentity, type TrustedBeacon } from './trust.js'
import { checkParticipants, checkRevealedWinners, type ParticipantsDigest } from './verify-participants.js'
import { checkFollowUp } from './follow-up-verify.js'
export type { ParticipantsDigest } from './verify-participants.js'

/**
 * The verifier's trust anchors. Each list replaces the built-in default when given.
 * @category Verify
 */
export interface VerifyTrust {
  /**
   * Beacons whose blocks may decide a draw: IPNS names or `{ name, label }`. Default:
   * {@link ORBITPORT_BEACONS}. To add a beacon, pass `[...ORBITPORT_BEACONS, { name, label }]`.
   */
  readonly beacons?: readonly (string | TrustedBeacon)[]
  /**
   * Time-stamping roots that may vouch for the commitment's time: PEM text, DER bytes or parsed anchors.
   * Default: {@link DEFAULT_TIMESTAMP_AUTHORITIES}. To add an authority, pass
   * `[...DEFAULT_TIMESTAMP_AUTHORITIES, pemOfItsRoot]`.
   */
  readonly timestampAuthorities?: readonly (string | Uint8Array | TimestampTrustAnchor)[]
  /**
   * drand chains whose rounds may be mixed into a draw (protocol v2), each pinned by chain hash, public
   * key, genesis, period and scheme. Default: {@link DEFAULT_DRAND_CHAINS} (drand's quicknet). To add
   * one, pass `[...DEFAULT_DRAND_CHAINS, parseDrandInfo(infoJson)]`.
   */
  readonly drandChains?: readonly DrandChainInfo[]
}

/**
 * Options for {@link verify}. The defaults are the strict policy.
 * @category Verify
 */
export interface VerifyOptions {
  /** The time at which record expiry is reported (default: none; expiry never fails a proof). */
  now?: Date
  /** The verifier's trust anchors (default: Orbitport's beacons). Never taken from the proof. */
  trust?: VerifyTrust
  /**
   * Accept a proof whose blocks are not vouched for by a valid signed IPNS record (integrity only).
   * Default false: such a proof fails `beacon-authenticity`. When used, the verdict says so.
   */
  allowUnsigned?: boolean
  /**
   * Accept a proof whose commitment carries no time-stamp that a trusted authority dated before the
   * target block. Default false: such a proof fails `commitment-time`. When used, the verdict tells
   * the reader to check that the commitment CID was published before the target block's time.
   */
  allowUntimestamped?: boolean
  /**
   * The commitment CID the organizer announced (any multibase). When given, a proof of any other
   * commitment fails `commitment-pinned`. Without it, every verdict asks the reader to compare the CID.
   */
  commitment?: string
  /**
   * The draw kinds this verifier knows (default: the built-in kinds). A proof of a kind it does not
   * know fails `format`. Pass `withKinds([myKind])` to verify draws of your own kind.
   */
  kinds?: DrawKinds
  /**
   * The verifier's own participants digest for a full disclosure, in place of {@link participantsRoot}
   * (which it must equal byte for byte, errors included): the Node entry's `verify` passes
   * `participantsRootParallel` here, to hash large lists on two threads. It is your code, never
   * the proof's: the root it returns is compared with the committed one like `participantsRoot`'s.
   */
  participantsDigest?: ParticipantsDigest
}

/**
 * What {@link verify} found.
 * @category Verify
 */
export interface VerifyResult {
  /** True when every check passed (a check passed only through a relaxed rule counts; see `verdict`). */
  readonly ok: boolean
  /**
   * `verified`: every check passed on its evidence. `verified-relaxed`: every check passed, but at
   * least one only because the verifier relaxed its rule (`relaxed` says which). `incomplete`: nothing
   * failed, but this host could not perform some check (`uncheckable`), so nothing is proven. `failed`:
   * a check failed.
   */
  readonly verdict: 'verified' | 'verified-relaxed' | 'incomplete' | 'failed'
  /** One sentence per relaxed rule that a check relied on: what was not proven and what to check instead. */
  readonly relaxed: readonly string[]
  /** True when the blocks are proven to come from the committed beacon (valid signed IPNS record). */
  readonly authenticated: boolean
  /** The committed beacon as the verifier knows it (trusted or not), when the commitment could be read. */
  readonly beacon?: BeaconIdentity
  /** True when the caller pinned the commitment CID and it matched. */
  readonly pinned: boolean
  /** Every check that ran, in order. */
  readonly checks: readonly Check[]
  /** Remarks that are not failures: expired records, checks not run, what to compare. */
  readonly notes: readonly string[]
  /** What the time-stamp tokens prove, when the check ran (per token: authority, time, margin, problem). */
  readonly commitmentTime?: CommitmentTimeResult
  /** The parsed commitment, when it could be parsed. */
  readonly commitment?: Commitment
  /** The commitment's CID (canonical), when the commitment could be parsed. */
  readonly commitmentCid?: string
  /** The proof's claimed outcome, when the proof could be parsed. Trust it only when `ok`. */
  readonly outcome?: OutcomeJson
  /** The target block, when it was found and checked. */
  readonly target?: { readonly sequence: number; readonly cid: string; readonly timestamp: number }
  /** The draw's randomness sources and whom its outcome trusts, when the commitment could be read. */
  readonly sources?: DrawSources
}

/**
 * Verifies a proof bundle offline, under the verifier's policy (strict by default).
 *
 * Checks, in order: `version`, `format`, `commitment-cid`, `commitment-pinned` (with
 * `options.commitment`), `beacon-trusted`, `participants` (and `distinct-winners` for a winners-only
 * proof), `block-content`, `chain-links`, `chain-target`, `after-block`, `ipns-record-signature`,
 * `ipns-record-name`, `ipns-record-value` (with a record), `beacon-authenticity`, `commitment-time`, for a
 * mixed (version 2) draw `drand-chain-trusted`, `drand-round`, `drand-signature` and `source-order`,
 * `randomness`, `seed`, `outcome`, the kind's own checks (`panel-*`, `lottery-*`) and `revealed-winners`
 * for a winners-only proof. See docs/spec.md. When a check stops verification, the checks it makes
 * meaningless are listed in `notes`, never as passes; the checks after `outcome` are always reported
 * with it, failed "not checked: <why>" when the outcome was not recomputed. Never throws on a bad proof;
 * its work is bounded by the proof's own size.
 *
 * @example
 * ```ts
 * const result = await verify(proofBytes)                      // strict: Orbitport's beacons, signed head
 * if (result.verdict === 'verified') show(result.outcome)
 * else for (const c of result.checks) if (!c.ok) console.log(c.name, c.detail)
 * await verify(proofBytes, { commitment: 'bagu…' })             // pin the CID the organizer announced
 * ```
 *
 * @param proof - the proof as bytes (preferred: the spec's byte-level rules apply), JSON text, or a parsed value. Untrusted.
 * @category Verify
 */
export async function verify(proof: unknown, options: VerifyOptions = {}): Promise<VerifyResult> {
  const checks: Check[] = []
  const notes: string[] = []
  let pinned = false
  let beacon: BeaconIdentity | undefined
  let commitmentCidText: string | undefined
  let commitmentTime: CommitmentTimeResult | undefined
  const done = (extra: Partial<Pick<VerifyResult, 'commitment' | 'outcome' | 'target'>> = {}, authenticated = false): VerifyResult => {
    const ok = checks.length > 0 && checks.every((c) => c.ok)
    const relaxed = checks.flatMap((c) => (c.relaxedBy === undefined ? [] : [relaxedSentence(c, extra.commitment, extra.target)]))
    const onlyUncheckable = !ok && checks.length > 0 && checks.every((c) => c.ok || c.uncheckable === true)
    return {
      ok,
      verdict: ok ? (relaxed.length > 0 ? 'verified-relaxed' : 'verified') : onlyUncheckable ? 'incomplete' : 'failed',
      relaxed,
      authenticated,
      ...(beacon === undefined ? {} : { beacon }),
      pinned,
      checks,
      notes,
      ...(commitmentCidText === undefined ? {} : { commitmentCid: commitmentCidText }),
      ...(commitmentTime === undefined ? {} : { commitmentTime }),
      ...extra,
      ...(extra.commitment === undefined ? {} : { sources: drawSources(extra.commitment, checks, ok) }),
    }
  }
  // anchors: undefined stands for DEFAULT_TIMESTAMP_AUTHORITIES, loaded when a token is checked.
  let policy: { beacons: TrustedBeacon[]; anchors: readonly TimestampTrustAnchor[] | undefined; kinds: DrawKinds; drandChains: readonly DrandChainInfo[] }
  try {
    policy = {
      kinds: options.kinds === undefined ? DEFAULT_DRAW_KINDS : checkKinds(options.kinds),
      beacons: options.trust?.beacons === undefined ? [...ORBITPORT_BEACONS] : normalizeTrustedBeacons(options.trust.beacons),
      anchors: options.trust?.timestampAuthorities === undefined ? undefined : await normalizeAnchors(options.trust.timestampAuthorities),
      drandChains: options.trust?.drandChains === undefined ? DEFAULT_DRAND_CHAINS : normalizeDrandChains(options.trust.drandChains),
    }
  } catch (err) {
    checks.push(check('policy', false, `the verification options are invalid: ${errorText(err)}`))
    return done()
  }
  try {
    return await run()
  } catch (err) {
    checks.push(check('internal', false, `verification stopped unexpectedly: ${errorText(err)}`))
    return done()
  }

  async function run(): Promise<VerifyResult> {
    // version, then format
    let parsed: Proof
    try {
      const raw = readProofJson(proof)
      checkProofVersion(expectObject(raw, '$'))
      checks.push(check('version', true, `protocol version ${(raw as { version: number }).version}`))
      parsed = parseProof(raw, { kinds: policy.kinds })
      checks.push(check('format', true, 'the proof is well-formed'))
    } catch (err) {
      checks.push(check(err instanceof UnsupportedVersionError ? 'version' : 'format', false, errorText(err)))
      notes.push('the remaining checks were not run because the proof could not be read')
      return done()
    }

    // commitment
    let commitment: Commitment
    try {
      commitment = parseCommitment(parsed.commitment, { kinds: policy.kinds })
    } catch (err) {
      checks.push(check(err instanceof UnsupportedVersionError ? 'version' : 'commitment-cid', false, `the commitment is invalid: ${errorText(err)}`))
      notes.push('the remaining checks were not run because the commitment could not be read')
      return done({ outcome: parsed.outcome })
    }
    if (commitment.version !== parsed.version) {
      checks.push(check('version', false, `the proof is protocol version ${parsed.version} but its commitment is version ${commitment.version}`))
      return done({ commitment, outcome: parsed.outcome })
    }
    const cid = commitmentCid(commitment, policy.kinds)
    commitmentCidText = cid
    checks.push(check('commitment-cid', sameCid(cid, parsed.commitmentCid), sameCid(cid, parsed.commitmentCid) ? `the commitment encodes to ${cid}` : `the commitment encodes to ${cid}, not the claimed ${parsed.commitmentCid}`))
    if (options.commitment !== undefined) {
      pinned = sameCid(cid, String(options.commitment))
      checks.push(
        check(
          'commitment-pinned',
          pinned,
          pinned ? `the commitment is the one you pinned (${cid})` : `the proof is for commitment ${cid}, not the one you pinned (${String(options.commitment).slice(0, LIMITS.maxCidChars)}): it is a different draw`,
        ),
      )
    } else {
      notes.push(`compare the commitment CID ${cid} with the one the organizer announced before block ${commitment.target}: a proof of another commitment would verify just as well`)
    }

    // beacon-trusted
    beacon = identifyBeacon(commitment.beacon, policy.beacons)
    checks.push(
      check(
        'beacon-trusted',
        beacon.trusted,
        beacon.trusted
          ? `the commitment names ${beacon.text}${beacon.source === 'caller' ? ', trusted by your settings' : ''}`
          : `the commitment names ${beacon.text}, which is not in your list of trusted beacons: whoever runs it could choose its values. If you know and trust it, add it knowingly (library: trust.beacons; CLI: --trust-beacon ${beacon.name}; page: trust settings)`,
      ),
    )

    // participants
    const entries = await checkParticipants(commitment, parsed, checks, policy.kinds, options.participantsDigest)

    // blocks
    const blocks: BeaconBlock[] = []
    const bad: string[] = []
    parsed.chain.blocks.forEach((b, i) => {
      try {
        blocks.push(parseBlock(base64ToBytes(b.bytes), b.cid))
      } catch (err) {
        bad.push(`block ${i} (${b.cid}): ${err instanceof OrbitdrawError ? err.detail : errorText(err)}`)
      }
    })
    checks.push(check('block-content', bad.length === 0, bad.length === 0 ? `${blocks.length} block(s) match their content addresses` : bad.join('; ')))
    if (bad.length > 0) {
      notes.push('chain, seed and outcome checks were not run because a carried block is corrupt')
      return done({ commitment, outcome: parsed.outcome })
    }
    const chain = await checkChain({
      beacon: commitment.beacon,
      target: commitment.target,
      after: commitment.after,
      blocks,
      ipnsRecord: parsed.chain.ipnsRecord === undefined ? undefined : base64ToBytes(parsed.chain.ipnsRecord),
      now: options.now,
    })
    checks.push(...chain.checks)
    notes.push(...chain.notes)
    const authenticated = chain.authenticated
    if (authenticated) checks.push(check('beacon-authenticity', true, `the beacon's signed IPNS record vouches for the chain down to block ${commitment.target}`))
    else if (options.allowUnsigned === true && parsed.chain.ipnsRecord === undefined) {
      checks.push(relaxedCheck('beacon-authenticity', 'allowUnsigned', 'no signed IPNS record: the blocks are intact (they hash to their CIDs) but nothing shows that the beacon published them; accepted because you allowed unsigned proofs'))
    } else {
      checks.push(
        check(
          'beacon-authenticity',
          false,
          parsed.chain.ipnsRecord === undefined
            ? 'the proof carries no signed IPNS record, so nothing shows that the beacon published these blocks: anyone can make blocks that hash to their own CIDs. Ask for a proof with the record, or accept integrity only knowingly (allowUnsigned / --allow-unsigned)'
            : 'the carried IPNS record does not vouch for this chain (see the failed ipns-record and chain checks)',
        ),
      )
    }
    const target = chain.checks.find((c) => c.name === 'chain-target')?.ok ? blocks.find((b) => b.sequence === commitment.target) : undefined
    if (target === undefined) {
      notes.push('the commitment-time, randomness, seed and outcome checks were not run because the target block is not proven to be in the chain')
      return done({ commitment, outcome: parsed.outcome }, authenticated)
    }
    const targetInfo = { sequence: target.sequence, cid: target.cid, timestamp: target.timestamp }

    // commitment-time: the commitment existed before the target block (RFC 3161 tokens from trusted authorities)
    const tokens = parsed.timestamps ?? []
    if (tokens.length === 0) {
      checks.push(
        options.allowUntimestamped === true
          ? relaxedCheck('commitment-time', 'allowUntimestamped', `no time-stamp token: nothing shows that the commitment existed before block ${target.sequence}; accepted because you allowed commitments without a time-stamp`)
          : check('commitment-time', false, `the proof carries no time-stamp token, so nothing shows that the commitment existed before block ${target.sequence} was published (${formatUnixTime(target.timestamp)}): the organizer could have committed after seeing the randomness. Ask for a time-stamped proof (orbitdraw commit time-stamps by default), or accept it knowingly (allowUntimestamped / --allow-untimestamped) after checking when the CID was published`),
      )
    } else {
      const [{ checkCommitmentTime }, anchors] = await Promise.all([import('./timestamp/check.js'), policy.anchors ?? import('./timestamp/defaults.js').then((m) => m.DEFAULT_TIMESTAMP_AUTHORITIES)])
      commitmentTime = await checkCommitmentTime({ tokens: tokens.map((t) => base64ToBytes(t)), digest: CID.parse(cid).multihash.digest, deadline: target.timestamp, anchors })
      checks.push(commitmentTimeCheck(commitmentTime, target.sequence, options.allowUntimestamped === true))
    }

    // A mixed draw (v2): the drand round and the order of the sources (src/core/drand/verify-step.ts, loaded only here).
    const drand = commitment.drand === undefined ? undefined : await mixedSources({ ...commitment, drand: commitment.drand }, parsed, target)
    if (drand !== undefined && drand.round === undefined) {
      notes.push('seed and outcome checks were not run because the drand round is not proven')
      return done({ commitment, outcome: parsed.outcome, target: targetInfo }, authenticated)
    }

    const hasRandomness = target.values.length > 0
    checks.push(check('randomness', hasRandomness, hasRandomness ? `the target block carries ${target.values.length} ctrng value(s)` : 'the target block carries no ctrng values: it cannot decide a draw'))
    if (hasRandomness) {
      const seed = drand?.round === undefined ? deriveSeed(cid, target) : drand.deriveMixedSeed(cid, target, drand.round)
      const seedOk = bytesToHex(seed) === parsed.seed
      checks.push(check('seed', seedOk, seedOk ? `seed ${parsed.seed}` : `the seed is ${bytesToHex(seed)}, not the claimed ${parsed.seed}`))
      checkOutcome(commitment, parsed, seed, entries, checks, policy.kinds)
    }
    // A follow-up draw (a panel replacement): its carried original proof and the link (src/core/follow-up-verify.ts).
    await checkFollowUp(parsed, commitment, checks, options, verify)
    return done({ commitment, outcome: parsed.outcome, target: targetInfo }, authenticated)
  }

  async function mixedSources(commitment: Commitment & { readonly drand: NonNullable<Commitment['drand']> }, parsed: Proof, target: BeaconBlock) {
    const [step, seed, anchors] = await Promise.all([import('./drand/verify-step.js'), import('./drand/seed.js'), policy.anchors ?? import('./timestamp/defaults.js').then((m) => m.DEFAULT_TIMESTAMP_AUTHORITIES)])
    const r = await step.checkDrandSources({ commitment, proof: parsed, target, chains: policy.drandChains, anchors })
    checks.push(...r.checks)
    notes.push(...r.notes)
    return { round: r.round, deriveMixedSeed: seed.deriveMixedSeed }
  }
}

/** `trust.drandChains`, each checked (hex fields, scheme, chain hash recomputed when the group hash is given). */
function normalizeDrandChains(list: readonly DrandChainInfo[]): readonly DrandChainInfo[] {
  if (!Array.isArray(list)) throw new InvalidInputError('INVALID_DRAND_INFO', 'trust.drandChains must be an array of drand chain infos', 'pass e.g. [...DEFAULT_DRAND_CHAINS, parseDrandInfo(infoJson)]', { path: '$.trust.drandChains' })
  return list.map((c, i) => checkChainInfo(c, `$.trust.drandChains[${i}]`))
}

function errorText(err: unknown): string {
  if (err instanceof OrbitdrawError) return err.message
  return err instanceof Error ? err.message : String(err)
}

function relaxedSentence(c: Check, commitment: Commitment | undefined, target: { readonly timestamp: number } | undefined): string {
  switch (c.relaxedBy) {
    case 'allowUnsigned':
      return 'unsigned blocks allowed: no signed beacon record proves that the beacon published the target block; check it by other means (for example `orbitdraw verify --online`, or the block on the beacon itself)'
    case 'allowUntimestamped':
      return `commitments without a valid time-stamp allowed: nothing here shows the commitment existed before the target block${target === undefined ? '' : ` (${formatUnixTime(target.timestamp)})`}; check that the organizer published the commitment CID before then${commitment === undefined ? '' : ` (block ${commitment.target})`}`
    default:
      return `${c.name} relaxed by ${String(c.relaxedBy)}`
  }
}

/** `options.kinds`, checked to be a registry (from `withKinds` or `drawKinds`). */
function checkKinds(kinds: DrawKinds): DrawKinds {
  if (typeof kinds !== 'object' || kinds === null || typeof kinds.get !== 'function' || !Array.isArray(kinds.list) || !Array.isArray(kinds.names)) {
    throw new InvalidInputError('INVALID_DRAW_KIND', 'kinds must be a registry of draw kinds', 'pass withKinds([myKind]) (or omit kinds for the built-in ones)', { path: '$.kinds' })
  }
  return kinds
}

/** The anchors of `trust.timestampAuthorities` (PEM, DER or parsed), replacing the defaults. */
async function normalizeAnchors(list: readonly (string | Uint8Array | TimestampTrustAnchor)[]): Promise<TimestampTrustAnchor[]> {
  if (!Array.isArray(list)) throw new InvalidInputError('INVALID_TRUST_ANCHOR', 'trust.timestampAuthorities must be an array of PEM texts, DER bytes or parsed anchors', 'pass e.g. [...DEFAULT_TIMESTAMP_AUTHORITIES, pemText]', { path: '$.trust.timestampAuthorities' })
  const toParse = list.some((a) => typeof a === 'string' || a instanceof Uint8Array)
  const parseTrustAnchor = toParse ? (await import('./timestamp/anchor.js')).parseTrustAnchor : undefined
  return list.map((a, i) => {
    if (typeof a === 'string' || a instanceof Uint8Array) return underPath(`$.trust.timestampAuthorities[${i}]`, () => parseTrustAnchor!(a))
    return a
  })
}

/** Seconds as "4 min 12 s" (or "2 h 3 min", "3 d 4 h"). */
function formatMargin(seconds: number): string {
  const s = Math.floor(seconds)
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`
}

function commitmentTimeCheck(r: CommitmentTimeResult, targetSequence: number, allowUntimestamped: boolean): Check {
  const others = (skip: number): string => {
    const rest = r.tokens.filter((t) => t.index !== skip)
    return rest.length === 0 ? '' : `; other token(s): ${rest.map((t) => `#${t.index + 1} ${t.ok ? 'also valid' : t.detail}`).join('; ')}`
  }
  if (r.status === 'ok') {
    const best = r.tokens.filter((t) => t.ok).sort((a, b) => (b.marginSeconds ?? 0) - (a.marginSeconds ?? 0))[0]!
    return check('commitment-time', true, `time-stamped by ${best.authority ?? 'a trusted authority'} at ${best.time?.slice(0, 19).replace('T', ' ')} UTC, ${formatMargin(best.marginSeconds ?? 0)} before block ${targetSequence}${others(best.index)}`)
  }
  if (r.status === 'uncheckable' && !allowUntimestamped) return uncheckableCheck('commitment-time', `could not be checked on this host: ${r.detail}`)
  const why = r.tokens.map((t) => `token #${t.index + 1}: ${t.detail}`).join('; ') || r.detail
  if (allowUntimestamped) return relaxedCheck('commitment-time', 'allowUntimestamped', `no carried time-stamp proves the commitment existed before block ${targetSequence} (${why}); accepted because you allowed commitments without a valid time-stamp`)
  return check('commitment-time', false, `no carried time-stamp proves that the commitment existed before block ${targetSequence}: ${why}. If the authority is one you trust, add its root knowingly (trust.timestampAuthorities / --trust-tsa FILE)`)
}

function sameCid(a: string, b: string): boolean {
  if (a.length > LIMITS.maxCidChars || b.length > LIMITS.maxCidChars) return false
  try {
    return CID.parse(a).equals(CID.parse(b))
  } catch {
    return false
  }
}

function checkOutcome(commitment: Commitment, proof: Proof, seed: Uint8Array, entry: ((i: number) => string | undefined) | undefined, checks: Check[], kinds: DrawKinds): void {
  const kind = kindOf(commitment.draw, kinds)
  const winnersOnly = proof.participants?.disclosure === 'winners'
  // The outcome was not recomputed: `outcome` fails, and every check after it that applies to this proof
  // (the kind's claim checks, `revealed-winners` for a winners-only proof) is reported failed, "not checked:
  // <why>", never dropped (docs/spec.md, What verify checks, rows 16–17).
  const notRecomputed = (outcomeDetail: string, why: string, revealedDetail?: string): void => {
    checks.push(check('outcome', false, outcomeDetail))
    for (const name of kind.claimCheckNames ?? []) checks.push(check(name as Check['name'], false, `not checked: ${why}`))
    if (winnersOnly) checks.push(check('revealed-winners', false, revealedDetail ?? `not checked: ${why}`))
  }
  const unbounded = claimExceedsCarriedData(commitment, proof, kind)
  if (unbounded !== undefined) {
    notRecomputed(`${unbounded.why}: the outcome is not recomputed`, `the outcome was not recomputed (${unbounded.why})`, unbounded.revealed)
    return
  }
  const weighted = kind.participants === 'weighted'
  const weights =
    weighted && proof.participants?.disclosure === 'full' && proof.participants.entries.length === commitment.participants?.count
      ? (proof.participants.entries as readonly (string | WeightedEntry)[]).map((e) => (typeof e === 'string' ? NaN : e.weight))
      : undefined
  if (weighted && (weights === undefined || weights.some((w) => !Number.isSafeInteger(w) || w < 1))) {
    notRecomputed(`the ${kind.name} outcome cannot be recomputed without every entry and weight`, 'the outcome was not recomputed (not every entry carries a valid weight)')
    return
  }
  if (kind.participants !== 'none' && entry === undefined) {
    notRecomputed('the outcome cannot be named without a valid participants section', 'the outcome was not recomputed (the participants section is invalid)')
    return
  }
  let computed: Outcome
  try {
    computed = computeOutcome(seed, commitment.draw, commitment.participants?.count ?? 0, weights, kinds)
  } catch (err) {
    // A replay that hits a protocol limit (a sortition draw's rejection rounds): the claim is unproven.
    if (!(err instanceof OrbitdrawError)) throw err
    notRecomputed(`the outcome cannot be recomputed: ${err.detail}`, `the outcome could not be recomputed (${err.detail})`)
    return
  }
  const expected = outcomeToJson(computed, (i) => entry?.(i) ?? `<undisclosed #${i}>`, kinds)
  const claimed = proof.outcome
  const sameKind = expected.kind === claimed.kind
  const mismatch = !sameKind ? `the draw is a ${expected.kind}, the proof claims a ${claimed.kind}` : kind.compare(expected, claimed)
  checks.push(check('outcome', mismatch === undefined, mismatch === undefined ? kind.describeOutcome(expected) : mismatch))
  if (sameKind && kind.claimChecks !== undefined) for (const c of kind.claimChecks(commitment.draw, claimed, expected)) checks.push(check(c.name, c.ok, c.detail))
  else for (const name of kind.claimCheckNames ?? []) checks.push(check(name as Check['name'], false, `not checked: the proof claims a ${claimed.kind} outcome, not a ${expected.kind}`))
  checkRevealedWinners(proof, kind.winnersOnly?.winners(computed), checks)
}

/**
 * Recomputing an outcome costs time and memory in the size the commitment claims (n participants, k
 * winners, m values). The claim is untrusted: before any such work, the proof must carry data of that
 * size (a full disclosure: exactly `participants.count` entries, whatever the kind; a winners-only proof:
 * the kind's number of winners, or at most it; what the kind's `carried` asks for a kind without
 * participants), so the work stays bounded by the proof's own size. Returns why not (and, for a
 * winners-only proof revealing the wrong number, the `revealed-winners` detail), or undefined.
 */
function claimExceedsCarriedData(commitment: Commitment, proof: Proof, kind: AnyDrawKind): { why: string; revealed?: string } | undefined {
  const d = commitment.draw
  const n = commitment.participants?.count ?? 0
  const p = proof.participants
  if (kind.participants === 'none') {
    const why = kind.carried?.(d, proof.outcome.kind === kind.name ? proof.outcome : undefined)
    return why === undefined ? undefined : { why }
  }
  if (p === undefined) return { why: 'the proof carries no participants section' }
  if (p.disclosure === 'full') return p.entries.length === n ? undefined : { why: `the commitment claims ${n} participants but the proof carries ${p.entries.length}` }
  if (kind.winnersOnly === undefined) return { why: `a ${d.kind} draw needs every entry` }
  const count = kind.winnersOnly.count(d)
  const revealed = p.revealed.length
  if (kind.winnersOnly.upTo === true) {
    return revealed <= count ? undefined : { why: `the proof reveals ${revealed} entries where the commitment draws at most ${count} winner(s)`, revealed: `the commitment draws at most ${count} winner(s) but the proof reveals ${revealed}: the outcome is not recomputed` }
  }
  return revealed === count ? undefined : { why: `the proof reveals ${revealed} entries where the commitment draws ${count} winner(s)`, revealed: `the commitment draws ${count} winner(s) but the proof reveals ${revealed}: the revealed entries are not exactly the winners, and the outcome is not recomputed` }
}
