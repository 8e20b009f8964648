/**
 * Draws over the network: wait for the committed block, derive the outcome with the pure
 * `drawFromBlock`, and add the beacon's signed IPNS record and every block from the head down to the
 * target (and to the commitment's `after` block when it is close), so the proof verifies offline.
 *
 * @module
 */
import { parseBlock, sameContent, type BeaconBlock } from '../core/block.js'
import { base64ToBytes, bytesToBase64 } from '../core/bytes.js'
import { checkChain } from '../core/chain.js'
import { check, notCheckedCheck, type Check } from '../core/check.js'
import { parseCommitment, type Commitment } from '../core/commitment.js'
import { drawPrepared, prepareDrawAsync, type DrandEvidence, type Participants, type PrepareDrawOptions } from '../core/draw.js'
import type { DrandClient } from '../drand/client.js'
import { IntegrityError, InvalidInputError, MismatchError, OrbitdrawError } from '../core/errors.js'
import { parseIpnsName } from '../core/ipns/name.js'
import { LIMITS } from '../core/limits.js'
import { parseProof, parseTimestamps, type Proof } from '../core/proof.js'
import type { DrawKinds } from '../core/kinds/kind.js'
import type { VerifyResult } from '../core/verify-result.js'
import { BeaconClient, type BeaconClientOptions, type WaitProgress } from './client.js'

/**
 * Options of {@link draw}.
 * @category Draw
 */
export interface NetworkDrawOptions extends PrepareDrawOptions {
  /** The beacon client to use; default: a new one for the commitment's beacon with `clientOptions`. */
  client?: BeaconClient
  /** Options for the default client (gateways, timeouts…); `name` is the commitment's beacon. */
  clientOptions?: Omit<BeaconClientOptions, 'name'>
  /** Cancels the wait and the requests. */
  signal?: AbortSignal
  /** Progress while waiting for the target. */
  onProgress?: (p: WaitProgress) => void
  /** Give up waiting after this many ms. */
  timeoutMs?: number
  /**
   * Also carry the blocks from the target down to the commitment's `after` block when it is at most
   * this many blocks below the target (default 64; 0 never). Proves the commitment came after it.
   */
  includeAfterWithin?: number
  /** Accept a head without a signed record (the proof then shows integrity only). Default false. */
  allowUnauthenticated?: boolean
  /**
   * RFC 3161 time-stamp tokens over the commitment (standard base64 DER, as kept by
   * `timestampCommitment` or read from the commitment file), carried into the proof as `timestamps`.
   * Checked for form here (count, size, base64); `verify` judges them.
   */
  timestamps?: readonly string[]
  /**
   * Draw without time-stamps, knowingly. Without `timestamps`, `draw` refuses (`MISSING_TIMESTAMPS`):
   * the proof could not show that the commitment came before the block, so it fails the default
   * `verify` (`commitment-time`). Set it for tests, or a draw whose commitment was announced by other
   * means (its verifiers must then pass `allowUntimestamped`).
   */
  untimestamped?: boolean
  /**
   * For a mixed (version 2) commitment: the drand client of the committed chain (its pinned info must
   * have the committed chain hash) and how to time-stamp block N (RFC 3161 tokens over its CID, standard
   * base64; e.g. `timestampCommitment(blockCid, …)`). Right after block N appears the draw time-stamps
   * it, then waits for the committed round (`roundTimeoutMs` after its time; default 10 periods): if the
   * round never appears the draw is void (`DRAND_VOID`), no other round is used.
   */
  drand?: {
    readonly client: DrandClient
    readonly timestamp: (blockCid: string, signal?: AbortSignal) => Promise<readonly string[]>
    readonly roundTimeoutMs?: number
    /** Progress while waiting for the round (seconds left). */
    readonly onWait?: (secondsLeft: number) => void
  }
}

/**
 * Waits for the committed block, draws, and returns a proof carrying the signed IPNS record and the
 * chain from the head down to the target (newest first). The proof is checked with `checkChain`
 * before it is returned.
 *
 * The commitment, the disclosure and the participants are checked *before* waiting (with
 * `prepareDrawAsync`, hashing with `options.participantsDigest` / `participantsTree` when given), so a
 * wrong list fails at once rather than when the block arrives. The Node entry's `draw` hashes large
 * lists on two threads by default.
 *
 * @example
 * ```ts
 * const stamped = await timestampCommitment(cid)            // before the block: RFC 3161 tokens
 * const proof = await draw(commitment, participants, { timestamps: stamped.tokens.map((t) => t.base64) })
 * ```
 * @throws {@link InvalidInputError} `MISSING_TIMESTAMPS` without `timestamps` (unless `untimestamped: true`),
 *   before any request; `prepareDraw`'s errors (participants mismatch…) before any request; the client's errors
 *   (waiting, network, fork); `drawPrepared`'s errors, {@link MismatchError} `AFTER_BLOCK_NOT_IN_CHAIN` when the commitment's `after` block
 *   is not the beacon's block at that sequence, {@link InvalidInputError} `UNAUTHENTICATED_HEAD`.
 * @category Draw
 */
export async function draw(commitment: Commitment, participants: Participants | undefined, options: NetworkDrawOptions = {}): Promise<Proof> {
  return drawWith(
    commitment,
    options,
    () =>
      prepareDrawAsync(commitment, participants, {
        ...(options.disclosure === undefined ? {} : { disclosure: options.disclosure }),
        ...(options.secret === undefined ? {} : { secret: options.secret }),
        ...(options.kinds === undefined ? {} : { kinds: options.kinds }),
        ...(options.participantsDigest === undefined ? {} : { participantsDigest: options.participantsDigest }),
        ...(options.participantsTree === undefined ? {} : { participantsTree: options.participantsTree }),
      }),
    (prepared, block, drand) => drawPrepared(prepared, block, drand),
  )
}

/**
 * @internal {@link draw} with its two pure steps given: `prepare` (every check that needs no block, run
 * before waiting) and `prove` (the proof from the target block, before the chain is added). `draw` passes
 * `prepareDrawAsync` and `drawPrepared`; the streamed draw of a file (`orbitdraw/node`'s `drawFile`) passes
 * steps that never hold the list, whose proof may carry a ranking written from the file (`R`).
 */
export async function drawWith<P, R extends Pick<Proof, 'chain'> = Proof>(commitment: Commitment, options: NetworkDrawOptions, prepare: () => P | Promise<P>, prove: (prepared: P, block: BeaconBlock, drand?: DrandEvidence) => R | Promise<R>): Promise<R> {
  const name = parseIpnsName(commitment?.beacon ?? '', '$.commitment.beacon')
  const client = options.client ?? new BeaconClient({ ...options.clientOptions, name: name.name })
  if (client.name !== name.name) {
    throw new InvalidInputError('BEACON_MISMATCH', `the client reads beacon ${client.name}, the commitment names ${name.name}`, 'use a client for the committed beacon')
  }
  // Every check that does not need the block runs now, not after a wait that may last hours.
  const committedRound = commitment.drand
  if (committedRound !== undefined) {
    if (options.drand === undefined) throw new InvalidInputError('MISSING_DRAND_ROUND', `this commitment mixes in drand round ${committedRound.round}: the draw needs a drand client and a time-stamper for block ${commitment.target}`, 'pass drand: { client, timestamp } (the CLI does this from the commitment)')
    if (options.drand.client.chain.hash !== committedRound.chain) throw new InvalidInputError('BEACON_MISMATCH', `the drand client reads chain ${options.drand.client.chain.hash}, the commitment names ${committedRound.chain}`, 'use a client of the committed drand chain')
  } else if (options.drand !== undefined) {
    throw new InvalidInputError('UNEXPECTED_DRAND_ROUND', 'this commitment names no drand round, but drand options were given', 'omit drand for a version 1 commitment')
  }
  const timestamps = options.timestamps === undefined || options.timestamps.length === 0 ? undefined : parseTimestamps(options.timestamps, 'options.timestamps')
  if (timestamps === undefined && options.untimestamped !== true) {
    throw new InvalidInputError(
      'MISSING_TIMESTAMPS',
      'no time-stamp of the commitment was given: the proof could not show that the commitment came before the block, so it would fail the default verify (commitment-time)',
      'time-stamp the commitment before its block (const stamped = await timestampCommitment(cid)) and pass timestamps: stamped.tokens.map((t) => t.base64); or pass untimestamped: true knowingly (tests, a commitment announced by other means)',
      { path: 'options.timestamps' },
    )
  }
  const prepared = await prepare()
  const call = options.signal ? { signal: options.signal } : {}
  const within = options.includeAfterWithin ?? 64
  const after = commitment.after
  const distance = commitment.target - after.sequence
  const carriesAfter = within > 0 && distance > 0 && distance <= within
  const waited = await client.waitFor(commitment.target, {
    ...call,
    // While the target is not out, each new head's chain is walked down to the lowest block the proof
    // carries: after the target appears, only the blocks published since the last poll are fetched.
    ...(carriesAfter ? { prefetchDownTo: after.sequence } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  })
  if (!waited.head.authenticated && options.allowUnauthenticated !== true) {
    throw new InvalidInputError('UNAUTHENTICATED_HEAD', 'the head was obtained without a signed IPNS record', 'use gateways that serve ?format=ipns-record, or pass allowUnauthenticated: true knowingly')
  }
  let evidence: DrandEvidence | undefined
  if (committedRound !== undefined && options.drand !== undefined) {
    // Block N is fixed now: time-stamp it before round R is public, then wait for R (never another).
    const blockTokens = await options.drand.timestamp(waited.block.cid, options.signal)
    const round = await options.drand.client.waitForRound(committedRound.round, {
      ...call,
      ...(options.drand.roundTimeoutMs === undefined ? {} : { timeoutMs: options.drand.roundTimeoutMs }),
      ...(options.drand.onWait === undefined ? {} : { onWait: options.drand.onWait }),
    })
    evidence = { round: round.round, signature: round.signature, timestamps: parseTimestamps([...blockTokens], 'drand.timestamp()') }
  }
  const base = await prove(prepared, waited.block, evidence)

  let blocks: readonly BeaconBlock[] = waited.chain
  if (carriesAfter && blocks.length + distance <= LIMITS.maxChainBlocks) {
    const below = await client.chainDown(waited.block, after.sequence, call)
    const afterBlock = below[below.length - 1]!
    if (!sameContent(afterBlock.cid, after.block)) {
      throw new MismatchError('AFTER_BLOCK_NOT_IN_CHAIN', `the beacon's block ${after.sequence} is ${afterBlock.cid}, but the commitment says ${after.block}`, 'the commitment was made against another chain (a fork or another beacon); it cannot be proven to come after its block')
    }
    blocks = [...blocks, ...below.slice(1)]
  }
  const record = waited.head.authenticated ? waited.head.record : undefined
  const proof: R = {
    ...base,
    chain: {
      ...(record === undefined ? {} : { ipnsRecord: bytesToBase64(record) }),
      blocks: blocks.map((b) => ({ cid: b.cid, bytes: bytesToBase64(b.bytes) })),
    },
    ...(timestamps === undefined ? {} : { timestamps }),
  }
  const result = await checkChain({ beacon: commitment.beacon, target: commitment.target, after, blocks, ipnsRecord: record })
  const failed = result.checks.filter((c) => !c.ok)
  if (failed.length > 0) {
    throw new IntegrityError('PROOF_CHAIN_INVALID', `the assembled chain fails ${failed.map((c) => `${c.name} (${c.detail})`).join('; ')}`, 'this is a bug or a beacon fault; do not publish this proof')
  }
  return proof
}

/**
 * Options of {@link verifyOnline}.
 * @category Verify
 */
export interface VerifyOnlineOptions {
  /** The draw kinds the proof may use (default: the built-in kinds; see `withKinds`). */
  kinds?: DrawKinds
  /** Gateways to ask (default: the client's defaults). */
  gateways?: readonly string[]
  /** A client to use instead (must read the committed beacon). */
  client?: BeaconClient
  /** Other client options (fetch, timeoutMs…). */
  clientOptions?: Omit<BeaconClientOptions, 'name' | 'gateways'>
  /** Most blocks to walk from today's head down to the proof's head (default 10 000). */
  maxWalk?: number
  /** Cancels the requests. */
  signal?: AbortSignal
  /**
   * Your offline `verify` result for this same proof, under your own policy (trust, relaxed rules).
   * When it is not `ok`, no gateway is asked. When omitted, `verifyOnline` verifies the proof offline
   * itself first, with the core's strict defaults (Orbitport's beacons, the public time-stamping
   * authorities) and `kinds`: pass your result whenever you trust anything else.
   */
  offline?: VerifyResult
}

/**
 * Result of {@link verifyOnline}.
 * @category Verify
 */
export interface VerifyOnlineResult {
  /** True when every online check passed (a check that was not run, `notChecked`, never counts as passed). */
  readonly ok: boolean
  /**
   * Whether any gateway was asked. False when the proof does not verify offline (both checks are then
   * `notChecked`, saying why), or could not be read, or no client could be made for its beacon.
   */
  readonly asked: boolean
  /** `online-blocks`: every carried block is still served; `online-chain`: they are in today's signed chain. */
  readonly checks: Check[]
  /** Remarks. */
  readonly notes: string[]
}

/**
 * Online re-check of a proof that verifies offline: every carried block is still served by the
 * gateways with the same bytes, and today's signed head descends from the proof's head (so the
 * carried blocks are still the beacon's chain at their sequences).
 *
 * It asks the network only for a proof that verifies offline: a proof anyone can forge (made-up
 * blocks, up to `maxChainBlocks`) must not cost the verifier requests. So it takes your offline
 * result (`offline`), or, without it, runs the core's `verify` itself with its strict defaults; when
 * that is not `ok`, nothing is asked, `asked` is false and both checks are `notChecked`, naming the
 * offline checks that failed (`ok` is then false: nothing was proven online). The Node entry's
 * `verify(proof, { online })` and `orbitdraw verify --online` pass their own offline result.
 * Never throws on a bad proof or an unreachable beacon: failures are checks.
 *
 * @example
 * ```ts
 * const offline = await verify(proof, { trust })
 * const online = await verifyOnline(proof, { offline, gateways: ['https://ipfs.io'] })
 * ```
 * @category Verify
 */
export async function verifyOnline(proof: unknown, options: VerifyOnlineOptions = {}): Promise<VerifyOnlineResult> {
  const checks: Check[] = []
  const notes: string[] = []
  let asked = false
  const done = (): VerifyOnlineResult => ({ ok: checks.length > 0 && checks.every((c) => c.ok && c.notChecked !== true), asked, checks, notes })
  // Offline first: the core's verify never throws on a bad proof.
  const offline = options.offline ?? (await (await import('../core/verify.js')).verify(proof, options.kinds === undefined ? {} : { kinds: options.kinds }))
  if (!offline.ok) {
    const failed = offline.checks.filter((c) => !c.ok).map((c) => c.name)
    const policy = options.offline === undefined ? " under the core's default trust (pass `offline`, your own verify result, to use yours)" : ''
    const why = `not asked: the proof does not verify offline${policy} (${failed.length === 0 ? `verdict ${offline.verdict}` : `failed: ${failed.join(', ')}`}), so no gateway was contacted`
    checks.push(notCheckedCheck('online-blocks', why), notCheckedCheck('online-chain', why))
    return done()
  }
  let parsed: Proof
  let commitment: Commitment
  let carried: BeaconBlock[]
  try {
    parsed = parseProof(proof, { kinds: options.kinds })
    commitment = parseCommitment(parsed.commitment, { kinds: options.kinds })
    carried = parsed.chain.blocks.map((b, i) => parseBlock(base64ToBytes(b.bytes, `$.chain.blocks[${i}].bytes`), b.cid))
  } catch (err) {
    checks.push(check('online-blocks', false, `the proof does not parse: ${describe(err)}`))
    return done()
  }
  // An offline result of another proof (a caller's mix-up) vouches for nothing here.
  if (!sameCid(offline.commitmentCid, parsed.commitmentCid)) {
    checks.push(check('online-blocks', false, `not asked: the offline result given is for commitment ${offline.commitmentCid ?? '(none)'}, this proof's is ${parsed.commitmentCid}`))
    return done()
  }
  const call = options.signal ? { signal: options.signal } : {}
  let client: BeaconClient
  try {
    client = options.client ?? new BeaconClient({ ...options.clientOptions, ...(options.gateways ? { gateways: options.gateways } : {}), name: commitment.beacon })
    if (client.name !== parseIpnsName(commitment.beacon).name) {
      throw new InvalidInputError('BEACON_MISMATCH', `the client reads beacon ${client.name}, the proof's commitment names ${commitment.beacon}`, 'use a client for the committed beacon')
    }
  } catch (err) {
    checks.push(check('online-blocks', false, `cannot ask the beacon: ${describe(err)}`))
    return done()
  }

  // online-blocks: a fresh fetch of each carried block (the client checks bytes against the CID). The
  // first block no gateway serves fails the check: the rest are not asked, since a proof may carry
  // maxChainBlocks made-up blocks, each a failover round of timeouts (hours before; fuzzing pass 3).
  const missing: string[] = []
  let unasked = 0
  asked = true
  for (const [i, b] of carried.entries()) {
    try {
      const got = await client.block(b.cid, call)
      if (got.bytes.length !== b.bytes.length) missing.push(`${b.cid} (different bytes)`)
    } catch (err) {
      missing.push(`${b.cid} (${describe(err)})`)
      unasked = carried.length - i - 1
      break
    }
  }
  const rest = unasked === 0 ? '' : `; the ${unasked} carried block(s) after it were not asked for`
  checks.push(check('online-blocks', missing.length === 0, missing.length === 0 ? `all ${carried.length} carried block(s) are served with the same bytes` : `not served: ${missing.join('; ')}${rest}`))

  // online-chain: today's signed head descends from the proof's head.
  const proofHead = carried[0]!
  try {
    const head = await client.latest(call)
    const distance = head.block.sequence - proofHead.sequence
    if (distance < 0) {
      checks.push(check('online-chain', false, `today's head ${head.block.sequence} is older than the proof's head ${proofHead.sequence}`))
    } else if (distance > (options.maxWalk ?? LIMITS.maxChainBlocks)) {
      checks.push(check('online-chain', false, `not checked: the proof's head is ${distance} blocks behind today's head, over maxWalk`))
    } else {
      const there = await client.bySequence(proofHead.sequence, call)
      const ok = sameContent(there.cid, proofHead.cid)
      checks.push(
        check(
          'online-chain',
          ok,
          ok
            ? `today's ${head.authenticated ? 'signed' : 'UNSIGNED'} head ${head.block.sequence} descends from the proof's head ${proofHead.sequence}`
            : `the beacon's block ${proofHead.sequence} is now ${there.cid}, not the proof's ${proofHead.cid}`,
        ),
      )
      if (!head.authenticated) notes.push("today's head was not authenticated by a signed record")
    }
  } catch (err) {
    checks.push(check('online-chain', false, `could not read today's chain: ${describe(err)}`))
  }
  return done()
}

/** Whether two CID texts name the same content (false for a missing or unreadable one). */
function sameCid(a: string | undefined, b: string): boolean {
  try {
    return a !== undefined && sameContent(a, b)
  } catch {
    return false
  }
}

function describe(err: unknown): string {
  if (err instanceof OrbitdrawError) return `${err.code}: ${err.detail}`
  return err instanceof Error ? err.message : String(err)
}
