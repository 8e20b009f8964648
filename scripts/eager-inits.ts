/**
 * A post-build step of the CommonJS command (`scripts/build-cli.ts`): each module's init function in
 * esbuild's output, `__esm({ "dist/x.js"() { ... } })`, becomes a parenthesized function expression,
 * `__esm({ "dist/x.js": (function () { ... }) })`. Nothing else changes: esbuild calls the init as
 * `(0, fn[key])()`, so `this` is undefined either way, and a module's top-level code holds no `super`.
 *
 * Why: V8 compiles a function lazily, pre-parsing it when the file is compiled and parsing it again when
 * it is first called; a parenthesized function expression is its hint that the function will run soon.
 * A module's init runs the module's top-level code once, and a strict `verify` runs about 150 of them:
 * measured in interleaved rounds (docs/performance.md, Start-up), the rewritten file starts a strict
 * verify 13 to 15 ms sooner (2.25x -> 2.08x `node -e 0` in 41 rounds), `--help` no slower, and the
 * file compiles in the same time.
 *
 * The rewrite uses `acorn`'s syntax tree, not a text pattern: the end of each init is found by the
 * parser. It throws when the output has no `__esm` init at all (esbuild changed its helper: the step
 * would silently do nothing).
 *
 * @module
 */
import { parse, type Node } from 'acorn'

/** What {@link eagerModuleInits} returns. */
export interface EagerInits {
  /** The rewritten file. */
  readonly code: string
  /** How many module inits were rewritten. */
  readonly rewritten: number
  /**
   * How many `import()` expressions the file holds. The launcher compiles the file with `node:vm`
   * (`src/cli/launcher/compile-cache.ts`), where an `import()` throws: the build refuses any.
   */
  readonly dynamicImports: number
}

interface Property extends Node {
  readonly method: boolean
  readonly key: Node & { readonly value?: unknown }
  readonly value: Node
}

/** Rewrites every `__esm` module init of esbuild's CommonJS output `code` as a parenthesized function. */
export function eagerModuleInits(code: string): EagerInits {
  const hashbang = code.startsWith('#!') ? code.slice(0, code.indexOf('\n') + 1) : ''
  const body = code.slice(hashbang.length)
  const inserts: [number, string][] = []
  let dynamicImports = 0
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (typeof node !== 'object' || node === null || typeof (node as Node).type !== 'string') return
    const n = node as Node & Record<string, unknown>
    if (n.type === 'ImportExpression') dynamicImports++
    if (n.type === 'CallExpression') {
      const callee = n.callee as Node & { name?: string }
      const [arg] = n.arguments as (Node & { properties?: Property[] })[]
      if (callee.type === 'Identifier' && callee.name === '__esm' && arg?.type === 'ObjectExpression') {
        for (const p of arg.properties ?? []) {
          if (p.method && typeof p.key.value === 'string') {
            // "key"(){...}  ->  "key":(function(){...})
            inserts.push([p.value.start, ':(function'], [p.end, ')'])
          }
        }
      }
    }
    for (const [k, v] of Object.entries(n)) if (k !== 'type' && typeof v === 'object') visit(v)
  }
  visit(parse(body, { ecmaVersion: 'latest', sourceType: 'script' }))
  if (inserts.length === 0) throw new Error('eagerModuleInits: no esbuild __esm module init found in the bundle')
  inserts.sort((a, b) => b[0] - a[0])
  let out = body
  for (const [at, text] of inserts) out = out.slice(0, at) + text + out.slice(at)
  return { code: hashbang + out, rewritten: inserts.length / 2, dynamicImports }
}
