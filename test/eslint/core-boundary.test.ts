/**
 * The ESLint rule that keeps the core pure (eslint/core-boundary.js), run through the project's real
 * eslint.config.js on fixture strings: imports are resolved, so an edge reached by several `../` fails.
 */
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const eslint = new ESLint({ cwd: root })

async function boundaryMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.filter((m) => m.ruleId === 'orbitdraw/core-boundary').map((m) => m.message)
}

describe('eslint core-boundary', () => {
  it('refuses an edge import more than one folder up (the case the old pattern rule missed)', async () => {
    const msgs = await boundaryMessages("import { BeaconClient } from '../../beacon/client.js'\nexport const x = BeaconClient\n", 'src/core/random/x.ts')
    expect(msgs).toHaveLength(1)
    expect(msgs[0]).toContain('../../beacon/client.js')
    expect(msgs[0]).toContain('outside src/core')
  })

  it('refuses re-exports, type imports and dynamic imports that leave the core', async () => {
    const code = [
      "export { x } from '../../cli/main.js'",
      "export * from '../../rest/index.js'",
      "import type { Flags } from '../../../src/cli/command.js'",
      "export const load = () => import('../../emulator/index.js')",
      'export type F = Flags',
    ].join('\n')
    expect(await boundaryMessages(code, 'src/core/timestamp/x.ts')).toHaveLength(4)
  })

  it('refuses node: modules and packages outside the allow-list', async () => {
    const code = "import { readFile } from 'node:fs/promises'\nimport { HDKey } from '@scure/bip32'\nexport const y = [readFile, HDKey]\n"
    const msgs = await boundaryMessages(code, 'src/core/x.ts')
    expect(msgs).toHaveLength(2)
    expect(msgs[1]).toContain('@scure/bip32')
  })

  it('accepts core modules at any depth and allow-listed packages (subpaths included)', async () => {
    const code = [
      "import { LIMITS } from '../../limits.js'",
      "import { check } from '../check.js'",
      "import { sha256 } from '@noble/hashes/sha2.js'",
      "import { CID } from 'multiformats/cid'",
      'export const z = [LIMITS, check, sha256, CID]',
    ].join('\n')
    expect(await boundaryMessages(code, 'src/core/kinds/sub/x.ts')).toEqual([])
  })

  it('does not apply outside src/core', async () => {
    expect(await boundaryMessages("import { x } from '../../beacon/client.js'\nexport const w = x\n", 'src/cli/commands/x.ts')).toEqual([])
  })
})
