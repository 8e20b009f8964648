/**
 * The link rule of a `panel-replacement` (check `follow-up-link`, docs/spec.md, Panel replacements):
 * the original is a `panel` of the same composition and household rule, the dropped were its members,
 * the kept are the rest, and each kept member's entry is the one the original proof shows. (That both
 * are over the same committed participants is checked for every follow-up: `follow-up-verify.ts`.)
 *
 * @module
 */
import type { Commitment } from '../commitment.js'
import type { Proof } from '../proof.js'
import type { RankedJson } from './kind.js'
import type { PanelOutcomeJson, PanelSpec } from './panel.js'
import type { PanelReplacementOutcomeJson, PanelReplacementSpec } from './panel-replacement.js'

/** The first problem of the link between a replacement and its original, or undefined. */
export function panelReplacementLink(spec: PanelReplacementSpec, follow: { commitment: Commitment; proof: Proof }, original: { commitment: Commitment; proof: Proof }): string | undefined {
  const o = original.commitment.draw as PanelSpec
  if (o.kind !== 'panel') return `the original draw is a ${String(o.kind)}, not a panel`
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)
  if (spec.k !== o.k || !same(spec.features, o.features) || !same(spec.types, o.types)) return 'the panel size, features, quotas or per-type counts differ from the original\'s'
  if (!same(spec.households ?? null, o.households ?? null)) return 'the household rule differs from the original\'s'
  const members = (original.proof.outcome as PanelOutcomeJson).members
  const indices = members.map((m) => m.index)
  const dropped = spec.follows.dropped.filter((i) => !indices.includes(i))
  if (dropped.length > 0) return `dropped participant(s) ${dropped.join(', ')} were not members of the original panel`
  const keep = indices.filter((i) => !spec.follows.dropped.includes(i))
  if (!same(keep, spec.keep)) return `the kept members are not the original members but the dropped (${keep.length} expected, ${spec.keep.length} committed)`
  // The kept members' entries, as both proofs reveal them, are the same people.
  const now = new Map((follow.proof.outcome as PanelReplacementOutcomeJson).members.map((m: RankedJson) => [m.index, m.entry]))
  const moved = members.find((m) => now.has(m.index) && now.get(m.index) !== m.entry)
  if (moved !== undefined) return `kept member ${moved.index} is ${JSON.stringify(moved.entry)} in the original proof but ${JSON.stringify(now.get(moved.index))} here`
  return undefined
}
