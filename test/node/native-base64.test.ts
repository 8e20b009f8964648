/**
 * The verify bundle's base64 decoding step by Node's decoder (src/node/native-base64.ts, in the place of
 * src/core/base64-decode.ts): the core's bytes on every canonical text, a plain `Uint8Array` of its
 * own; and `base64ToBytes` with it in the core module's place (as the bundle builds it) gives the core's
 * answers and errors on valid and malformed texts.
 */
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import * as core from '../../src/core/base64-decode.js'
import { base64ToBytes, bytesToBase64 } from '../../src/core/bytes.js'
import * as native from '../../src/node/native-base64.js'

const pad = (s: string): number => (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0)

/** What `f()` returns (hex) or throws (class, code, message). */
function outcome(f: () => Uint8Array): unknown {
  try {
    return Buffer.from(f()).toString('hex')
  } catch (e) {
    return { name: (e as Error).constructor.name, code: (e as { code?: string }).code, message: (e as Error).message }
  }
}

describe('base64 decoding by Node in the verify bundle', () => {
  it('the core\'s bytes for every length from 0 to 300 and random bytes, as a plain Uint8Array', () => {
    const check = (bytes: Uint8Array): void => {
      const text = bytesToBase64(bytes)
      const got = native.decodeBase64Checked(text, pad(text))
      expect(got).toEqual(core.decodeBase64Checked(text, pad(text)))
      expect(Object.getPrototypeOf(got)).toBe(Uint8Array.prototype)
      expect(got.byteOffset).toBe(0)
      expect(got.buffer.byteLength).toBe(bytes.length)
    }
    for (let n = 0; n <= 300; n++) check(Uint8Array.from({ length: n }, (_, i) => (i * 151 + n) & 0xff))
    fc.assert(fc.property(fc.uint8Array({ maxLength: 3000 }), check), { numRuns: 300, seed: 2513 })
    expect(native.B64).toBe(core.B64)
    expect(native.B64_INDEX).toBe(core.B64_INDEX)
  })

  it('base64ToBytes with the Node step (as the verify bundle builds it) gives the core\'s answers and errors', async () => {
    vi.resetModules()
    const calls = vi.fn(native.decodeBase64Checked)
    vi.doMock('../../src/core/base64-decode.js', () => ({ B64: native.B64, B64_INDEX: native.B64_INDEX, decodeBase64Checked: calls }))
    try {
      const bundled = (await import('../../src/core/bytes.js')).base64ToBytes
      expect(bundled).not.toBe(base64ToBytes)
      const texts = ['', 'AA==', 'AAA=', 'AAAA', 'AB==', 'AAB=', 'Zm9vYmFy', 'Zm9vYg==', 'Zm9vYmE=', '////', '+/+/', 'Zm9v YmFy', 'Zm9vYmFy\n', 'Zm9-YmFy', 'Zm9_YmFy', 'Zm9vYg', 'Zm9vYg=', 'Zm9vYmE', '=AAA', 'A===', 'AA=A', 'Zm9vYg==Zm9v', 'Zm9vYg==\u0000', 'Zm9vYg\u00e9=', '\u{1F600}AAA']
      for (const text of texts) expect(outcome(() => bundled(text, '$.x')), text).toEqual(outcome(() => base64ToBytes(text, '$.x')))
      fc.assert(
        fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }).map(bytesToBase64), fc.string({ unit: fc.constantFrom(...'AQgw+/=Zz9 -_\n'), maxLength: 24 })), (text) => {
          expect(outcome(() => bundled(text))).toEqual(outcome(() => base64ToBytes(text)))
        }),
        { numRuns: 1000, seed: 2514 },
      )
      expect(calls).toHaveBeenCalled()
    } finally {
      vi.doUnmock('../../src/core/base64-decode.js')
      vi.resetModules()
    }
  })
})
