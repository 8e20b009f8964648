/**
 * CLI start-up: wall time of `orbitdraw --help`, `orbitdraw verify --help` and `orbitdraw verify FILE` (the
 * built `dist/cli/main.js`, a fresh process each time) against `node -e 0` in the same run, interleaved,
 * median of 9. The proofs are the demo-sized pick 3 of 12: one unsigned and untimestamped (verified with
 * the rules relaxed: what an engine-only verify loads) and one with an RSA-signed IPNS record and an
 * RFC 3161 token (the strict policy: the record decoder and the time-stamp checks load too).
 * Needs `npm run build` first.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { makeProof, TEST_TSA } from '../test/browser/fixtures.js'
import { timePair, type BenchRow } from './harness.js'

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js')

function runNode(args: string[]): void {
  const r = spawnSync(process.execPath, args, { stdio: 'ignore' })
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}`)
}

export default async function (): Promise<BenchRow[]> {
  if (!existsSync(BIN)) throw new Error('dist/cli/main.js is missing: run npm run build first')
  const dir = await mkdtemp(join(tmpdir(), 'orbitdraw-startup-'))
  try {
    const plain = join(dir, 'plain.json')
    const signed = join(dir, 'signed.json')
    const tsa = join(dir, 'tsa.pem')
    const signedProof = await makeProof({ signed: 'RSA' })
    await writeFile(plain, JSON.stringify(await makeProof()))
    await writeFile(signed, JSON.stringify(signedProof))
    await writeFile(tsa, TEST_TSA.rootPem)
    const beacon = (signedProof.commitment as { beacon: string }).beacon
    const base = (): void => runNode(['-e', '0'])
    const rows: BenchRow[] = []
    const cases: [string, string[]][] = [
      ['orbitdraw --help', ['--help']],
      ['orbitdraw verify --help', ['verify', '--help']],
      ['orbitdraw verify demo proof (unsigned, untimestamped; --allow-unsigned --allow-untimestamped)', ['verify', plain, '--allow-unsigned', '--allow-untimestamped']],
      ['orbitdraw verify demo proof (RSA-signed record + RFC 3161 token, strict policy)', ['verify', signed, '--trust-beacon', beacon, '--trust-tsa', tsa]],
    ]
    for (const [name, args] of cases) {
      const r = await timePair(() => runNode([BIN, ...args]), base, 9, 2)
      rows.push({ name: `${name} (start-up, fresh process)`, value: r.value, unit: 'ms', baseline: { name: 'node -e 0', value: r.baseline }, goal: '<= 2x baseline', met: r.value <= 2 * r.baseline })
    }
    return rows
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
