/**
 * The drand step of `verify` for a mixed (version 2) proof: `drand-chain-trusted`, `drand-round`,
 * `drand-signature` and `source-order`. Loaded only for a mixed proof: it brings the BLS12-381 pairing
 * and the time-stamp checks, which a version 1 proof does not pay for.
 *
 * @module
 */
import { CID } from 'multiformats/cid'
import type { BeaconBlock } from '../block.js'
import { base64ToBytes } from '../bytes.js'
import { check, uncheckableCheck, type Check } from '../check.js'
import type { Commitment } from '../commitment.js'
import type { Proof } from '../proof.js'
import { checkCommitmentTime } from '../timestamp/check.js'
import type { TimestampTrustAnchor } from '../timestamp/anchor.js'
import type { CommitmentTimeResult } from '../timestamp/result.js'
import { formatUnixTime } from '../unix-time.js'
import type { DrandRound } from './beacon.js'
import { InvalidInputError } from '../errors.js'
import { roundTime, type DrandChainInfo } from './chain.js'
import { checkRoundSignature } from './pairing.js'

/** Input of {@link checkDrandSources}. */
export interface DrandStepInput {
  readonly commitment: Commitment & { readonly drand: NonNullable<Commitment['drand']> }
  readonly proof: Proof
  readonly target: BeaconBlock
  /** The verifier's trusted drand chains. */
  readonly chains: readonly DrandChainInfo[]
  /** The verifier's time-stamping roots. */
  readonly anchors: readonly TimestampTrustAnchor[]
}

/** What {@link checkDrandSources} found. */
export interface DrandStepResult {
  /** The checks, in order. */
  readonly checks: readonly Check[]
  /** Notes on checks not run. */
  readonly notes: readonly string[]
  /** The round, when its signature verified under a trusted chain (the seed may then be derived). */
  readonly round?: DrandRound
  /** Whether `source-order` passed; undefined when it did not run. */
  readonly sourceOrder?: boolean
}

/**
 * Runs the drand checks of a mixed proof. Never throws on a bad proof. Its work is fixed: one pairing
 * check of one 48-byte signature, and the time-stamp tokens (at most `maxTimestampTokens` per list).
 */
export async function checkDrandSources(input: DrandStepInput): Promise<DrandStepResult> {
  const { commitment, proof, target, chains, anchors } = input
  const checks: Check[] = []
  const notes: string[] = []
  const committed = commitment.drand
  const chain = chains.find((c) => c.hash === committed.chain)
  checks.push(
    chain === undefined
      ? check('drand-chain-trusted', false, `the commitment names drand chain ${committed.chain}, which is not in your list of trusted drand chains: whoever runs it could predict or withhold its rounds. If you know and trust it, add its info knowingly (library: trust.drandChains; CLI: --trust-drand INFO.json)`)
      : check('drand-chain-trusted', true, `the commitment names drand chain ${chain.label ?? chain.hash}${chain.label === undefined ? '' : ` (${chain.hash.slice(0, 16)}…)`}, in your list of trusted drand chains`),
  )
  const carried = proof.drand
  // The committed round's due time on the trusted chain: a round due past 2^53 s is never published.
  const due = chain === undefined ? undefined : dueTime(chain, committed.round)
  const neverDue = chain !== undefined && due === undefined
  const roundOk = carried !== undefined && carried.round === committed.round && !neverDue
  checks.push(
    check(
      'drand-round',
      roundOk,
      neverDue
        ? `the commitment names round ${committed.round}, due past 2^53 s on drand chain ${chain!.label ?? chain!.hash}: no such round is ever published`
        : carried === undefined
          ? `the proof carries no drand round; the commitment names round ${committed.round}`
          : carried.round === committed.round
            ? `the proof carries round ${committed.round}, the committed one`
            : `the proof carries drand round ${carried.round}, not the committed round ${committed.round}: no other round may be substituted`,
    ),
  )
  if (chain === undefined || due === undefined || !roundOk || carried === undefined) {
    notes.push('drand-signature and source-order were not run because the drand chain is not trusted or the round is not the committed one')
    return { checks, notes }
  }
  let signed: boolean
  try {
    signed = await checkRoundSignature(chain, carried)
  } catch (err) {
    // The verifier's own trust material (checked where it is used: decoding every trusted key up front
    // would load BLS12-381 into every verify): an invalid option, not a property of the proof.
    if (!(err instanceof InvalidInputError) || err.code !== 'INVALID_PUBLIC_KEY') throw err
    checks.push(check('policy', false, `the verification options are invalid: the trusted drand chain ${chain.label ?? chain.hash}'s public key is not a valid G2 point (pin the chain's public key exactly as its /info serves it)`))
    return { checks, notes }
  }
  checks.push(check('drand-signature', signed, signed ? `round ${carried.round}'s BLS signature verifies under the chain's public key (round due ${formatUnixTime(due)})` : `the signature carried for round ${carried.round} does not verify under the chain's public key: it is not the round drand published`))

  // source-order: block N, and the commitment, were time-stamped before round R was due.
  const tokens = carried.timestamps.map((t) => base64ToBytes(t))
  const deadlineName = `drand round ${committed.round} (due ${formatUnixTime(due)})`
  const blockTime = tokens.length === 0 ? undefined : await checkCommitmentTime({ tokens, digest: CID.parse(target.cid).multihash.digest, deadline: due, anchors, names: { stamped: `block ${target.sequence}`, deadline: deadlineName } })
  const commitmentTokens = (proof.timestamps ?? []).map((t) => base64ToBytes(t))
  const commitmentTime = commitmentTokens.length === 0 ? undefined : await checkCommitmentTime({ tokens: commitmentTokens, digest: CID.parse(proof.commitmentCid).multihash.digest, deadline: due, anchors, names: { stamped: 'this commitment', deadline: deadlineName } })
  const order = sourceOrderCheck(target.sequence, committed.round, due, blockTime, commitmentTime)
  checks.push(order)
  return signed ? { checks, notes, round: carried, sourceOrder: order.ok } : { checks, notes, sourceOrder: order.ok }
}

function sourceOrderCheck(sequence: number, round: number, due: number, block: CommitmentTimeResult | undefined, commitment: CommitmentTimeResult | undefined): Check {
  const at = formatUnixTime(due)
  if (block === undefined) return check('source-order', false, `the proof carries no time-stamp over block ${sequence}, so nothing shows the block was fixed before drand round ${round} was public (${at}): the Orbitport operator could have chosen the block after seeing the round`)
  if (block.status === 'uncheckable') return uncheckableCheck('source-order', `could not be checked on this host: ${block.detail}`)
  if (block.status !== 'ok') return check('source-order', false, `no carried time-stamp proves block ${sequence} was fixed before drand round ${round} was public (${at}): ${block.detail}. The Orbitport operator could have chosen the block after seeing the round`)
  if (commitment === undefined || commitment.status === 'failed') return check('source-order', false, `block ${sequence} was time-stamped before round ${round} (${at}), but no time-stamp shows the commitment existed before the round: ${commitment?.detail ?? 'the proof carries no commitment time-stamp'}`)
  if (commitment.status === 'uncheckable') return uncheckableCheck('source-order', `could not be checked on this host: ${commitment.detail}`)
  return check('source-order', true, `block ${sequence} and the commitment were both time-stamped before drand round ${round} was public (${at}): ${block.detail}`)
}

/** `roundTime(chain, round)`, or undefined when the round is due past 2^53 s (`INVALID_DRAND_ROUND`). */
function dueTime(chain: DrandChainInfo, round: number): number | undefined {
  try {
    return roundTime(chain, round)
  } catch (err) {
    if (err instanceof InvalidInputError && err.code === 'INVALID_DRAND_ROUND') return undefined
    throw err
  }
}
