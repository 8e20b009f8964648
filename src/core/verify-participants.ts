/**
 * The participants checks of `verify`: `participants` (the proof's participants section against the
 * committed root and count: every entry, with its salt for a salted list; or each revealed winner's
 * salted leaf and inclusion proof for a private one), `distinct-winners` and `revealed-winners`.
 *
 * @module
 */
import { bytesToHex, hexToBytes } from './bytes.js'
import { check, type Check } from './check.js'
import { underPath, type Commitment } from './commitment.js'
import { kindOf } from './draw-spec.js'
import type { DrawKinds } from './kinds/kind.js'
import { verifyInclusion } from './merkle.js'
import { encodeSaltedLeaf, participantsRoot, validateEntries, type ParticipantsDigest, type WeightedEntry } from './participants.js'
import type { Proof, RevealedEntry } from './proof.js'

export type { ParticipantsDigest } from './participants.js'

/**
 * Checks the participants section (check `participants`) and, for a winners-only proof, that no entry
 * is revealed twice (check `distinct-winners`); returns the entry lookup used to name winners, or
 * undefined.
 */
export async function checkParticipants(commitment: Commitment, proof: Proof, checks: Check[], kinds: DrawKinds, digest: ParticipantsDigest = participantsRoot): Promise<((i: number) => string | undefined) | undefined> {
  const lookup = await checkSection(commitment, proof, checks, kinds, digest)
  if (proof.participants?.disclosure === 'winners') checkDistinctWinners(proof.participants.revealed, checks)
  return lookup
}

async function checkSection(commitment: Commitment, proof: Proof, checks: Check[], kinds: DrawKinds, digest: ParticipantsDigest): Promise<((i: number) => string | undefined) | undefined> {
  const p = proof.participants
  const kind = kindOf(commitment.draw, kinds)
  if (kind.participants === 'none') {
    checks.push(check('participants', p === undefined, p === undefined ? `a ${kind.name} draw has no participants` : `a ${kind.name} draw must not carry participants`))
    return undefined
  }
  const committed = commitment.participants!
  const salted = committed.salted === true
  if (p === undefined) {
    checks.push(check('participants', false, 'the proof carries no participants section'))
    return undefined
  }
  try {
    if (p.disclosure === 'full') {
      const weighted = kind.participants === 'weighted'
      const list = p.entries as readonly (string | WeightedEntry)[]
      if (list.some((e) => (typeof e === 'string') === weighted)) {
        checks.push(check('participants', false, weighted ? 'a weighted draw needs { entry, weight } entries' : 'entries must be strings'))
        return undefined
      }
      if (salted !== (p.salts !== undefined)) {
        checks.push(check('participants', false, salted ? 'the committed list is salted: a full disclosure must carry every entry\'s salt (salts)' : 'the committed list is not salted: a full disclosure must not carry salts'))
        return undefined
      }
      if (p.salts !== undefined && p.salts.length !== list.length) {
        checks.push(check('participants', false, `${p.salts.length} salts carried for ${list.length} entries`))
        return undefined
      }
      const salts = p.salts?.map((h) => hexToBytes(h))
      // participantsRoot validates every entry (rules, limits, duplicates) before hashing.
      let rootBytes: Uint8Array
      try {
        rootBytes = await digest(list as string[] | WeightedEntry[], { salts })
      } catch (err) {
        underPath('$.participants.entries', () => {
          throw err
        })
        throw err
      }
      const root = bytesToHex(rootBytes)
      const ok = list.length === committed.count && root === committed.root
      const problem = ok ? kind.checkEntries?.(commitment.draw, list.map((e, index) => ({ index, entry: typeof e === 'string' ? e : e.entry })), true) : undefined
      checks.push(
        check(
          'participants',
          ok && problem === undefined,
          problem !== undefined ? `the entries do not fit the ${kind.name} draw: ${problem}` : ok ? `${list.length} ${salted ? 'salted ' : ''}entries hash to the committed root ${root}` : list.length !== committed.count ? `${list.length} entries carried, ${committed.count} committed` : `the entries hash to ${root}, not the committed ${committed.root}`,
        ),
      )
      return (i) => {
        const e = list[i]
        return e === undefined ? undefined : typeof e === 'string' ? e : e.entry
      }
    }
    if (kind.winnersOnly === undefined) {
      checks.push(check('participants', false, `a ${commitment.draw.kind} draw must disclose all entries`))
      return undefined
    }
    if (!salted) {
      checks.push(check('participants', false, 'a winners-only proof needs a salted list, and this commitment does not salt its leaves: its inclusion paths would let anyone test guesses of the other entries'))
      return undefined
    }
    const root = hexToBytes(committed.root)
    const failures: string[] = []
    for (const [i, r] of p.revealed.entries()) {
      validateEntries([r.entry])
      const leafData = encodeSaltedLeaf(hexToBytes(r.salt), r.entry)
      const ok = r.index < committed.count && verifyInclusion({ root, size: committed.count, index: r.index, leafData, path: r.path.map((h) => hexToBytes(h)) })
      if (!ok) failures.push(`revealed[${i}] (${JSON.stringify(r.entry)} at index ${r.index}) is not proven to be in the committed list`)
    }
    const problem = failures.length === 0 ? kind.checkEntries?.(commitment.draw, p.revealed, false) : undefined
    if (problem !== undefined) failures.push(`the revealed entries do not fit the ${kind.name} draw: ${problem}`)
    checks.push(check('participants', failures.length === 0, failures.length === 0 ? `${p.revealed.length} revealed winner(s) proven in the committed salted list of ${committed.count}` : failures.join('; ')))
    const byIndex = new Map(p.revealed.map((r) => [r.index, r.entry]))
    return (i) => byIndex.get(i)
  } catch (err) {
    checks.push(check('participants', false, err instanceof Error ? err.message : String(err)))
    return undefined
  }
}

/**
 * Check `distinct-winners`: a winners-only proof reveals each index once and each entry text once. The
 * verifier cannot see the hidden list, so an organizer who committed one person at two indices (to
 * double their chance) is caught whenever both copies win.
 */
function checkDistinctWinners(revealed: readonly RevealedEntry[], checks: Check[]): void {
  const byIndex = new Map<number, number>()
  const byEntry = new Map<string, number>()
  const problems: string[] = []
  revealed.forEach((r, i) => {
    const a = byIndex.get(r.index)
    if (a !== undefined) problems.push(`revealed[${i}] repeats index ${r.index} of revealed[${a}]`)
    else byIndex.set(r.index, i)
    const b = byEntry.get(r.entry)
    if (b !== undefined && revealed[b]!.index !== r.index) problems.push(`revealed[${i}] (index ${r.index}) and revealed[${b}] (index ${revealed[b]!.index}) are the same entry ${JSON.stringify(r.entry)}: the committed list holds it twice`)
    else if (b === undefined) byEntry.set(r.entry, i)
  })
  checks.push(check('distinct-winners', problems.length === 0, problems.length === 0 ? `the ${revealed.length} revealed winner(s) are distinct (indices and entries)` : problems.join('; ')))
}

/**
 * Check `revealed-winners` (winners-only proofs): the revealed entries are exactly the recomputed
 * winners (`winners`: their indices in rank order, from the kind's `winnersOnly.winners`), in rank order.
 */
export function checkRevealedWinners(proof: Proof, winners: readonly number[] | undefined, checks: Check[]): void {
  if (proof.participants?.disclosure !== 'winners' || winners === undefined) return
  const rev = proof.participants.revealed
  const same = rev.length === winners.length && rev.every((r, i) => r.index === winners[i])
  checks.push(check('revealed-winners', same, same ? `the revealed entries are the ${rev.length} winner(s) in rank order` : `the revealed entries (indices ${rev.map((r) => r.index).join(', ')}) are not exactly the winners in rank order (indices ${winners.join(', ')})`))
}
