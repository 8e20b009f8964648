/**
 * The verifier's trust material as one value (createTrust): defaults, the authority form (name, URL,
 * roots, validity window), the window enforced on each token, errors naming the bad item, and `verify`
 * giving the same result for the built value and for its input.
 */
import { describe, expect, it } from 'vitest'
import { createTrust, verify } from '../../src/core/index.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES, PUBLIC_TIMESTAMP_AUTHORITIES } from '../../src/core/timestamp/defaults.js'
import { ORBITPORT_BEACONS } from '../../src/core/trust.js'
import { InvalidInputError } from '../../src/core/errors.js'
import { DEFAULT_DRAND_CHAINS } from '../../src/core/drand/chain.js'
import { timestampRoots } from '../../src/core/trust.js'
import { makeProof, TEST_TSA } from '../browser/fixtures.js'
import { rejectedBy } from '../helpers/thrown.js'

const proof = await makeProof({ signed: true })
const beacon = (proof.commitment as { beacon: string }).beacon
const bytes = JSON.stringify(proof)

const thrown = (p: Promise<unknown>): Promise<InvalidInputError> => rejectedBy(p, InvalidInputError)

describe('createTrust', () => {
  it('builds the defaults once: Orbitport beacons, the public authorities with URLs and roots, quicknet; frozen', async () => {
    const trust = await createTrust()
    expect(trust.beacons.map((b) => b.name)).toEqual(ORBITPORT_BEACONS.map((b) => b.name))
    expect(trust.timestampAuthorities.map((a) => [a.name, a.url])).toEqual([
      ['DigiCert', 'http://timestamp.digicert.com'],
      ['Sectigo', 'http://timestamp.sectigo.com'],
    ])
    expect(trust.timestampAuthorities).toEqual(PUBLIC_TIMESTAMP_AUTHORITIES)
    expect(timestampRoots(trust)).toEqual(DEFAULT_TIMESTAMP_AUTHORITIES)
    expect(trust.drandChains).toEqual(DEFAULT_DRAND_CHAINS)
    expect(Object.isFrozen(trust) && Object.isFrozen(trust.beacons) && Object.isFrozen(trust.timestampAuthorities) && Object.isFrozen(trust.drandChains)).toBe(true)
    expect(await createTrust(trust)).toBe(trust)
  })

  it('takes bare roots (PEM) as authorities of that root, and authorities with a name, URL and roots', async () => {
    const trust = await createTrust({ beacons: [beacon], timestampAuthorities: [TEST_TSA.rootPem, { name: 'Test TSA', url: 'http://127.0.0.1:9/tsa', roots: [TEST_TSA.rootDer] }] })
    expect(trust.beacons).toEqual([{ name: beacon, label: 'beacon' }])
    expect(trust.timestampAuthorities.map((a) => [a.name, a.url, a.roots.length])).toEqual([
      [trust.timestampAuthorities[0]!.roots[0]!.name, undefined, 1],
      ['Test TSA', 'http://127.0.0.1:9/tsa', 1],
    ])
    expect(trust.timestampAuthorities[1]!.roots[0]!.sha256).toBe(trust.timestampAuthorities[0]!.roots[0]!.sha256)
  })

  it('verify gives the same result for the built value as for its input, and the value is reused across proofs', async () => {
    const input = { beacons: [beacon], timestampAuthorities: [{ name: 'Test TSA', roots: [TEST_TSA.rootPem] }] }
    const trust = await createTrust(input)
    const a = await verify(bytes, { trust })
    const b = await verify(bytes, { trust: input })
    expect(a.verdict).toBe('verified')
    expect(JSON.stringify(a)).toBe(JSON.stringify(b))
    const other = await verify(JSON.stringify(await makeProof({ signed: true })), { trust })
    expect(other.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['beacon-trusted'])
  })

  it("enforces an authority's validity window on each token's time", async () => {
    const time = Date.parse((await verify(bytes, { trust: { beacons: [beacon], timestampAuthorities: [TEST_TSA.rootPem] } })).commitmentTime!.time!)
    const at = (ms: number) => new Date(time + ms).toISOString()
    const withWindow = (validFrom?: string, validUntil?: string) =>
      verify(bytes, { trust: { beacons: [beacon], timestampAuthorities: [{ name: 'Test TSA', roots: [TEST_TSA.rootPem], ...(validFrom === undefined ? {} : { validFrom }), ...(validUntil === undefined ? {} : { validUntil }) }] } })
    // The window covers the token's time and its accuracy (1 s): verified.
    expect((await withWindow(at(-3600_000), at(3600_000))).verdict).toBe('verified')
    expect((await withWindow(at(-2000), undefined)).verdict).toBe('verified')
    // The authority is trusted only from after the token, or only until before it: the token does not count.
    for (const [from, until] of [[at(60_000), undefined], [undefined, at(-60_000)], [at(-500), at(3600_000)]] as const) {
      const r = await withWindow(from, until)
      expect(r.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['commitment-time'])
      expect(r.commitmentTime?.tokens[0]?.problem).toBe('TIMESTAMP_UNTRUSTED')
    }
  })

  it('refuses a bad item with a typed error naming its path, and verify reports it as a failed policy check', async () => {
    const cases: [unknown, string][] = [
      [{ timestampAuthorities: [{ name: 'x', url: 'ftp://tsa', roots: [TEST_TSA.rootPem] }] }, '$.trust.timestampAuthorities[0].url'],
      [{ timestampAuthorities: [{ name: 'x', roots: [] }] }, '$.trust.timestampAuthorities[0].roots'],
      [{ timestampAuthorities: [{ name: '', roots: [TEST_TSA.rootPem] }] }, '$.trust.timestampAuthorities[0].name'],
      [{ timestampAuthorities: [{ name: 'x', roots: [TEST_TSA.rootPem], validFrom: 'yesterday' }] }, '$.trust.timestampAuthorities[0].validFrom'],
      [{ timestampAuthorities: [{ name: 'x', roots: [TEST_TSA.rootPem], validFrom: '2030-01-01T00:00:00Z', validUntil: '2020-01-01T00:00:00Z' }] }, '$.trust.timestampAuthorities[0]'],
      [{ timestampAuthorities: [{ name: 'x', roots: [42] }] }, '$.trust.timestampAuthorities[0].roots[0]'],
      [{ timestampAuthorities: 'pem' }, '$.trust.timestampAuthorities'],
      [{ beacons: ['not a name'] }, '$.trust.beacons[0]'],
      [{ drandChains: [{}] }, '$.trust.drandChains[0].hash'],
      ['trust me', '$.trust'],
    ]
    for (const [input, path] of cases) {
      const err = await thrown(createTrust(input as never))
      expect(err.path, JSON.stringify(input)).toBe(path)
      const r = await verify(bytes, { trust: input as never })
      expect(r.checks.map((c) => [c.name, c.ok])).toEqual([['policy', false]])
    }
    // A root that is not a certificate: TIMESTAMP_ANCHOR_INVALID, at the root's path.
    await expect(createTrust({ timestampAuthorities: [{ name: 'x', roots: ['not a PEM'] }] })).rejects.toMatchObject({ code: 'TIMESTAMP_ANCHOR_INVALID', path: '$.trust.timestampAuthorities[0].roots[0]' })
  })
})
