/**
 * The deterministic cryptographic byte stream every sampler reads from.
 *
 * The stream of a 32-byte seed is the RFC 8439 ChaCha20 keystream with key = seed, nonce = 12 zero
 * bytes and the block counter starting at 0: block `i` (64 bytes) is `ChaCha20_block(seed, i, 0^12)`,
 * and the stream is blocks 0, 1, 2, ... concatenated. ChaCha20 was chosen over SHA-256 in counter mode by
 * measurement (see `docs/spec.md (Randomness stream and sampling)` and `bench/sampling.bench.ts`).
 *
 * @module
 */
import { chacha20 } from '@noble/ciphers/chacha.js'
import { InvalidInputError, LimitExceededError } from '../errors.js'

/**
 * A source of random bytes that is consumed in order.
 *
 * The samplers in this module only ever call {@link RandomStream.nextBytes}, so any implementation
 * (for example a fixed byte string in a test) can drive them; the stream made by {@link streamFromSeed}
 * additionally gets a fast path that reads straight from its keystream buffer, with identical results.
 * @category Sampling
 */
export interface RandomStream {
  /**
   * Returns the next `n` bytes of the stream (a new array the caller may keep) and advances the stream
   * by `n`. `n` must be a non-negative safe integer.
   */
  nextBytes(n: number): Uint8Array
  /** Number of bytes consumed so far (the offset of the next byte in the stream). */
  readonly consumed: number
}

/** Size of one ChaCha20 block in bytes. */
const BLOCK = 64
/**
 * Most blocks the stream can produce: counters 0 .. 2^32 - 2. RFC 8439 counters are 32-bit, and the
 * last counter value is kept unused so that no implementation has to reason about wrap-around.
 */
export const STREAM_MAX_BLOCKS = 2 ** 32 - 1
/** First keystream chunk, in bytes; chunks double up to {@link MAX_CHUNK}. */
const FIRST_CHUNK = 256
/** Largest keystream chunk, in bytes (amortizes the per-call cost). */
const MAX_CHUNK = 64 * 1024
/** Room kept in front of each chunk for up to 8 unread bytes of the previous chunk. */
const HEAD = 8
const NONCE = new Uint8Array(12)
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1

/**
 * Writes `blocks` ChaCha20 keystream blocks (RFC 8439 §2.3, nonce = 0, counters `counter ..`) into
 * `out` starting at word `o`, as native 32-bit words. Only used on little-endian hosts, where native
 * order is the RFC's little-endian serialization. Specialised for the stream: no XOR with a message,
 * rounds unrolled, so it runs about twice as fast as the general cipher (see the benchmark).
 */
function keystreamLE(key: Uint32Array, out: Uint32Array, o: number, counter: number, blocks: number): void {
  const k0 = key[0]!, k1 = key[1]!, k2 = key[2]!, k3 = key[3]!, k4 = key[4]!, k5 = key[5]!, k6 = key[6]!, k7 = key[7]!
  for (let blk = 0; blk < blocks; blk++, o += 16) {
    const c = (counter + blk) | 0
    let x00 = 0x61707865, x01 = 0x3320646e, x02 = 0x79622d32, x03 = 0x6b206574
    let x04 = k0, x05 = k1, x06 = k2, x07 = k3, x08 = k4, x09 = k5, x10 = k6, x11 = k7
    let x12 = c, x13 = 0, x14 = 0, x15 = 0
    for (let r = 0; r < 10; r++) {
      // Column round.
      x00 = (x00 + x04) | 0
      x12 ^= x00
      x12 = (x12 << 16) | (x12 >>> 16)
      x08 = (x08 + x12) | 0
      x04 ^= x08
      x04 = (x04 << 12) | (x04 >>> 20)
      x00 = (x00 + x04) | 0
      x12 ^= x00
      x12 = (x12 << 8) | (x12 >>> 24)
      x08 = (x08 + x12) | 0
      x04 ^= x08
      x04 = (x04 << 7) | (x04 >>> 25)
      x01 = (x01 + x05) | 0
      x13 ^= x01
      x13 = (x13 << 16) | (x13 >>> 16)
      x09 = (x09 + x13) | 0
      x05 ^= x09
      x05 = (x05 << 12) | (x05 >>> 20)
      x01 = (x01 + x05) | 0
      x13 ^= x01
      x13 = (x13 << 8) | (x13 >>> 24)
      x09 = (x09 + x13) | 0
      x05 ^= x09
      x05 = (x05 << 7) | (x05 >>> 25)
      x02 = (x02 + x06) | 0
      x14 ^= x02
      x14 = (x14 << 16) | (x14 >>> 16)
      x10 = (x10 + x14) | 0
      x06 ^= x10
      x06 = (x06 << 12) | (x06 >>> 20)
      x02 = (x02 + x06) | 0
      x14 ^= x02
      x14 = (x14 << 8) | (x14 >>> 24)
      x10 = (x10 + x14) | 0
      x06 ^= x10
      x06 = (x06 << 7) | (x06 >>> 25)
      x03 = (x03 + x07) | 0
      x15 ^= x03
      x15 = (x15 << 16) | (x15 >>> 16)
      x11 = (x11 + x15) | 0
      x07 ^= x11
      x07 = (x07 << 12) | (x07 >>> 20)
      x03 = (x03 + x07) | 0
      x15 ^= x03
      x15 = (x15 << 8) | (x15 >>> 24)
      x11 = (x11 + x15) | 0
      x07 ^= x11
      x07 = (x07 << 7) | (x07 >>> 25)
      // Diagonal round.
      x00 = (x00 + x05) | 0
      x15 ^= x00
      x15 = (x15 << 16) | (x15 >>> 16)
      x10 = (x10 + x15) | 0
      x05 ^= x10
      x05 = (x05 << 12) | (x05 >>> 20)
      x00 = (x00 + x05) | 0
      x15 ^= x00
      x15 = (x15 << 8) | (x15 >>> 24)
      x10 = (x10 + x15) | 0
      x05 ^= x10
      x05 = (x05 << 7) | (x05 >>> 25)
      x01 = (x01 + x06) | 0
      x12 ^= x01
      x12 = (x12 << 16) | (x12 >>> 16)
      x11 = (x11 + x12) | 0
      x06 ^= x11
      x06 = (x06 << 12) | (x06 >>> 20)
      x01 = (x01 + x06) | 0
      x12 ^= x01
      x12 = (x12 << 8) | (x12 >>> 24)
      x11 = (x11 + x12) | 0
      x06 ^= x11
      x06 = (x06 << 7) | (x06 >>> 25)
      x02 = (x02 + x07) | 0
      x13 ^= x02
      x13 = (x13 << 16) | (x13 >>> 16)
      x08 = (x08 + x13) | 0
      x07 ^= x08
      x07 = (x07 << 12) | (x07 >>> 20)
      x02 = (x02 + x07) | 0
      x13 ^= x02
      x13 = (x13 << 8) | (x13 >>> 24)
      x08 = (x08 + x13) | 0
      x07 ^= x08
      x07 = (x07 << 7) | (x07 >>> 25)
      x03 = (x03 + x04) | 0
      x14 ^= x03
      x14 = (x14 << 16) | (x14 >>> 16)
      x09 = (x09 + x14) | 0
      x04 ^= x09
      x04 = (x04 << 12) | (x04 >>> 20)
      x03 = (x03 + x04) | 0
      x14 ^= x03
      x14 = (x14 << 8) | (x14 >>> 24)
      x09 = (x09 + x14) | 0
      x04 ^= x09
      x04 = (x04 << 7) | (x04 >>> 25)
    }
    out[o] = (x00 + 0x61707865) | 0
    out[o + 1] = (x01 + 0x3320646e) | 0
    out[o + 2] = (x02 + 0x79622d32) | 0
    out[o + 3] = (x03 + 0x6b206574) | 0
    out[o + 4] = (x04 + k0) | 0
    out[o + 5] = (x05 + k1) | 0
    out[o + 6] = (x06 + k2) | 0
    out[o + 7] = (x07 + k3) | 0
    out[o + 8] = (x08 + k4) | 0
    out[o + 9] = (x09 + k5) | 0
    out[o + 10] = (x10 + k6) | 0
    out[o + 11] = (x11 + k7) | 0
    out[o + 12] = (x12 + c) | 0
    out[o + 13] = x13
    out[o + 14] = x14
    out[o + 15] = x15
  }
}

/**
 * The ChaCha20 keystream of a seed, generated in growing chunks into one reusable buffer.
 *
 * Internal: the fields are public only so that the samplers of this module can read bytes without a
 * call per byte. Nothing outside `src/core/random` should touch them.
 *
 * @internal
 */
export class ChaChaStream implements RandomStream {
  /** Keystream buffer; bytes `[pos, end)` are not consumed yet. Chunks are written from offset 8. */
  buf: Uint8Array = new Uint8Array(HEAD + MAX_CHUNK)
  /** Offset of the next unread byte in {@link ChaChaStream.buf}. */
  pos = HEAD
  /** End of the valid bytes in {@link ChaChaStream.buf}. */
  end = HEAD
  /** Stream offset of `buf[0]`. */
  private base: number
  /** Counter of the next block to generate. */
  private block: number
  /** Size of the next chunk to generate. */
  private chunk = FIRST_CHUNK
  private readonly seed: Uint8Array
  private readonly key = new Uint32Array(8)
  private readonly words: Uint32Array
  private readonly native: boolean

  /**
   * @param seed - the 32-byte key (copied).
   * @param firstBlock - first block counter; for tests of the end of the stream (the protocol uses 0).
   * @param native - use the specialised little-endian generator (default: when the host is little-endian);
   *   `false` uses `@noble/ciphers` (also the big-endian fallback).
   */
  constructor(seed: Uint8Array, firstBlock = 0, native = LITTLE_ENDIAN) {
    this.seed = Uint8Array.from(seed)
    const dv = new DataView(this.seed.buffer)
    for (let i = 0; i < 8; i++) this.key[i] = dv.getUint32(4 * i, true)
    this.words = new Uint32Array(this.buf.buffer)
    this.block = firstBlock
    this.base = firstBlock * BLOCK - HEAD
    this.native = native
  }

  /** Bytes consumed so far. */
  get consumed(): number {
    return this.base + this.pos
  }

  /**
   * Generates the next chunk of keystream. Up to 8 unread bytes `[pos, end)` are moved just in front
   * of it, so a reader may call this with a partial read pending.
   */
  refill(): void {
    const keep = this.end - this.pos
    if (keep > HEAD) throw new InvalidInputError('INTERNAL_ERROR', 'stream refill with more than 8 unread bytes', 'report this bug')
    const blocksLeft = STREAM_MAX_BLOCKS - this.block
    if (blocksLeft <= 0) {
      throw new LimitExceededError('STREAM_EXHAUSTED', `the random stream is exhausted after ${STREAM_MAX_BLOCKS} ChaCha20 blocks`, 'no draw within the documented limits needs this much randomness; reduce the draw size')
    }
    const buf = this.buf
    if (keep > 0) buf.copyWithin(HEAD - keep, this.pos, this.end)
    this.base += this.pos - (HEAD - keep)
    this.pos = HEAD - keep
    const blocks = Math.min(this.chunk / BLOCK, blocksLeft)
    const bytes = blocks * BLOCK
    if (this.native) {
      keystreamLE(this.key, this.words, HEAD / 4, this.block, blocks)
    } else {
      chacha20(this.seed, NONCE, new Uint8Array(bytes), buf.subarray(HEAD, HEAD + bytes), this.block)
    }
    this.block += blocks
    this.end = HEAD + bytes
    if (this.chunk < MAX_CHUNK) this.chunk *= 2
  }

  /** Returns the next `n` bytes as a new array. */
  nextBytes(n: number): Uint8Array {
    if (!Number.isSafeInteger(n) || n < 0) {
      throw new InvalidInputError('INVALID_ARGUMENT', `byte count must be a non-negative safe integer, got ${String(n)}`, 'pass a whole number of bytes')
    }
    const out = new Uint8Array(n)
    let o = 0
    while (o < n) {
      if (this.pos === this.end) this.refill()
      const take = Math.min(n - o, this.end - this.pos)
      out.set(this.buf.subarray(this.pos, this.pos + take), o)
      this.pos += take
      o += take
    }
    return out
  }
}

/**
 * Creates the deterministic random stream of a seed: the RFC 8439 ChaCha20 keystream with key = `seed`,
 * nonce = 12 zero bytes, block counter starting at 0.
 *
 * The stream is at most (2^32 - 1) × 64 bytes long; reading past that throws {@link LimitExceededError}
 * (`STREAM_EXHAUSTED`), far beyond what any draw within the documented limits needs.
 *
 * @param seed - exactly 32 bytes (copied; later changes to the array do not affect the stream).
 * @throws {@link InvalidInputError} (`INVALID_SEED`) when `seed` is not a 32-byte `Uint8Array`.
 * @category Sampling
 */
export function streamFromSeed(seed: Uint8Array): RandomStream {
  if (!(seed instanceof Uint8Array) || seed.length !== 32) {
    const got = seed instanceof Uint8Array ? `${seed.length} bytes` : typeof seed
    throw new InvalidInputError('INVALID_SEED', `a stream seed must be exactly 32 bytes, got ${got}`, 'pass the 32-byte seed derived for the draw')
  }
  return new ChaChaStream(seed)
}
