/**
 * The spec's random stream and samplers, written literally on Node's own ChaCha20, for the vector tests'
 * independent re-implementations of docs/spec.md: ChaCha20 (key = seed, nonce 0, counter 0), rejection
 * sampling of a uniform integer, dense Fisher–Yates for a pick, linear-scan weighted pick without
 * replacement. `pos` counts the keystream bytes consumed.
 */
import { createCipheriv } from 'node:crypto'

export class SpecChaChaReference {
  pos = 0
  private readonly ks: Buffer
  /** `keystreamBytes`: how much keystream is precomputed (a reference never reads past it in the vectors). */
  constructor(seedHex: string, keystreamBytes = 1 << 16) {
    this.ks = createCipheriv('chacha20', Buffer.from(seedHex, 'hex'), Buffer.alloc(16)).update(Buffer.alloc(keystreamBytes))
  }
  uniform(n: bigint): bigint {
    if (n === 1n) return 0n
    const b = (n - 1n).toString(2).length
    const L = Math.ceil(b / 8)
    for (;;) {
      const x = BigInt(`0x${this.ks.subarray(this.pos, this.pos + L).toString('hex')}`) & ((1n << BigInt(b)) - 1n)
      this.pos += L
      if (x < n) return x
    }
  }
  pick(n: number, k: number): number[] {
    const a = Array.from({ length: n }, (_, i) => i)
    for (let i = 0; i < k; i++) {
      const j = i + Number(this.uniform(BigInt(n - i)))
      ;[a[i], a[j]] = [a[j]!, a[i]!]
    }
    return a.slice(0, k)
  }
  weighted(w: number[], k: number): number[] {
    const left = w.map((x, i) => ({ i, w: BigInt(x) }))
    const out: number[] = []
    for (let t = 0; t < k; t++) {
      const r = this.uniform(left.reduce((a, e) => a + e.w, 0n))
      let run = 0n
      const at = left.findIndex((e) => (run += e.w) > r)
      out.push(left[at]!.i)
      left.splice(at, 1)
    }
    return out
  }
}
