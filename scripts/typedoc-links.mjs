// @ts-check
/**
 * A TypeDoc plugin (typedoc.json `plugin`): a `{@link Name}` in one subpath's comment resolves to `Name`
 * documented in another subpath. TypeScript resolves most links by symbol, but not a link inside
 * `@throws {…}` (parsed as a type) nor a name the commenting file does not import; TypeDoc then looks
 * the name up from the comment's own module only, and since the library is split into subpaths by task
 * (docs/architecture.md, "Public surface"), `{@link InvalidInputError}` in `orbitdraw/kinds` would not
 * find the class documented in `orbitdraw/errors`. This resolver finds the one exported declaration of
 * that name across the entries (each name is exported by one subpath only, besides the root's re-export
 * of `orbitdraw/core`), then any `.member` path under it. A name found nowhere, or declared twice, stays
 * unresolved, and TypeDoc still warns (the build treats warnings as errors).
 */
import { ReflectionKind } from 'typedoc'

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.addUnknownSymbolResolver((ref, refl) => {
    if (ref.moduleSource !== undefined) return undefined
    const path = ref.symbolReference?.path
    if (path === undefined || path.length === 0) return undefined
    const project = refl.project
    /** @type {import('typedoc').Reflection[]} */
    const found = []
    for (const mod of project.children ?? []) {
      const child = mod.getChildByName(path[0].path)
      if (child !== undefined && !child.kindOf(ReflectionKind.Reference)) found.push(child)
    }
    if (found.length !== 1) return undefined
    /** @type {import('typedoc').Reflection | undefined} */
    let target = found[0]
    for (const part of path.slice(1)) {
      target = target?.kindOf(ReflectionKind.SomeModule | ReflectionKind.ClassOrInterface | ReflectionKind.Enum | ReflectionKind.Namespace) ? /** @type {import('typedoc').ContainerReflection} */ (target).getChildByName(part.path) : undefined
    }
    if (target === undefined) return undefined
    // TypeDoc takes a reflection as a link target (the same as its own resolution produces).
    return /** @type {import('typedoc').ExternalResolveResult} */ (/** @type {unknown} */ ({ target }))
  })
}
