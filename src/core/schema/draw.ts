/**
 * The draw-kind-specific parts of the wire formats (the commitment's `draw`, the proof's `outcome`),
 * taken from the draw-kind registry (src/core/kinds): each kind may carry a declared `drawShape` and
 * `outcomeShape`; a kind without one is published as "an object whose `kind` is its name". This
 * module holds no list of kinds. Runtime parsing never runs these unions: the parsers call the
 * kind's own `parse` / `parseOutcome` (docs/draw-kinds.md); `npm run schema` publishes them.
 *
 * @module
 */
import * as v from 'valibot'
import { show } from '../json.js'
import type { AnyDrawKind, DrawKinds } from '../kinds/kind.js'
import { variant, type Shape } from './kit.js'

type KindOption = v.VariantOptions<'kind'>[number]

function options(kinds: DrawKinds, pick: (k: AnyDrawKind) => v.GenericSchema | undefined): KindOption[] {
  return kinds.list.map((k) => (pick(k) ?? v.looseObject({ kind: v.literal(k.name) })) as unknown as KindOption)
}

function names(kinds: DrawKinds): string {
  const n = kinds.names
  return `${n.slice(0, -1).join(', ')}${n.length > 1 ? ' or ' : ''}${n.at(-1) ?? ''}`
}

/** The commitment's `draw`: a union on `kind` of the registry's kinds' `drawShape`. */
export function drawShapeOf(kinds: DrawKinds): Shape {
  return variant('kind', options(kinds, (k) => k.drawShape), (kind) => `unknown draw kind ${show(kind)}`, `use one of ${kinds.names.join(', ')}`)
}

/** The proof's `outcome`: a union on `kind` of the registry's kinds' `outcomeShape`. */
export function outcomeShapeOf(kinds: DrawKinds): Shape {
  return variant('kind', options(kinds, (k) => k.outcomeShape), (kind) => `unknown outcome kind ${show(kind)}`, `use ${names(kinds)}`)
}
