/**
 * Draw specs: what a draw decides. The kinds themselves live in `src/core/kinds/` (one module each,
 * listed in the registry `src/core/kinds/index.ts`); this module validates a spec against a registry.
 *
 * @module
 */
import { InvalidInputError } from './errors.js'
import { show } from './json.js'
import { DEFAULT_DRAW_KINDS } from './kinds/registry.js'
import { type AnyDrawKind, type DrawKinds, type DrawSpecBase } from './kinds/kind.js'

export type { DrawSpec } from './kinds/registry.js'

/**
 * The names of the built-in draw kinds.
 * @category Draw kinds
 */
export const DRAW_KINDS: readonly string[] = DEFAULT_DRAW_KINDS.names

/**
 * True when the draw kind takes a participants list (an unknown kind is assumed to; validation refuses it later).
 * @category Draw kinds
 */
export function usesParticipants(spec: DrawSpecBase, kinds: DrawKinds = DEFAULT_DRAW_KINDS): boolean {
  return kinds.get(spec?.kind)?.participants !== 'none'
}

/**
 * The kind of a spec in `kinds`.
 * @throws {@link InvalidInputError} `INVALID_DRAW` when the spec is not an object or its kind is unknown.
 * @category Draw kinds
 */
export function kindOf(spec: unknown, kinds: DrawKinds = DEFAULT_DRAW_KINDS, path = '$.draw'): AnyDrawKind {
  if (typeof spec !== 'object' || spec === null) throw new InvalidInputError('INVALID_DRAW', 'draw must be an object', 'pass { kind: "pick", count: 3 } or another draw kind', { path })
  const kind = kinds.get((spec as { kind?: unknown }).kind)
  if (kind === undefined) throw new InvalidInputError('INVALID_DRAW', `unknown draw kind ${show((spec as { kind?: unknown }).kind)}`, `use one of ${kinds.names.join(', ')}`, { path: `${path}.kind` })
  return kind
}

/**
 * Validates a draw spec against the number of participants (ignored by kinds without participants).
 * @throws {@link InvalidInputError} `INVALID_DRAW` naming the bad parameter.
 * @category Draw kinds
 */
export function validateDrawSpec(spec: DrawSpecBase, participantCount: number, path = '$.draw', kinds: DrawKinds = DEFAULT_DRAW_KINDS): void {
  kindOf(spec, kinds, path).validate(spec, participantCount, path)
}
