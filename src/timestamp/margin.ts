/**
 * The time-stamp's margin before the target block, checked when committing.
 *
 * `verify` accepts a token only when its genTime plus its stated accuracy is strictly before the target
 * block's `timestamp` (docs/spec.md, Commitment time). When committing, that block does not exist yet:
 * its time is only expected. With a fast beacon (the emulator's 1 s blocks) and an authority that states
 * 1 s of accuracy, a target one or two blocks ahead is often dated no later than the token's genTime +
 * accuracy, and the proof drawn from it fails `commitment-time` (`TIMESTAMP_LATE`). So a commitment is
 * kept only when its tokens leave the target's earliest expected time; otherwise the target is moved
 * later and the new commitment stamped again (nothing has been published yet), or, for a target the
 * caller fixed, refused.
 *
 * @module
 */
import { OrbitdrawError } from '../core/errors.js'
import type { TimestampAuthorityFailure } from './errors.js'
import type { KeptTimestamp, TimestampResult } from './client.js'

/**
 * A planned target, as far as the margin rule needs it.
 * @category Time-stamping
 */
export interface MarginTarget {
  /** The target sequence. */
  readonly target: number
  /** When the target is expected (the planner's estimate, which already holds one block of margin). */
  readonly estimatedTime: Date
  /** The beacon's publication interval, seconds. */
  readonly intervalSeconds: number
}

/**
 * The earliest `timestamp` (unix ms) the target block is counted on to carry: its expected time less one
 * publication interval (a block may come that much early) and less one second (block timestamps are
 * whole seconds, rounded down).
 * @category Time-stamping
 */
export function earliestTargetTimeMs(target: MarginTarget): number {
  return target.estimatedTime.getTime() - target.intervalSeconds * 1000 - 1000
}

/**
 * How many milliseconds a token leaves before the target's earliest expected timestamp
 * ({@link earliestTargetTimeMs}): that time less (genTime + accuracy). A token is kept only when this is
 * at least 0; then its genTime + accuracy is strictly before any timestamp the target block can carry
 * (when the block comes no more than one interval early), which is what `verify` requires.
 * @category Time-stamping
 */
export function timestampMarginMs(token: Pick<KeptTimestamp, 'time' | 'accuracySeconds'>, target: MarginTarget): number {
  return earliestTargetTimeMs(target) - (Date.parse(token.time) + token.accuracySeconds * 1000)
}

/**
 * The time-stamps did not leave the target block enough time (`TIMESTAMP_MARGIN_TOO_SMALL`): the proof
 * would fail `commitment-time` (`TIMESTAMP_LATE`). Thrown for a target the caller fixed, or when moving
 * the target later did not help within the attempts allowed.
 * @category Errors
 */
export class TimestampMarginError extends OrbitdrawError<'TIMESTAMP_MARGIN_TOO_SMALL'> {
  static {
    Object.defineProperty(this, 'name', { value: 'TimestampMarginError' })
  }

  constructor(
    /** The target that was left too little time. */
    readonly target: number,
    /** The best token's margin, ms (negative). */
    readonly marginMs: number,
    detail: string,
    hint: string,
  ) {
    super('TIMESTAMP_MARGIN_TOO_SMALL', detail, hint)
  }
}

/**
 * One move of the target when the time-stamps came too late for it (`commitTimestamped`, `orbitdraw commit`).
 * @category Time-stamping
 */
export interface Retarget {
  /** The target whose time-stamps came too late. */
  readonly from: number
  /** The later target committed and stamped again. */
  readonly to: number
  /** How far the best token missed the first target's earliest expected time, ms (positive). */
  readonly shortMs: number
}

/**
 * Input of {@link stampBeforeTarget}.
 * @category Time-stamping
 */
export interface StampBeforeTargetInput<P extends MarginTarget, R extends { readonly cid: string }> {
  /** Plans a target at least `extraDelayMs` later than the caller's own delay asks (0 on the first call). */
  plan(extraDelayMs: number): Promise<P>
  /** Builds the commitment for a plan. */
  build(plan: P): R | Promise<R>
  /** Time-stamps a commitment CID (`timestampCommitment`). */
  stamp(cid: string): Promise<TimestampResult>
  /** True when the caller fixed the target: a short margin is refused, never moved. */
  readonly fixedTarget: boolean
  /** Commitments tried at most (default 3). */
  readonly maxAttempts?: number
  /** Clock, unix ms (default `Date.now`): measures how long stamping takes. */
  readonly now?: () => number
}

/**
 * What {@link stampBeforeTarget} kept.
 * @category Time-stamping
 */
export interface StampedBeforeTarget<P, R> {
  readonly plan: P
  readonly result: R
  /** The tokens that leave the margin (at least one); those that did not are in `failures` as `TIMESTAMP_LATE`. */
  readonly stamped: TimestampResult
  /** The targets given up, in order (empty when the first one had its margin). */
  readonly retargeted: readonly Retarget[]
}

/**
 * Plans, commits and time-stamps until the tokens leave the target its margin ({@link timestampMarginMs}
 * at least 0 for one token or more). Moving the target is safe: nothing has been published, and the
 * target block is still in the future; but the commitment (its CID) changes, so it is stamped again.
 *
 * @throws {@link TimestampMarginError} for a fixed target whose tokens come too late, or when
 *   `maxAttempts` commitments all did; the `plan`, `build` and `stamp` errors.
 * @category Time-stamping
 */
export async function stampBeforeTarget<P extends MarginTarget, R extends { readonly cid: string }>(input: StampBeforeTargetInput<P, R>): Promise<StampedBeforeTarget<P, R>> {
  const now = input.now ?? Date.now
  const maxAttempts = input.maxAttempts ?? 3
  const retargeted: Retarget[] = []
  let extra = 0
  let missed: { from: number; shortMs: number } | undefined
  for (let attempt = 1; ; attempt++) {
    const plan = await input.plan(extra)
    if (missed !== undefined) retargeted.push({ from: missed.from, to: plan.target, shortMs: missed.shortMs })
    const result = await input.build(plan)
    const started = now()
    const stamped = await input.stamp(result.cid)
    const took = Math.max(0, now() - started)
    const margins = stamped.tokens.map((t) => timestampMarginMs(t, plan))
    const kept = stamped.tokens.filter((_, i) => margins[i]! >= 0)
    if (kept.length > 0) {
      const late: TimestampAuthorityFailure[] = stamped.tokens.flatMap((t, i) =>
        margins[i]! >= 0 ? [] : [{ authority: t.authority, code: 'TIMESTAMP_LATE' as const, detail: `genTime ${t.time} + accuracy ${t.accuracySeconds} s leaves block ${plan.target} no margin (${-margins[i]!} ms short)` }],
      )
      return { plan, result, stamped: { tokens: kept, failures: [...stamped.failures, ...late] }, retargeted }
    }
    const best = Math.max(...margins)
    const token = stamped.tokens[margins.indexOf(best)]!
    const why = `the time-stamp (genTime ${token.time} + accuracy ${token.accuracySeconds} s, by ${token.authorityName}) is not before block ${plan.target}'s earliest expected time ${new Date(earliestTargetTimeMs(plan)).toISOString()} (expected ${plan.estimatedTime.toISOString()}, less one ${plan.intervalSeconds} s interval and 1 s of timestamp rounding): a proof would fail commitment-time (TIMESTAMP_LATE)`
    if (input.fixedTarget) throw new TimestampMarginError(plan.target, best, why, `choose a target at least ${Math.ceil((-best + 1000) / 1000)} s later (a later sequence, or a delay instead of a sequence), or an authority with a finer accuracy`)
    if (attempt >= maxAttempts) throw new TimestampMarginError(plan.target, best, `${why}; ${attempt} commitments were tried`, 'commit with a longer delay, or use an authority with a finer accuracy')
    // Next target: the shortfall, plus what stamping took (the next genTime is that much later), plus one interval.
    extra += -best + took + plan.intervalSeconds * 1000
    missed = { from: plan.target, shortMs: -best }
  }
}
