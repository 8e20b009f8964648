/**
 * `core/base64-decode.ts` for the CLI's verify bundle (Node only): the decoding step of the core's
 * `base64ToBytes` by Node's own base64 decoder (`Buffer.from(s, 'base64')`) instead of a loop over each
 * four characters. `base64ToBytes` (`core/bytes.ts`) checks the text first (standard alphabet, length,
 * padding, zero padding bits), and canonical base64 has exactly one decoding, so the bytes are the same
 * (`test/node/native-base64.test.ts` compares them); the result is a plain `Uint8Array` of its own.
 *
 * Why: a strict `orbitdraw verify` decodes the time-stamp token, the IPNS record and its key from
 * base64, and a fresh process runs that loop in V8's interpreter: about 1.3 % of its instructions
 * (docs/performance.md, Start-up). `scripts/build-cli.ts` puts this module in the place of
 * `base64-decode.js` in the verify bundle only.
 *
 * @module
 */
export { B64, B64_INDEX } from '../core/base64-decode.js'

/** The bytes of `s`, canonical standard base64 ending in `pad` `=` (checked by `base64ToBytes`), by Node's decoder. */
export function decodeBase64Checked(s: string, pad: number): Uint8Array {
  const bytes = Buffer.from(s, 'base64')
  if (bytes.length !== (s.length / 4) * 3 - pad) throw new RangeError('base64ToBytes passed text that is not canonical base64')
  return new Uint8Array(bytes)
}
