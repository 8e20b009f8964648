/**
 * parseIpnsName keeps the names it decoded (a verify meets the same names several times): a name given
 * again gives the same result as the first time, in any encoding, each caller with its own multihash
 * (a caller's change never reaches the next), bad names fail every time with the caller's path, and
 * the kept names are bounded (past the bound every name still decodes right).
 */
import { base32 } from 'multiformats/bases/base32'
import { base36 } from 'multiformats/bases/base36'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { describe, expect, it } from 'vitest'
import { parseIpnsName } from '../../../src/core/ipns/name.js'
import { ORBITPORT_BEACONS } from '../../../src/core/trust.js'

const RSA_NAME = ORBITPORT_BEACONS[0]!.name
const ED25519_NAME = 'k51qzi5uqu5dj7skeind43o1an76ns1q5g2bupqw6o1hmcccenbkvalzo2olt0'

/** An RSA-style IPNS name (sha2-256 multihash) made from `seed`, in base36 or base32. */
function rsaName(seed: number, base: 'base36' | 'base32' = 'base36'): string {
  const digest = Digest.create(0x12, Uint8Array.from({ length: 32 }, (_, i) => (seed * 7 + i * 13) & 0xff))
  const cid = CID.createV1(0x72, digest)
  return base === 'base36' ? cid.toString(base36) : cid.toString(base32)
}

const plain = (n: { name: string; multihash: Uint8Array; hash: string }): unknown => ({ name: n.name, multihash: Buffer.from(n.multihash).toString('hex'), hash: n.hash })

function failure(f: () => unknown): unknown {
  try {
    f()
    return undefined
  } catch (e) {
    const err = e as { code?: string; path?: string; detail?: string }
    return { code: err.code, path: err.path, detail: err.detail }
  }
}

describe('parseIpnsName, a name given again', () => {
  it('gives the first result again, in every encoding of the name', () => {
    for (const name of [RSA_NAME, ED25519_NAME, `/ipns/${RSA_NAME}`, rsaName(1), rsaName(1, 'base32')]) {
      const first = plain(parseIpnsName(name))
      expect(plain(parseIpnsName(name)), name).toEqual(first)
      expect(plain(parseIpnsName(name, '$.other')), name).toEqual(first)
    }
    expect(parseIpnsName(rsaName(1, 'base32')).name).toBe(rsaName(1))
    expect(parseIpnsName(ED25519_NAME).hash).toBe('identity')
    expect(parseIpnsName(RSA_NAME).hash).toBe('sha2-256')
  })

  it('gives each caller its own multihash: changing one never changes the next result', () => {
    const a = parseIpnsName(RSA_NAME)
    const expected = Buffer.from(a.multihash).toString('hex')
    a.multihash.fill(0)
    const b = parseIpnsName(RSA_NAME)
    expect(Buffer.from(b.multihash).toString('hex')).toBe(expected)
    expect(b.multihash).not.toBe(parseIpnsName(RSA_NAME).multihash)
    b.multihash.fill(1)
    expect(Buffer.from(parseIpnsName(RSA_NAME).multihash).toString('hex')).toBe(expected)
  })

  it('fails a bad name every time, with the path of each call', () => {
    for (const bad of ['k2k4r8notaname', '', 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi']) {
      const first = failure(() => parseIpnsName(bad, '$.a'))
      expect(first, bad).toMatchObject({ code: 'INVALID_IPNS_NAME', path: '$.a' })
      expect(failure(() => parseIpnsName(bad, '$.b'))).toEqual({ ...(first as object), path: '$.b' })
    }
    expect(failure(() => parseIpnsName(42 as unknown as string))).toMatchObject({ code: 'INVALID_IPNS_NAME' })
  })

  it('decodes every name right past the bound of kept names', () => {
    const names = Array.from({ length: 200 }, (_, i) => rsaName(i))
    const first = names.map((n) => plain(parseIpnsName(n)))
    for (let round = 0; round < 2; round++) {
      names.forEach((n, i) => {
        expect(plain(parseIpnsName(n))).toEqual(first[i])
      })
    }
    expect(new Set(first.map((f) => (f as { name: string }).name)).size).toBe(200)
  })
})
