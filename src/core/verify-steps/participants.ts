/**
 * The participants: `participants` (the carried section against the committed root and count) and,
 * for a winners-only proof, `distinct-winners` (src/core/verify-participants.ts). Returns how to name
 * an entry by its committed index, for the outcome.
 *
 * @module
 */
import type { Check } from '../check.js'
import { checkParticipants } from '../verify-participants.js'
import type { EntryOf } from './draw.js'
import type { Evidence } from './read.js'
import type { Policy, StepResult } from './step.js'

/** `participants` and `distinct-winners`; never stops verification (the outcome step reports what it could not name). */
export async function checkParticipantsStep({ proof, commitment }: Evidence, policy: Pick<Policy, 'kinds' | 'participantsDigest'>): Promise<StepResult<{ readonly entry: EntryOf }>> {
  const checks: Check[] = []
  const entry = await checkParticipants(commitment, proof, checks, policy.kinds, policy.participantsDigest)
  return { checks, next: { entry } }
}
