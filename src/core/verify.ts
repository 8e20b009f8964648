/**
 * Offline verification of a proof bundle. `verify` never throws on a bad proof: it returns every
 * check it ran, by name, with what was wrong.
 *
 * @module
 */
import { CID } from 'multiformats/cid'
import { parseBlock, type BeaconBlock } from './block.js'
import { base64ToBytes, bytesToHex, hexToBytes } from './bytes.js'
import { check, type Check } from './check.js'
import { checkChain } from './chain.js'
import { commitmentCid, parseCommitment, underPath, type Commitment } from './commitment.js'
import { usesParticipants } from './draw-spec.js'
import { outcomeToJson } from './draw.js'
import { OrbitdrawError, UnsupportedVersionError } from './errors.js'
import { expectObject } from './json.js'
import { LIMITS } from './limits.js'
import { computeOutcome } from './outcome.js'
import { encodeLeaf, participantsRoot, validateEntries, type WeightedEntry } from './participants.js'
import { verifyInclusion } from './merkle.js'
import { checkProofVersion, parseProof, readProofJson, type OutcomeJson, type Proof } from './proof.js'
import { deriveSeed } from './seed.js'

/** Options for {@link verify}. */
export interface VerifyOptions {
  /** The time at which record expiry is reported (default: none; expiry never fails a proof). */
  now?: Date
  /** Fail (check `beacon-authenticity`) when the proof carries no valid signed IPNS record. */
  requireAuthenticated?: boolean
}

/** What {@link verify} found. */
export interface VerifyResult {
  /** True when every check passed. */
  readonly ok: boolean
  /** True when the blocks are proven to come from the committed beacon (valid signed IPNS record). */
  readonly authenticated: boolean
  /** Every check that ran, in order. */
  readonly checks: readonly Check[]
  /** Remarks that are not failures: integrity-only proofs, expired records, checks not run. */
  readonly notes: readonly string[]
  /** The parsed commitment, when it could be parsed. */
  readonly commitment?: Commitment
  /** The proof's claimed outcome, when the proof could be parsed. Trust it only when `ok`. */
  readonly outcome?: OutcomeJson
  /** The target block, when it was found and checked. */
  readonly target?: { readonly sequence: number; readonly cid: string; readonly timestamp: number }
}

/**
 * Verifies a proof bundle offline.
 *
 * Checks, in order: `version`, `format`, `commitment-cid`, `participants`, `block-content`,
 * `chain-links`, `chain-target`, `after-block`, then with a signed IPNS record `ipns-record-signature`,
 * `ipns-record-name`, `ipns-record-value` (and `beacon-authenticity` when required), then
 * `randomness`, `seed`, `outcome`. See docs/spec.md. A check that cannot run because an earlier one
 * failed is listed in `notes`, not as a pass. A proof without a record can be `ok` but not
 * `authenticated`: it shows integrity, not that the beacon published the blocks.
 *
 * @param proof - the proof as parsed JSON, JSON text, or bytes. Untrusted.
 */
export async function verify(proof: unknown, options: VerifyOptions = {}): Promise<VerifyResult> {
  const checks: Check[] = []
  const notes: string[] = []
  const done = (extra: Partial<Pick<VerifyResult, 'commitment' | 'outcome' | 'target'>> = {}, authenticated = false): VerifyResult => ({
    ok: checks.length > 0 && checks.every((c) => c.ok),
    authenticated,
    checks,
    notes,
    ...extra,
  })
  try {
    return await run()
  } catch (err) {
    checks.push(check('internal', false, `verification stopped unexpectedly: ${(err as Error)?.message ?? String(err)}`))
    return done()
  }

  async function run(): Promise<VerifyResult> {
    // version, then format
    let parsed: Proof
    try {
      const raw = readProofJson(proof)
      checkProofVersion(expectObject(raw, '$'))
      checks.push(check('version', true, `protocol version ${(raw as { version: number }).version}`))
      parsed = parseProof(raw)
      checks.push(check('format', true, 'the proof is well-formed'))
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err)
      checks.push(check(err instanceof UnsupportedVersionError ? 'version' : 'format', false, msg))
      notes.push('the remaining checks were not run because the proof could not be read')
      return done()
    }

    // commitment
    let commitment: Commitment
    try {
      commitment = parseCommitment(parsed.commitment)
    } catch (err) {
      checks.push(check(err instanceof UnsupportedVersionError ? 'version' : 'commitment-cid', false, `the commitment is invalid: ${(err as Error).message}`))
      notes.push('the remaining checks were not run because the commitment could not be read')
      return done({ outcome: parsed.outcome })
    }
    const cid = commitmentCid(commitment)
    checks.push(check('commitment-cid', sameCid(cid, parsed.commitmentCid), sameCid(cid, parsed.commitmentCid) ? `the commitment encodes to ${cid}` : `the commitment encodes to ${cid}, not the claimed ${parsed.commitmentCid}`))

    // participants
    const entries = checkParticipants(commitment, parsed, checks)

    // blocks
    const blocks: BeaconBlock[] = []
    const bad: string[] = []
    parsed.chain.blocks.forEach((b, i) => {
      try {
        blocks.push(parseBlock(base64ToBytes(b.bytes), b.cid))
      } catch (err) {
        bad.push(`block ${i} (${b.cid}): ${err instanceof OrbitdrawError ? err.detail : (err as Error).message}`)
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
    if (options.requireAuthenticated === true) {
      checks.push(check('beacon-authenticity', authenticated, authenticated ? 'the signed IPNS record vouches for the chain' : 'the proof does not prove that the committed beacon published these blocks (no valid signed IPNS record)'))
    }
    const target = chain.checks.find((c) => c.name === 'chain-target')?.ok ? blocks.find((b) => b.sequence === commitment.target) : undefined
    if (target === undefined) {
      notes.push('seed and outcome checks were not run because the target block is not proven to be in the chain')
      return done({ commitment, outcome: parsed.outcome }, authenticated)
    }
    const targetInfo = { sequence: target.sequence, cid: target.cid, timestamp: target.timestamp }

    const hasRandomness = target.values.length > 0
    checks.push(check('randomness', hasRandomness, hasRandomness ? `the target block carries ${target.values.length} ctrng value(s)` : 'the target block carries no ctrng values: it cannot decide a draw'))
    if (hasRandomness) {
      const seed = deriveSeed(cid, target)
      const seedOk = bytesToHex(seed) === parsed.seed
      checks.push(check('seed', seedOk, seedOk ? `seed ${parsed.seed}` : `the seed is ${bytesToHex(seed)}, not the claimed ${parsed.seed}`))
      checkOutcome(commitment, parsed, seed, entries, checks)
    }
    return done({ commitment, outcome: parsed.outcome, target: targetInfo }, authenticated)
  }
}

function sameCid(a: string, b: string): boolean {
  if (a.length > LIMITS.maxCidChars || b.length > LIMITS.maxCidChars) return false
  try {
    return CID.parse(a).equals(CID.parse(b))
  } catch {
    return false
  }
}

/** Checks the participants section; returns the entry lookup used to name winners, or undefined. */
function checkParticipants(commitment: Commitment, proof: Proof, checks: Check[]): ((i: number) => string | undefined) | undefined {
  const p = proof.participants
  if (!usesParticipants(commitment.draw)) {
    checks.push(check('participants', p === undefined, p === undefined ? 'a range draw has no participants' : 'a range draw must not carry participants'))
    return undefined
  }
  const committed = commitment.participants!
  if (p === undefined) {
    checks.push(check('participants', false, 'the proof carries no participants section'))
    return undefined
  }
  try {
    if (p.disclosure === 'full') {
      const weighted = commitment.draw.kind === 'weighted'
      const list = p.entries as readonly (string | WeightedEntry)[]
      if (list.some((e) => (typeof e === 'string') === weighted)) {
        checks.push(check('participants', false, weighted ? 'a weighted draw needs { entry, weight } entries' : 'entries must be strings'))
        return undefined
      }
      // participantsRoot validates every entry (rules, limits, duplicates) before hashing.
      const root = bytesToHex(underPath('$.participants.entries', () => participantsRoot(list as string[] | WeightedEntry[])))
      const ok = list.length === committed.count && root === committed.root
      checks.push(check('participants', ok, ok ? `${list.length} entries hash to the committed root ${root}` : list.length !== committed.count ? `${list.length} entries carried, ${committed.count} committed` : `the entries hash to ${root}, not the committed ${committed.root}`))
      return (i) => {
        const e = list[i]
        return e === undefined ? undefined : typeof e === 'string' ? e : e.entry
      }
    }
    if (commitment.draw.kind !== 'pick') {
      checks.push(check('participants', false, `a ${commitment.draw.kind} draw must disclose all entries`))
      return undefined
    }
    const root = hexToBytes(committed.root)
    const failures: string[] = []
    for (const [i, r] of p.revealed.entries()) {
      validateEntries([r.entry])
      const ok = r.index < committed.count && verifyInclusion({ root, size: committed.count, index: r.index, leafData: encodeLeaf(r.entry), path: r.path.map((h) => hexToBytes(h)) })
      if (!ok) failures.push(`revealed[${i}] (${JSON.stringify(r.entry)} at index ${r.index}) is not proven to be in the committed list`)
    }
    checks.push(check('participants', failures.length === 0, failures.length === 0 ? `${p.revealed.length} revealed winner(s) proven in the committed list of ${committed.count}` : failures.join('; ')))
    const byIndex = new Map(p.revealed.map((r) => [r.index, r.entry]))
    return (i) => byIndex.get(i)
  } catch (err) {
    checks.push(check('participants', false, err instanceof Error ? err.message : String(err)))
    return undefined
  }
}

function checkOutcome(commitment: Commitment, proof: Proof, seed: Uint8Array, entry: ((i: number) => string | undefined) | undefined, checks: Check[]): void {
  const weights =
    commitment.draw.kind === 'weighted' && proof.participants?.disclosure === 'full' && proof.participants.entries.length === commitment.participants?.count
      ? (proof.participants.entries as readonly (string | WeightedEntry)[]).map((e) => (typeof e === 'string' ? NaN : e.weight))
      : undefined
  if (commitment.draw.kind === 'weighted' && (weights === undefined || weights.some((w) => !Number.isSafeInteger(w) || w < 1))) {
    checks.push(check('outcome', false, 'the weighted outcome cannot be recomputed without every entry and weight'))
    return
  }
  if (usesParticipants(commitment.draw) && entry === undefined) {
    checks.push(check('outcome', false, 'the outcome cannot be named without a valid participants section'))
    return
  }
  const computed = computeOutcome(seed, commitment.draw, commitment.participants?.count ?? 0, weights)
  const expected = outcomeToJson(computed, (i) => entry?.(i) ?? `<undisclosed #${i}>`)
  const claimed = proof.outcome
  const mismatch = firstDifference(expected, claimed)
  checks.push(check('outcome', mismatch === undefined, mismatch === undefined ? describeOutcome(expected) : mismatch))
  if (mismatch === undefined && proof.participants?.disclosure === 'winners' && expected.kind === 'pick') {
    // the revealed list must be exactly the winners, in rank order
    const rev = proof.participants.revealed
    const same = rev.length === expected.winners.length && rev.every((r, i) => r.index === expected.winners[i]!.index)
    if (!same) checks.push(check('outcome', false, 'the revealed entries are not exactly the winners in rank order'))
  }
}

function firstDifference(expected: OutcomeJson, claimed: OutcomeJson): string | undefined {
  if (expected.kind !== claimed.kind) return `the draw is a ${expected.kind}, the proof claims a ${claimed.kind}`
  if (expected.kind === 'range' && claimed.kind === 'range') {
    if (expected.values.length !== claimed.values.length) return `${expected.values.length} values expected, ${claimed.values.length} claimed`
    const i = expected.values.findIndex((v, j) => v !== claimed.values[j])
    return i < 0 ? undefined : `value ${i + 1} is ${expected.values[i]}, the proof claims ${claimed.values[i]}`
  }
  const e = expected.kind === 'shuffle' ? expected.ranking : expected.kind === 'range' ? [] : expected.winners
  const c = claimed.kind === 'shuffle' ? claimed.ranking : claimed.kind === 'range' ? [] : claimed.winners
  if (e.length !== c.length) return `${e.length} ranked entries expected, ${c.length} claimed`
  for (let i = 0; i < e.length; i++) {
    const x = e[i]!
    const y = c[i]!
    if (x.rank !== y.rank || x.index !== y.index || x.entry !== y.entry) {
      return `rank ${i + 1} is index ${x.index} ${JSON.stringify(x.entry)}, the proof claims rank ${y.rank} index ${y.index} ${JSON.stringify(y.entry)}`
    }
  }
  return undefined
}

function describeOutcome(o: OutcomeJson): string {
  switch (o.kind) {
    case 'range':
      return `the values ${o.values.slice(0, 10).join(', ')}${o.values.length > 10 ? ', …' : ''} follow from the seed`
    case 'shuffle':
      return `the ranking of ${o.ranking.length} entries follows from the seed`
    default:
      return `the winners ${o.winners.slice(0, 10).map((w) => JSON.stringify(w.entry)).join(', ')}${o.winners.length > 10 ? ', …' : ''} follow from the seed`
  }
}
