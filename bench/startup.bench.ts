/**
 * CLI start-up: wall time of `orbitdraw --help` and `orbitdraw verify --help` (the built `dist/cli/main.js`,
 * a fresh process each time) against `node -e 0` in the same run, interleaved, median of 9.
 * Needs `npm run build` first.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { timePair, type BenchRow } from './harness.js'

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js')

function runNode(args: string[]): void {
  const r = spawnSync(process.execPath, args, { stdio: 'ignore' })
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}`)
}

export default async function (): Promise<BenchRow[]> {
  if (!existsSync(BIN)) throw new Error('dist/cli/main.js is missing: run npm run build first')
  const base = (): void => runNode(['-e', '0'])
  const rows: BenchRow[] = []
  for (const args of [['--help'], ['verify', '--help']]) {
    const r = await timePair(() => runNode([BIN, ...args]), base, 9, 2)
    rows.push({ name: `orbitdraw ${args.join(' ')} (start-up, fresh process)`, value: r.value, unit: 'ms', baseline: { name: 'node -e 0', value: r.baseline }, goal: '<= 2x baseline', met: r.value <= 2 * r.baseline })
  }
  return rows
}
