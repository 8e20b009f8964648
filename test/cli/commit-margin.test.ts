// Issue 23 item 5 through the CLI: on an emulator with 1 s blocks whose authority states 5 s of accuracy,
// `orbitdraw commit` without --delay would pick a target the time-stamp cannot precede. It moves the target
// (and says so), and the proof then verifies; a --sequence target is refused (exit 2) instead of moved.
import { describe, expect, it } from 'vitest'
import { json, names, run, useEmulatorWorkspace } from './helpers.js'

describe('orbitdraw commit keeps a target only when the time-stamp leaves it time', () => {
  const ws = useEmulatorWorkspace({ emulator: { beacon: { intervalMs: 1000, keyType: 'Ed25519', initialBlocks: 3 }, tsa: { accuracySeconds: 5 } }, files: { 'names.txt': names(5) } })

  it('moves a planned target later, says so, and the proof passes commitment-time', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '2', '-o', 'moved.json', '--json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const summary = json<{ cid: string; target: number; retargeted: { from: number; to: number; shortMs: number }[] }>(c)
    expect(summary.retargeted.length).toBeGreaterThan(0)
    expect(summary.retargeted.at(-1)!.to).toBe(summary.target)
    expect(c.stderr).toMatch(/note: the time-stamp came [0-9.]+ s too late for block \d+ .*committed to block \d+ instead and time-stamped again/)
    const d = await run(['draw', 'moved.json', '-p', 'names.txt', '-o', 'moved.proof.json'], ws.opts)
    expect(d.code, d.stderr).toBe(0)
    const v = await run(['verify', 'moved.proof.json', '--commitment', summary.cid, '--json'], ws.opts)
    expect(v.code, v.stdout).toBe(0)
    const checks = json<{ checks: { name: string; ok: boolean }[] }>(v).checks
    expect(checks.find((x) => x.name === 'commitment-time')?.ok).toBe(true)
  }, 60_000)
})

describe('orbitdraw commit --sequence is never moved', () => {
  // 30 s of stated accuracy: block head + 12 (about 12 s ahead) cannot be preceded, however slow the CLI starts.
  const fixed = useEmulatorWorkspace({ emulator: { beacon: { intervalMs: 1000, keyType: 'Ed25519', initialBlocks: 3 }, tsa: { accuracySeconds: 30 } }, files: { 'names.txt': names(5) } })

  it('refuses a --sequence target the time-stamp cannot precede (exit 2), writing nothing', async () => {
    const head = fixed.emu.beacon.head()
    const r = await run(['commit', '-p', 'names.txt', '--pick', '1', '--sequence', String(head.sequence + 12), '-o', 'fixed.json'], fixed.opts)
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toMatch(/TIMESTAMP_LATE/)
    expect(r.stderr).toMatch(/choose a target at least \d+ s later/)
    const again = await run(['inspect', 'fixed.json'], fixed.opts)
    expect(again.code).not.toBe(0)
  }, 30_000)
})
