/**
 * The decoding step of `base64ToBytes` (`bytes.ts`): standard padded base64 already checked there
 * (alphabet, length, padding, zero padding bits) to its bytes. Every check stays in `bytes.ts`.
 *
 * A module of its own so that the CLI's verify bundle can put `src/node/native-base64.ts` (the same
 * bytes by Node's own decoder) in its place (`scripts/build-cli.ts`); the library and the page keep this
 * one.
 *
 * Pure: no network, no clock, no Node modules.
 *
 * @module
 */

/** The standard base64 alphabet (RFC 4648 §4). */
export const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
/** Char code -> 6-bit value (every char is already checked by the caller). */
export const B64_INDEX = /* @__PURE__ */ (() => {
  const t = new Uint8Array(128)
  for (let i = 0; i < B64.length; i++) t[B64.charCodeAt(i)] = i
  return t
})()

/** The bytes of `s`, canonical standard base64 ending in `pad` (0, 1 or 2) `=` (checked by the caller). */
export function decodeBase64Checked(s: string, pad: number): Uint8Array {
  const out = new Uint8Array((s.length / 4) * 3 - pad)
  const whole = s.length - (pad > 0 ? 4 : 0)
  let o = 0
  for (let i = 0; i < whole; i += 4) {
    const n = (B64_INDEX[s.charCodeAt(i)]! << 18) | (B64_INDEX[s.charCodeAt(i + 1)]! << 12) | (B64_INDEX[s.charCodeAt(i + 2)]! << 6) | B64_INDEX[s.charCodeAt(i + 3)]!
    out[o++] = n >> 16
    out[o++] = (n >> 8) & 255
    out[o++] = n & 255
  }
  if (pad > 0) {
    const n = (B64_INDEX[s.charCodeAt(whole)]! << 18) | (B64_INDEX[s.charCodeAt(whole + 1)]! << 12) | (pad === 1 ? B64_INDEX[s.charCodeAt(whole + 2)]! << 6 : 0)
    out[o] = n >> 16
    if (pad === 1) out[o + 1] = (n >> 8) & 255
  }
  return out
}

