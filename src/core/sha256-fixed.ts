/**
 * SHA-256 (FIPS 180-4) specialised for the participants digest's hot paths: short messages hashed into
 * 32-bit words with no allocation, the fixed 65-byte Merkle node message, and HMAC-SHA256 of a short
 * message under a key whose inner and outer states are computed once.
 *
 * Why it exists: the participants digest of n entries is n leaf hashes and n - 1 node hashes of tiny
 * messages (one or two 64-byte blocks). A general-purpose SHA-256 (`@noble/hashes`) spends most of that
 * time outside the compression function: a hasher object, a padding buffer and a fresh digest array per
 * call. Here a tree stays in 32-bit words from the leaves to the root (no byte round trip between levels),
 * a node's two blocks are built straight from its children's words, and nothing is allocated per hash.
 * Measured in `npm run bench` (docs/performance.md).
 *
 * Every function is checked byte for byte against `@noble/hashes` and `node:crypto` on every message
 * shape (each length 0..300, both node halves, HMAC keys and messages) by `test/core/sha256-fixed.test.ts`.
 * Anything else hashes with `@noble/hashes`.
 *
 * Words are big-endian SHA-256 state words stored in an `Int32Array` (V8 keeps int32 values unboxed).
 *
 * @module
 */

/** SHA-256 round constants (FIPS 180-4 §4.2.2). */
const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])

/** Initial hash value H(0) (FIPS 180-4 §5.3.3). */
const IV = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])

/** Message schedule scratch: W[0..15] is filled by the caller, W[16..63] by {@link compress}. */
const W = new Int32Array(64)
/** Padded tail of a message (at most two blocks). */
const TAIL = new Uint8Array(128)

/**
 * One SHA-256 compression of the block in `W[0..15]` into the 8 state words `st[at..at+8)`.
 * The schedule W[16..63] is overwritten.
 */
function compress(st: Int32Array, at: number): void {
  const w = W
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!
    const y = w[i - 2]!
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10)
    w[i] = (s1 + w[i - 7]! + s0 + w[i - 16]!) | 0
  }
  let a = st[at]!
  let b = st[at + 1]!
  let c = st[at + 2]!
  let d = st[at + 3]!
  let e = st[at + 4]!
  let f = st[at + 5]!
  let g = st[at + 6]!
  let h = st[at + 7]!
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0
    h = g
    g = f
    f = e
    e = (d + t1) | 0
    d = c
    c = b
    b = a
    a = (t1 + t2) | 0
  }
  st[at] = (st[at]! + a) | 0
  st[at + 1] = (st[at + 1]! + b) | 0
  st[at + 2] = (st[at + 2]! + c) | 0
  st[at + 3] = (st[at + 3]! + d) | 0
  st[at + 4] = (st[at + 4]! + e) | 0
  st[at + 5] = (st[at + 5]! + f) | 0
  st[at + 6] = (st[at + 6]! + g) | 0
  st[at + 7] = (st[at + 7]! + h) | 0
}

/** Loads the 64-byte block at `bytes[at..at+64)` into W[0..15], big-endian. */
function loadBlock(bytes: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++, at += 4) {
    W[i] = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!
  }
}

/**
 * SHA-256 of `msg[0..len)` (`len < 2^29`), written as 8 state words to `out[at..at+8)`. Allocates nothing.
 * Used for leaf hashes: the caller puts the leaf's `0x00` prefix in `msg[0]`.
 */
export function sha256Words(msg: Uint8Array, len: number, out: Int32Array, at: number): void {
  out.set(IV, at)
  const full = len - (len % 64)
  for (let p = 0; p < full; p += 64) {
    loadBlock(msg, p)
    compress(out, at)
  }
  const r = len - full
  const tail = TAIL
  for (let i = 0; i < r; i++) tail[i] = msg[full + i]!
  tail[r] = 0x80
  const blocks = r < 56 ? 1 : 2
  const end = blocks * 64
  tail.fill(0, r + 1, end - 4)
  // Bit length, big-endian 64-bit: len < 2^29, so only the low 32 bits are non-zero.
  const bits = len * 8
  tail[end - 4] = bits >>> 24
  tail[end - 3] = (bits >>> 16) & 255
  tail[end - 2] = (bits >>> 8) & 255
  tail[end - 1] = bits & 255
  loadBlock(tail, 0)
  compress(out, at)
  if (blocks === 2) {
    loadBlock(tail, 64)
    compress(out, at)
  }
}

/**
 * RFC 9162 node hash `SHA-256(0x01 || left || right)` on words: the children are the 8 words at
 * `src[l..l+8)` and `src[r..r+8)`, the result goes to `out[at..at+8)` (which may overlap either child:
 * both are read before it is written). The 65-byte message is two blocks built straight from the words.
 */
export function nodeHashWords(src: Int32Array, l: number, r: number, out: Int32Array, at: number): void {
  const w = W
  // Block 1: 0x01, then the first 63 bytes of left || right; each word is shifted by one byte.
  w[0] = 0x01000000 | (src[l]! >>> 8)
  for (let i = 1; i < 8; i++) w[i] = (src[l + i - 1]! << 24) | (src[l + i]! >>> 8)
  w[8] = (src[l + 7]! << 24) | (src[r]! >>> 8)
  for (let i = 9; i < 16; i++) w[i] = (src[r + i - 9]! << 24) | (src[r + i - 8]! >>> 8)
  const last = src[r + 7]! << 24
  const st = STATE
  st.set(IV, 0)
  compress(st, 0)
  // Block 2: the last byte of right, the 0x80 pad byte, zeros, and the bit length 65 * 8 = 520.
  w[0] = last | 0x00800000
  for (let i = 1; i < 15; i++) w[i] = 0
  w[15] = 520
  compress(st, 0)
  out.set(st, at)
}

const STATE = new Int32Array(8)

/** Writes the 8 words at `words[at..at+8)` as 32 big-endian bytes to `out[to..to+32)`. */
export function wordsToBytes(words: Int32Array, at: number, out: Uint8Array, to: number): void {
  for (let i = 0; i < 8; i++, to += 4) {
    const x = words[at + i]!
    out[to] = x >>> 24
    out[to + 1] = (x >>> 16) & 255
    out[to + 2] = (x >>> 8) & 255
    out[to + 3] = x & 255
  }
}

/** Reads `count` 32-byte hashes from `bytes` into a new word array (8 words each). */
export function hashesToWords(bytes: Uint8Array, count: number): Int32Array {
  const out = new Int32Array(count * 8)
  for (let i = 0, j = 0; i < count * 8; i++, j += 4) {
    out[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!
  }
  return out
}

/** Writes `count` hashes of 8 words each as packed 32-byte hashes in a new byte array. */
export function wordsToHashes(words: Int32Array, count: number): Uint8Array {
  const out = new Uint8Array(count * 32)
  for (let i = 0; i < count; i++) wordsToBytes(words, i * 8, out, i * 32)
  return out
}

/** Largest message {@link HmacSha256Short.mac} accepts: 55 bytes, so that the inner hash's last block is one block. */
export const HMAC_SHORT_MAX = 55

/**
 * HMAC-SHA256 (RFC 2104) under one key of at most 64 bytes, for messages of at most 55 bytes: the states
 * after the `key ^ ipad` and `key ^ opad` blocks are computed once, so each MAC costs two compressions.
 */
export class HmacSha256Short {
  /** Inner state (words 0..7) and outer state (words 8..15) after the key blocks. */
  readonly #keyed = new Int32Array(16)
  readonly #st = new Int32Array(8)

  /** Prepares the key (at most 64 bytes; longer keys are not needed here and are refused). */
  constructor(key: Uint8Array) {
    if (key.length > 64) throw new RangeError('HmacSha256Short: keys longer than 64 bytes are not supported')
    const block = new Uint8Array(64)
    for (const [pad, at] of [[0x36, 0], [0x5c, 8]] as const) {
      block.fill(pad)
      for (let i = 0; i < key.length; i++) block[i] = key[i]! ^ pad
      this.#keyed.set(IV, at)
      loadBlock(block, 0)
      compress(this.#keyed, at)
    }
    block.fill(0)
  }

  /** Writes `HMAC(key, msg[0..len))` (32 bytes) to `out[to..to+32)`. `len` is at most {@link HMAC_SHORT_MAX}. */
  mac(msg: Uint8Array, len: number, out: Uint8Array, to: number): void {
    if (len > HMAC_SHORT_MAX || len < 0) throw new RangeError(`HmacSha256Short: messages are at most ${HMAC_SHORT_MAX} bytes`)
    const st = this.#st
    const tail = TAIL
    // Inner: H(ipad block || msg): one block after the key block; the total length is 64 + len bytes.
    for (let i = 0; i < len; i++) tail[i] = msg[i]!
    tail[len] = 0x80
    tail.fill(0, len + 1, 60)
    const innerBits = (64 + len) * 8
    tail[60] = innerBits >>> 24
    tail[61] = (innerBits >>> 16) & 255
    tail[62] = (innerBits >>> 8) & 255
    tail[63] = innerBits & 255
    loadBlock(tail, 0)
    st.set(this.#keyed.subarray(0, 8), 0)
    compress(st, 0)
    // Outer: H(opad block || inner digest): one block of 32 digest bytes, padding, length 96 * 8 = 768.
    const w = W
    for (let i = 0; i < 8; i++) w[i] = st[i]!
    w[8] = 0x80000000 | 0
    for (let i = 9; i < 15; i++) w[i] = 0
    w[15] = 768
    st.set(this.#keyed.subarray(8, 16), 0)
    compress(st, 0)
    wordsToBytes(st, 0, out, to)
  }
}
