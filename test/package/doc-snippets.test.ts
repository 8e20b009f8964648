/**
 * The library snippets of README.md, docs/getting-started.md and docs/sortition.md run as written, on the
 * emulator: every ```ts block is run with `tsx` in a directory holding the sample pool and quotas, with
 * two substitutions only: `'orbitdraw'` is `test/helpers/doc-snippet-shim.ts` (the real entry, its beacon
 * client, time-stamping client and verifier pointed at the emulator) and each `'orbitdraw/x'` its source
 * entry, and `delaySeconds: N` is 8 (the
 * emulator publishes twice a second; nobody waits ten minutes in a test; 8 s leaves a loaded machine time to commit and time-stamp first). Each must exit 0, and every
 * proof it makes must pass the default (strict) `verify`, with only the emulator's anchors added and
 * its commitment pinned; every verdict it asks for must be `verified`.
 */
import { readdir, readFile, writeFile, copyFile, mkdir } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_TIMESTAMP_AUTHORITIES } from '../../src/core/timestamp/defaults.js'
import { ORBITPORT_BEACONS } from '../../src/core/trust.js'
import { parseTrustAnchor } from '../../src/core/timestamp/anchor.js'
import { verify } from '../../src/verify.js'
import { ROOT, runCommand, useEmulatorWorkspace } from '../cli/helpers.js'

const TSX = join(ROOT, 'node_modules/.bin/tsx')
const SHIM = join(ROOT, 'test/helpers/doc-snippet-shim.ts')
/** Each subpath `orbitdraw/x` as its source entry (package.json `exports`, `./dist/….js` → `src/….ts`). */
const SUBPATHS = Object.fromEntries(
  Object.entries((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> }).exports)
    .filter(([key]) => key !== '.')
    .map(([key, v]) => [`orbitdraw${key.slice(1)}`, join(ROOT, v.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'))]),
)
const DOCS = ['README.md', 'docs/getting-started.md', 'docs/sortition.md']

/** The ```ts blocks of a Markdown file, with the line each starts on. */
export function tsBlocks(markdown: string): { line: number; code: string }[] {
  const out: { line: number; code: string }[] = []
  const re = /^```ts\n([\s\S]*?)^```$/gm
  for (let m = re.exec(markdown); m !== null; m = re.exec(markdown)) out.push({ line: markdown.slice(0, m.index).split('\n').length, code: m[1]! })
  return out
}

/** The snippet as run: the two substitutions the file's comment names, nothing else. */
function asRun(code: string): string {
  return code
    .replace(/from 'orbitdraw'/g, `from ${JSON.stringify(SHIM)}`)
    .replace(/from '(orbitdraw\/[a-z]+)'/g, (all, sub: string) => (SUBPATHS[sub] === undefined ? all : `from ${JSON.stringify(SUBPATHS[sub])}`))
    .replace(/delaySeconds: \d+/g, 'delaySeconds: 8')
}

const ws = useEmulatorWorkspace({ emulator: { beacon: { intervalMs: 500, initialBlocks: 3 } } })

describe('documentation snippets run as written and their proofs verify', () => {
  it('there are snippets to run in each file', async () => {
    for (const doc of DOCS) expect(tsBlocks(await readFile(join(ROOT, doc), 'utf8')).length, doc).toBeGreaterThan(0)
    expect(asRun("import { x } from 'orbitdraw'\nconst p = { delaySeconds: 600 }")).toBe(`import { x } from ${JSON.stringify(SHIM)}\nconst p = { delaySeconds: 8 }`)
  })

  for (const doc of DOCS) {
    it(`${doc}: every \`\`\`ts block`, { timeout: 240_000 }, async () => {
      const blocks = tsBlocks(await readFile(join(ROOT, doc), 'utf8'))
      const anchor = parseTrustAnchor(ws.emu.tsaRootPem)
      await writeFile(join(ws.dir, 'tsa-root.pem'), ws.emu.tsaRootPem)
      for (const { line, code } of blocks) {
        const where = `${doc}:${line}`
        const dir = join(ws.dir, `${doc.replace(/\W/g, '_')}-${line}`)
        const out = join(dir, 'recorded')
        await mkdir(dir, { recursive: true })
        for (const f of ['pool.csv', 'quotas.csv']) await copyFile(join(ROOT, 'examples/citizens-assembly', f), join(dir, f))
        await writeFile(join(dir, 'snippet.mts'), asRun(code))
        const r = await runCommand(TSX, [join(dir, 'snippet.mts')], {
          cwd: dir,
          timeoutMs: 200_000,
          env: { SNIPPET_GATEWAY: ws.emu.url, SNIPPET_BEACON: ws.emu.beaconName, SNIPPET_TSA_URL: ws.emu.tsaUrl, SNIPPET_TSA_ROOT: join(ws.dir, 'tsa-root.pem'), SNIPPET_OUT: out },
        })
        expect(r.code, `${where}\n${r.stdout}\n${r.stderr}`).toBe(0)
        const recorded = await readdir(out).catch(() => [] as string[])
        // A snippet that draws must have made a proof for the checks below to judge.
        if (/\bawait draw\(/.test(code)) expect(recorded.filter((f) => f.endsWith('.proof.json')).length, where).toBeGreaterThan(0)
        for (const file of recorded.filter((f) => f.endsWith('.proof.json'))) {
          const proof = JSON.parse(await readFile(join(out, file), 'utf8')) as { commitmentCid: string }
          const result = await verify(proof, { commitment: proof.commitmentCid, trust: { beacons: [...ORBITPORT_BEACONS, { name: ws.emu.beaconName, label: 'emulator' }], timestampAuthorities: [...DEFAULT_TIMESTAMP_AUTHORITIES, anchor] } })
          expect([where, result.verdict, result.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`)]).toEqual([where, 'verified', []])
        }
        for (const file of recorded.filter((f) => f.endsWith('.verdict.json'))) {
          expect([where, JSON.parse(await readFile(join(out, file), 'utf8'))]).toEqual([where, { verdict: 'verified', failed: [] }])
        }
      }
    })
  }
})
