// @ts-check
/**
 * ESLint rule `orbitdraw/core-boundary`: a module under src/core/ may import only other modules under
 * src/core/ (any depth of `../`, resolved against the importing file) and the packages in
 * CORE_PACKAGES. Everything else (an edge such as ../../beacon/client.js, node:*, an unlisted package)
 * is refused, so the core stays pure and browser-safe. Checks import/export declarations, `import()`
 * and `import type`.
 */
import path from 'node:path'

/** Packages the pure core may use (each is browser-safe and does no I/O). */
export const CORE_PACKAGES = [
  '@ipld/dag-cbor',
  '@ipld/dag-json',
  '@noble/ciphers',
  '@noble/curves',
  '@noble/hashes',
  'multiformats',
  // The declared wire-format shapes (src/core/schema): plain validator functions, no eval, no I/O.
  'valibot',
]

/** The package name of a bare specifier (`@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`). */
function packageName(spec) {
  const parts = spec.split('/')
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/** @type {import('eslint').Rule.RuleModule} */
export const coreBoundary = {
  meta: {
    type: 'problem',
    docs: { description: 'src/core/** imports only src/core/** and allow-listed packages' },
    schema: [],
    messages: {
      outside: 'the pure core must not import {{spec}}: it resolves to {{resolved}}, outside src/core (move the code into the core or pass it in from the edge)',
      package: 'the pure core must not import {{spec}}: {{pkg}} is not in the core allow-list (eslint/core-boundary.js CORE_PACKAGES)',
    },
  },
  create(context) {
    const file = context.filename
    const norm = file.split(path.sep).join('/')
    const at = norm.lastIndexOf('/src/core/')
    if (at < 0) return {}
    const coreDir = norm.slice(0, at + '/src/core/'.length)
    /** @param {import('estree').Node} node @param {unknown} value */
    const checkSource = (node, value) => {
      if (typeof value !== 'string') return
      if (value.startsWith('.') || value.startsWith('/')) {
        const resolved = path.posix.normalize(value.startsWith('/') ? value : path.posix.join(path.posix.dirname(norm), value))
        if (!resolved.startsWith(coreDir)) context.report({ node, messageId: 'outside', data: { spec: value, resolved } })
        return
      }
      const pkg = packageName(value)
      if (!CORE_PACKAGES.includes(pkg)) context.report({ node, messageId: 'package', data: { spec: value, pkg } })
    }
    return {
      ImportDeclaration: (node) => checkSource(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && checkSource(node, node.source.value),
      ExportAllDeclaration: (node) => checkSource(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && checkSource(node, node.source.value),
    }
  },
}
