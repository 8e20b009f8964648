/**
 * Exit codes through the real binary: a file that is not a readable proof (missing, truncated, not
 * JSON, a commitment or a receipt) is "could not read" (4), a proof whose checks fail is "the draw
 * does not check out" (1); --help and docs/cli.md say the same. A closed pipe exits quietly.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { commitmentFile } from '../../src/core/commitment-file.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { serializeProof } from '../../src/core/proof.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { BIN, json, ROOT, run, runCommand, useWorkspace } from './helpers.js'

const CHAIN = buildChain(6, 'exit-codes')
let proof: string

const ws = useWorkspace()

beforeAll(async () => {
  const people = Array.from({ length: 3000 }, (_, i) => `Participant number ${i + 1}`)
  const made = commit({ beacon: BEACON_NAME, target: 4, after: { sequence: 2, block: CHAIN[2]!.cid }, participants: people, draw: { kind: 'shuffle' } })
  proof = serializeProof(drawFromBlock(made.commitment, people, CHAIN[4]!))
  await writeFile(join(ws.dir, 'proof.json'), proof)
  await writeFile(join(ws.dir, 'truncated.json'), proof.slice(0, Math.floor(proof.length / 2)))
  await writeFile(join(ws.dir, 'commitment.json'), JSON.stringify(commitmentFile(made, [])))
  await writeFile(join(ws.dir, 'bare-commitment.json'), JSON.stringify(made.json))
  const tampered = JSON.parse(proof) as { outcome: { ranking: { entry: string }[] } }
  tampered.outcome.ranking[0]!.entry = 'Mallory'
  await writeFile(join(ws.dir, 'tampered.json'), JSON.stringify(tampered))
})

describe('verify: could not read (4) versus the draw does not check out (1)', () => {
  it('a missing file is 4', async () => {
    const r = await run(['verify', 'nope.json'], { cwd: ws.dir })
    expect(r.code).toBe(4)
    expect(r.stderr).toContain('cannot read proof nope.json: ENOENT')
  })

  it('a truncated proof is 4, says it is not valid JSON and that nothing about the draw was checked', async () => {
    const r = await run(['verify', 'truncated.json'], { cwd: ws.dir })
    expect(r.code).toBe(4)
    expect(r.stdout).toMatch(/^NOT CHECKED: this file is not a readable proof \(a truncated or partial download\?\): proof is not valid JSON/)
    expect(r.stdout).toContain('Nothing about the draw was checked')
    const j = await run(['verify', 'truncated.json', '--json'], { cwd: ws.dir })
    expect(j.code).toBe(4)
    expect(json<{ ok: boolean; unreadable: string }>(j)).toMatchObject({ ok: false, unreadable: expect.stringContaining('not valid JSON') as unknown })
  })

  it('a commitment given where a proof is expected says so (file or bare), exit 4', async () => {
    for (const f of ['commitment.json', 'bare-commitment.json']) {
      const r = await run(['verify', f], { cwd: ws.dir })
      expect(r.code, f).toBe(4)
      expect(r.stdout).toContain('this is a commitment, not a proof')
      expect(r.stdout).toContain('orbitdraw draw FILE')
    }
  })

  it('a tampered proof is 1 (read, and a check failed)', async () => {
    const r = await run(['verify', 'tampered.json'], { cwd: ws.dir })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^FAILED: /)
  })

  it('verify --help and docs/cli.md state the same rule', async () => {
    const h = await run(['verify', '--help'])
    expect(h.stdout).toContain('4 could not read a proof')
    expect(h.stdout).toContain('1 the proof was read and a check failed')
    const doc = await readFile(join(ROOT, 'docs/cli.md'), 'utf8')
    expect(doc).toContain('4 could not read a proof')
    expect(doc).toContain('1 the proof was read and a check failed')
  })
})

describe('a closed pipe', () => {
  it('`verify --json | head -c 100` exits with the command\'s own code, quietly (no stack trace)', async () => {
    const r = await runCommand('bash', ['-c', `"${process.execPath}" "${BIN}" verify proof.json --allow-unsigned --allow-untimestamped --trust-beacon ${BEACON_NAME} --json | head -c 100 >/dev/null; echo "rc=\${PIPESTATUS[0]}" >&2`], { cwd: ws.dir })
    expect(r.stderr.trim()).toBe('rc=0')
  })

  it('a failing verify into a closed pipe still exits 1, quietly', async () => {
    const r = await runCommand('bash', ['-c', `"${process.execPath}" "${BIN}" verify tampered.json --json | head -c 10 >/dev/null; echo "rc=\${PIPESTATUS[0]}" >&2`], { cwd: ws.dir })
    expect(r.stderr.trim()).toBe('rc=1')
  })
})
