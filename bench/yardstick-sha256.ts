/**
 * The yardstick of the participants-digest benchmarks: the least work one thread can do for an RFC 9162
 * tree of short leaves, written here independently of src/core/sha256-fixed.ts. Leaf messages arrive
 * already padded as 16-word blocks (no UTF-8 encoding, no padding, no validation in the timed region),
 * and every node is two compressions straight from its children's words. It computes the real root
 * (the bench checks it equals participantsRoot), so it is a floor, not an estimate.
 */
const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19].map((x) => x | 0)
const w = new Int32Array(64)
const s = new Int32Array(8)

function rounds(): void {
  let a = s[0]!, b = s[1]!, c = s[2]!, d = s[3]!, e = s[4]!, f = s[5]!, g = s[6]!, h = s[7]!
  for (let i = 0; i < 64; i++) {
    if (i >= 16) {
      const x = w[i - 15]!, y = w[i - 2]!
      w[i] = (w[i - 16]! + (((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)) + w[i - 7]! + (((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10))) | 0
    }
    const t1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[i]! + w[i]!) | 0
    const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0
    h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0
  }
  s[0] = (s[0]! + a) | 0; s[1] = (s[1]! + b) | 0; s[2] = (s[2]! + c) | 0; s[3] = (s[3]! + d) | 0
  s[4] = (s[4]! + e) | 0; s[5] = (s[5]! + f) | 0; s[6] = (s[6]! + g) | 0; s[7] = (s[7]! + h) | 0
}

/** Pads each leaf message `0x00 || data` (at most 55 bytes) into one 16-word block. Not timed. */
export function padLeaves(leafData: readonly Uint8Array[]): Int32Array {
  const blocks = new Int32Array(leafData.length * 16)
  const buf = new Uint8Array(64)
  leafData.forEach((d, i) => {
    if (d.length > 54) throw new RangeError('yardstick leaves are one block')
    buf.fill(0)
    buf.set(d, 1)
    buf[d.length + 1] = 0x80
    const bits = (d.length + 1) * 8
    buf[62] = bits >>> 8
    buf[63] = bits & 255
    for (let k = 0; k < 16; k++) blocks[i * 16 + k] = (buf[4 * k]! << 24) | (buf[4 * k + 1]! << 16) | (buf[4 * k + 2]! << 8) | buf[4 * k + 3]!
  })
  return blocks
}

/** Leaf hashes of pre-padded one-block leaves, as words (8 per leaf). */
export function yardstickLeaves(blocks: Int32Array, n: number, out = new Int32Array(n * 8)): Int32Array {
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 16; k++) w[k] = blocks[i * 16 + k]!
    for (let k = 0; k < 8; k++) s[k] = H0[k]!
    rounds()
    out.set(s, i * 8)
  }
  return out
}

/** Reduces n leaf hashes (words) to the tree head in place; returns the head's 8 words. */
export function yardstickNodes(words: Int32Array, n: number): Int32Array {
  let m = n
  while (m > 1) {
    const pairs = m >> 1
    for (let p = 0; p < pairs; p++) {
      const l = p * 16
      w[0] = 0x01000000 | (words[l]! >>> 8)
      for (let k = 1; k < 16; k++) w[k] = (words[l + k - 1]! << 24) | (words[l + k]! >>> 8)
      const last = words[l + 15]! << 24
      for (let k = 0; k < 8; k++) s[k] = H0[k]!
      rounds()
      w[0] = last | 0x00800000
      w.fill(0, 1, 15)
      w[15] = 520
      rounds()
      words.set(s, p * 8)
    }
    if (m & 1) words.copyWithin(pairs * 8, (m - 1) * 8, m * 8)
    m = pairs + (m & 1)
  }
  return words.subarray(0, 8)
}

/** The whole yardstick: leaves then nodes. */
export function yardstickRoot(blocks: Int32Array, n: number): Int32Array {
  return yardstickNodes(yardstickLeaves(blocks, n), n)
}
