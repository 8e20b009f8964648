/** A scripted in-memory {@link BlockSource} and a small valid chain, for testing the pieces alone. */
import { blockCid, encodeBlock, parseBlock, type BeaconBlock } from '../../src/core/block.js'
import { GatewayHttpError } from '../../src/beacon/errors.js'
import type { BlockSource, HeadAnswer, RecordAnswer, SourceCallOptions } from '../../src/beacon/source.js'
import type { VerifiedIpnsRecord } from '../../src/core/ipns/record.js'

/** A valid chain of `n` blocks (0 = genesis), `intervalS` seconds apart; another `salt` (a hex digit) gives another chain. */
export function makeChain(n: number, options: { intervalS?: number; start?: number; salt?: string; metadata?: Record<string, unknown> } = {}): BeaconBlock[] {
  const out: BeaconBlock[] = []
  for (let i = 0; i < n; i++) {
    const bytes = encodeBlock({
      previous: i === 0 ? null : out[i - 1]!.cid,
      sequence: i,
      timestamp: (options.start ?? 1_700_000_000) + i * (options.intervalS ?? 60),
      ctrng: [i.toString(16).padStart(8, '0') + (options.salt ?? 'a').repeat(56)],
      ...(i === 0 && options.metadata !== undefined ? { metadata: options.metadata } : {}),
    })
    out.push(parseBlock(bytes, blockCid(bytes)))
  }
  return out
}

/** A fake verified record naming `block`. */
export function fakeRecord(block: BeaconBlock, sequence: bigint, ttlMs?: number): VerifiedIpnsRecord & { readonly valueCid: string } {
  return {
    name: 'k51fake',
    keyType: 'Ed25519',
    keySource: 'name',
    expired: false,
    value: `/ipfs/${block.cid}`,
    valueCid: block.cid,
    sequence,
    validity: '2099-01-01T00:00:00Z',
    validUntil: new Date('2099-01-01T00:00:00Z'),
    ttlNs: ttlMs === undefined ? undefined : BigInt(ttlMs) * 1_000_000n,
    ttlMs,
    hasV1Signature: false,
    signatureV1: undefined,
    v1Data: undefined,
    pubKey: undefined,
    signatureV2: new Uint8Array(64),
    data: new Uint8Array(0),
  }
}

type Step = Error | 'ok'

/** A source serving `blocks` and `head`, whose next answers can be scripted to fail. */
export class FakeSource implements BlockSource {
  readonly blocks = new Map<string, BeaconBlock>()
  head: { block: BeaconBlock; seq: bigint } | undefined
  readonly calls: { kind: 'block' | 'record' | 'unsignedHead'; arg: string }[] = []
  /** Errors (or 'ok') returned by the next calls, in order. */
  readonly script: Step[] = []
  /** When set, calls wait for this before answering. */
  gate: Promise<void> | undefined

  constructor(
    readonly id: string,
    blocks: readonly BeaconBlock[] = [],
  ) {
    for (const b of blocks) this.blocks.set(b.cid, b)
  }

  async #step(signal: AbortSignal | undefined): Promise<void> {
    if (this.gate !== undefined) await this.gate
    signal?.throwIfAborted()
    const s = this.script.shift()
    if (s !== undefined && s !== 'ok') throw s
  }

  async block(cid: string, options: SourceCallOptions = {}): Promise<BeaconBlock> {
    this.calls.push({ kind: 'block', arg: cid })
    await this.#step(options.signal)
    const b = this.blocks.get(cid)
    if (b === undefined) throw new GatewayHttpError(this.id, 404, `block ${cid}`)
    return b
  }

  async record(name: string, options: SourceCallOptions = {}): Promise<RecordAnswer> {
    this.calls.push({ kind: 'record', arg: name })
    await this.#step(options.signal)
    if (this.head === undefined) throw new GatewayHttpError(this.id, 404, `IPNS record of ${name}`)
    return { bytes: new Uint8Array([1, 2, 3]), info: fakeRecord(this.head.block, this.head.seq, 60_000), source: this.id }
  }

  async unsignedHead(name: string, options: SourceCallOptions = {}): Promise<HeadAnswer> {
    this.calls.push({ kind: 'unsignedHead', arg: name })
    await this.#step(options.signal)
    if (this.head === undefined) throw new GatewayHttpError(this.id, 404, `unsigned head of ${name}`)
    return { block: this.head.block, source: this.id }
  }
}
