/**
 * Beacon client request counts (not time): how many HTTP requests `waitFor` makes per block
 * interval, and how many `bySequence` needs k blocks back, cold and warm. Runs against the in-process
 * emulator on loopback; the baseline is an unverified SDK-style walk (`/ipns/<name>` JSON, then each
 * `previous` via `/ipfs/<cid>`), measured in the same run.
 */
import { BeaconClient } from '../src/beacon/client.js'
import { startBeaconEmulator } from '../src/emulator/beacon.js'
import type { BenchRow } from './harness.js'

async function waitForRows(intervalMs: number, blocks: number): Promise<BenchRow[]> {
  const emu = await startBeaconEmulator({ intervalMs, initialBlocks: 3 })
  try {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    // Start-up: the head (record + block) and the interval learned from a few blocks' timestamps.
    await client.latest()
    await client.intervalMs()
    const startup = client.requestCount
    const start = client.knownHead!.block.sequence
    await client.waitFor(start + blocks)
    const perInterval = (client.requestCount - startup) / blocks
    return [
      { name: `waitFor start-up: head + interval learning (${intervalMs} ms interval)`, value: startup, unit: 'requests', goal: '<= 5 (record, head, <= 3 blocks back)', met: startup <= 5 },
      {
        name: `waitFor: requests per block interval (${intervalMs} ms interval, ${blocks} blocks)`,
        value: perInterval,
        unit: 'requests',
        goal: '<= 3 (record + new head per interval, a re-poll when late)',
        met: perInterval <= 3,
      },
    ]
  } finally {
    await emu.stop()
  }
}

async function bySequenceRows(ks: readonly number[]): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const emu = await startBeaconEmulator({ intervalMs: 0, initialBlocks: Math.max(...ks) + 2 })
  try {
    for (const k of ks) {
      // Baseline: unverified SDK-style traversal (head JSON, then k `previous` links).
      let baseline = 0
      const countingFetch: typeof fetch = (input, init) => {
        baseline++
        return fetch(input, init)
      }
      let doc = (await (await countingFetch(`${emu.url}/ipns/${emu.beaconName}`)).json()) as { previous: string }
      for (let i = 0; i < k; i++) doc = (await (await countingFetch(`${emu.url}${doc.previous}`)).json()) as { previous: string }

      const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
      const head = emu.beacon.head().sequence
      await client.bySequence(head - k)
      const cold = client.requestCount
      rows.push({ name: `bySequence ${k} back, cold (verified: record + head + k blocks)`, value: cold, unit: 'requests', baseline: { name: 'unverified SDK-style walk', value: baseline }, goal: `= k + 2 = ${k + 2}`, met: cold === k + 2 })
      const before = client.requestCount
      for (let i = 0; i <= k; i++) await client.bySequence(head - i)
      const warm = client.requestCount - before
      rows.push({ name: `bySequence 0..${k} back again, warm`, value: warm, unit: 'requests', goal: '= 0', met: warm === 0 })
      const beforeHead = client.requestCount
      await client.latest()
      for (let i = 0; i <= k; i++) await client.bySequence(head - i)
      const withHeadCheck = client.requestCount - beforeHead
      rows.push({ name: `latest() + bySequence 0..${k} back, warm`, value: withHeadCheck, unit: 'requests', goal: '= 1 (the head check only)', met: withHeadCheck === 1 })
    }
  } finally {
    await emu.stop()
  }
  return rows
}

export default async function run(): Promise<BenchRow[]> {
  return [...(await waitForRows(200, 20)), ...(await waitForRows(1000, 6)), ...(await bySequenceRows([1, 10, 100]))]
}
