/**
 * `sharedImports` (scripts/build-cli-kinds.ts): the names the kinds file takes from each module of the
 * verify file, read from esbuild's ES module output of the kinds file. A name it missed would be
 * undefined in the kinds file at run time, so every form esbuild writes is read, and any other reference
 * to a shared module stops the build. (test/cli/bundle.test.ts checks the files built with it.)
 */
import { describe, expect, it } from 'vitest'
import { sharedImports } from '../../scripts/build-cli-kinds.js'

const asObject = (m: Map<string, Set<string>>): Record<string, string[]> => Object.fromEntries([...m].map(([k, v]) => [k, [...v].sort()]))

describe('sharedImports', () => {
  it('reads named imports (with and without `as`, on one line or several), default and namespace imports', () => {
    const esm = [
      'import { InvalidInputError } from "shared:dist/core/errors.js";',
      'import { LimitExceededError as LimitExceededError2, OrbitdrawError } from "shared:dist/core/errors.js";',
      'import {\n  defineKind,\n  builtSpec as builtSpec3\n} from "shared:dist/core/kinds/define.js";',
      'import kit, { integer } from "shared:dist/core/schema/kit.js";',
      'import * as v from "shared:node_modules/valibot/dist/index.mjs";',
      'import { panel } from "./panel.js";',
      'const x = InvalidInputError;',
    ].join('\n')
    expect(asObject(sharedImports(esm))).toEqual({
      'dist/core/errors.js': ['InvalidInputError', 'LimitExceededError', 'OrbitdrawError'],
      'dist/core/kinds/define.js': ['builtSpec', 'defineKind'],
      'dist/core/schema/kit.js': ['default', 'integer'],
      'node_modules/valibot/dist/index.mjs': ['*'],
    })
  })

  it('takes a whole module for a dynamic import or a require, and nothing for an import for its effects', () => {
    const esm = 'import "shared:dist/core/a.js";\nconst b = await import("shared:dist/core/b.js");\nconst c = require("shared:dist/core/c.js");\n'
    expect(asObject(sharedImports(esm))).toEqual({ 'dist/core/a.js': [], 'dist/core/b.js': ['*'], 'dist/core/c.js': ['*'] })
  })

  it('stops the build on any other reference to a shared module (a re-export, a string)', () => {
    expect(() => sharedImports('export { a } from "shared:dist/core/a.js";')).toThrow(/does not read/)
    expect(() => sharedImports('import { a } from "shared:dist/core/a.js";\nconst s = "shared:dist/core/b.js";')).toThrow(/2 references, 1 read/)
  })

  it('reads nothing from a file without shared modules', () => {
    expect(sharedImports('import { x } from "./x.js";\nexport { x };\n').size).toBe(0)
  })
})
