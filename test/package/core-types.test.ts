// The published typings of the browser-safe subpaths (`orbitdraw/core`, `/kinds`, `/sortition`, `/formats`,
// `/beacon`, `/rest`, `/timestamp`, `/drand`, `/errors`) compile for a browser-only consumer: `lib: ES2022 + DOM`,
// no Node types, `skipLibCheck: false` (every .d.ts of the core and its dependencies is checked), under
// each supported module resolution. Compiled with the worktree's TypeScript against the built `dist`
// (npm test builds first), through a `node_modules/orbitdraw` link in a temporary directory.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
let dir: string

const CONSUMER = `
import { verify, parseProof, commit, type VerifyResult, type Proof } from 'orbitdraw/core'
import { verifyIpnsRecord, parseIpnsName, ipnsNameOfKey, waitFor, type IpnsPublicKey } from 'orbitdraw/beacon'
import { withKinds, uniformIndex, type DrawKind } from 'orbitdraw/kinds'
import { makePool } from 'orbitdraw/sortition'
import { commitmentCid, LIMITS } from 'orbitdraw/formats'
import { MemoryTokenStore } from 'orbitdraw/rest'
import { parseTrustAnchor, commitmentDigest } from 'orbitdraw/timestamp'
import { DRAND_QUICKNET } from 'orbitdraw/drand'
import { InvalidInputError } from 'orbitdraw/errors'

export const touched: unknown[] = [waitFor, withKinds, uniformIndex, makePool, commitmentCid, LIMITS, MemoryTokenStore, parseTrustAnchor, commitmentDigest, DRAND_QUICKNET, InvalidInputError]
export type Kind = DrawKind<{ kind: 'x' }, { kind: 'x' }, { kind: 'x' }>

export async function check(text: string, record: Uint8Array, cidText: string): Promise<string> {
  const proof: Proof = parseProof(text)
  const result: VerifyResult = await verify(proof)
  const key: IpnsPublicKey = { type: 'Ed25519', raw: new Uint8Array(32) }
  const rec = await verifyIpnsRecord(record, ipnsNameOfKey(key))
  const { cid } = commit({ beacon: parseIpnsName(rec.name).name, target: 10, after: { sequence: 9, block: cidText }, participants: ['a', 'b'], draw: { kind: 'pick', count: 1 } })
  return result.verdict + rec.value + cid
}
`

// A consumer that needs Node types must fail here: it proves the check would notice.
const NODE_CONSUMER = `
import { readFileSync } from 'node:fs'
export const x: string = readFileSync('x', 'utf8')
`

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'orbitdraw-types-'))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(ROOT, join(dir, 'node_modules', 'orbitdraw'), 'dir')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  writeFileSync(join(dir, 'consumer.ts'), CONSUMER)
  writeFileSync(join(dir, 'node-consumer.ts'), NODE_CONSUMER)
})

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

function compile(file: string, options: ts.CompilerOptions): { errors: string[]; nodeTypes: string[] } {
  const program = ts.createProgram([join(dir, file)], {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    target: ts.ScriptTarget.ES2022,
    ...options,
  })
  const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
  const nodeTypes = program.getSourceFiles().map((f) => f.fileName).filter((f) => f.includes('/@types/node/'))
  return { errors, nodeTypes }
}

const RESOLUTIONS: [string, ts.CompilerOptions][] = [
  ['nodenext', { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }],
  ['node16', { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }],
  ['bundler', { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }],
]

describe('the browser-safe subpaths\' typings need no Node types', () => {
  it.each(RESOLUTIONS)('moduleResolution %s: a browser consumer compiles with skipLibCheck false, and no @types/node file is loaded', { timeout: 180_000 }, (_, options) => {
    const r = compile('consumer.ts', options)
    expect(r.errors).toEqual([])
    expect(r.nodeTypes).toEqual([])
  })

  it('the check notices a consumer that does need Node types', { timeout: 180_000 }, () => {
    const r = compile('node-consumer.ts', RESOLUTIONS[0]![1])
    expect(r.errors.join('\n')).toMatch(/node:fs/)
  })
})
