/**
 * docs/proof.schema.json describes the proof bundle. These tests keep it honest: every real proof
 * validates, malformed ones do not, and nothing `verify` accepts is rejected by the schema.
 */
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient, commit, draw, planTarget, verify } from '../../src/index.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'

const schema = JSON.parse(readFileSync(new URL('../../docs/proof.schema.json', import.meta.url), 'utf8')) as object
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema)
const vectors = JSON.parse(readFileSync(new URL('../vectors/draws.json', import.meta.url), 'utf8')) as { cases: { name: string; proof: unknown }[] }
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T

describe('docs/proof.schema.json', () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ beacon: { intervalMs: 200, initialBlocks: 2 } })
  })
  afterAll(async () => {
    await emu.stop()
  })

  it.each(vectors.cases.map((c) => [c.name, c.proof] as const))('vector proof %s validates', (_name, proof) => {
    expect(validate(proof), JSON.stringify(validate.errors)).toBe(true)
  })

  it('a signed network proof (RSA record, multi-block chain, private pick) validates', async () => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    const plan = await planTarget({ client, delaySeconds: 0.3 })
    const people = Array.from({ length: 30 }, (_, i) => `member-${i}`)
    const { commitment, secret } = commit({ beacon: plan.beacon, target: plan.target, after: plan.after, participants: people, draw: { kind: 'pick', count: 4 }, private: { secret: new Uint8Array(32).fill(7) } })
    const proof = clone(await draw(commitment, people, { client, disclosure: 'winners', secret }))
    expect(proof.chain.ipnsRecord).toBeDefined()
    expect(validate(proof), JSON.stringify(validate.errors)).toBe(true)
  })

  it('rejects malformed proofs', () => {
    const good = vectors.cases[0]!.proof as Record<string, unknown>
    const bad: [string, (p: Record<string, unknown>) => void][] = [
      ['unknown top-level field', (p) => (p.extra = 1)],
      ['version 2', (p) => (p.version = 2)],
      ['missing seed', (p) => delete p.seed],
      ['uppercase seed', (p) => (p.seed = (p.seed as string).toUpperCase())],
      ['no blocks', (p) => ((p.chain as { blocks: unknown[] }).blocks = [])],
      ['unpadded block base64', (p) => (((p.chain as { blocks: { bytes: string }[] }).blocks[0]!.bytes = 'YWJj'.slice(0, 3)))],
      ['outcome kind unknown', (p) => ((p.outcome as { kind: string }).kind = 'lottery')],
      ['commitment with an extra field', (p) => ((p.commitment as Record<string, unknown>).note = 'x')],
      ['after.block not a link', (p) => ((p.commitment as { after: { block: unknown } }).after.block = 'bafkrei')],
    ]
    for (const [name, mutate] of bad) {
      const p = clone(good)
      mutate(p)
      expect(validate(p), name).toBe(false)
    }
  })

  it('property: whatever verify accepts, the schema accepts (the schema is never stricter than the protocol)', async () => {
    const base = vectors.cases.map((c) => c.proof)
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: base.length - 1 }), fc.jsonValue(), fc.nat(), async (which, value, pick) => {
        const proof = clone(base[which]) as Record<string, unknown>
        // Replace one top-level or nested value at a pseudo-random path.
        const paths: (string | number)[][] = []
        const walk = (v: unknown, path: (string | number)[]) => {
          paths.push(path)
          if (v !== null && typeof v === 'object' && paths.length < 400) for (const [k, x] of Object.entries(v)) walk(x, [...path, Array.isArray(v) ? Number(k) : k])
        }
        walk(proof, [])
        const path = paths[pick % paths.length]!
        if (path.length > 0) {
          let o = proof as Record<string | number, unknown>
          for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>
          o[path.at(-1)!] = value
        }
        const result = await verify(proof)
        if (result.ok) expect(validate(proof), JSON.stringify(validate.errors)).toBe(true)
      }),
      { numRuns: 150, seed: 20261121 },
    )
  })
})
