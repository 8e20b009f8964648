/**
 * A registry of draw kinds whose kinds are made the first time they are asked for: each entry is a
 * kind's name and a synchronous `load` that returns the kind. `get(name)` loads that kind only; `list`
 * loads them all. The CLI's verify bundle holds the built-in kinds in one (scripts/build-cli.ts makes it
 * from the registry), so that a strict `verify` of a `pick` proof runs the `pick` kind's module and not
 * the sortition engine or the allocation kinds (docs/performance.md, Start-up; docs/architecture.md,
 * "Draw kinds").
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { drawKinds, type AnyDrawKind, type DrawKinds } from './kind.js'

/**
 * A kind of a {@link lazyDrawKinds} registry, before it is loaded: its name and how to make it.
 * @category Draw kinds
 */
export interface LazyDrawKind {
  /** The kind's name (`draw.kind`): the kind `load` returns must have it. */
  readonly name: string
  /** Returns the kind (called once, the first time the kind is asked for). */
  load(): AnyDrawKind
}

/**
 * A registry whose kinds are loaded on first use, in the order given. A loaded kind is checked as
 * {@link drawKinds} checks a kind, and must bear its entry's name.
 *
 * @throws {@link InvalidInputError} `DUPLICATE_DRAW_KIND` when two entries share a name;
 *   `INVALID_DRAW_KIND` (from `get` or `list`) when a loaded kind is not valid or has another name.
 * @category Draw kinds
 */
export function lazyDrawKinds(entries: readonly LazyDrawKind[]): DrawKinds {
  const byName = new Map<string, LazyDrawKind>()
  for (const e of entries) {
    if (byName.has(e.name)) throw new InvalidInputError('DUPLICATE_DRAW_KIND', `two draw kinds are named ${JSON.stringify(e.name)}`, 'give each kind its own name', { path: '$.kinds' })
    byName.set(e.name, e)
  }
  const loaded = new Map<string, AnyDrawKind>()
  const load = (e: LazyDrawKind): AnyDrawKind => {
    let kind = loaded.get(e.name)
    if (kind === undefined) {
      kind = drawKinds([e.load()]).list[0]!
      if (kind.name !== e.name) throw new InvalidInputError('INVALID_DRAW_KIND', `the kind loaded for ${JSON.stringify(e.name)} is named ${JSON.stringify(kind.name)}`, 'load the kind the entry names', { path: '$.kinds' })
      loaded.set(e.name, kind)
    }
    return kind
  }
  let list: readonly AnyDrawKind[] | undefined
  return Object.freeze({
    names: Object.freeze(entries.map((e) => e.name)),
    get list() {
      return (list ??= Object.freeze(entries.map(load)))
    },
    get: (name: unknown) => {
      const e = typeof name === 'string' ? byName.get(name) : undefined
      return e === undefined ? undefined : load(e)
    },
  })
}
