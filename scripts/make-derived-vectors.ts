/**
 * Writes test/vectors/derived.json: test vectors for the local `derived` source
 * (src/rest/derived.ts). Run with `npx tsx scripts/make-derived-vectors.ts`; pass `--check` to compare
 * with the committed file instead of writing it (exit 1 on a difference).
 *
 * The vectors are computed by the implementation under test; test/rest/derived.test.ts checks them
 * byte-exactly AND re-derives them with an independent BIP32 implementation written directly on
 * @noble/curves + @noble/hashes, and checks the published BIP32 test vector 4 (whose seed is 32 bytes).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8Encode } from '../src/core/bytes.js'
import { derivedPublicKey, derivedValue } from '../src/rest/derived.js'

const SEEDS: { name: string; seed: Uint8Array }[] = [
  { name: 'all zero bytes', seed: new Uint8Array(32) },
  { name: 'bytes 0x00..0x1f', seed: Uint8Array.from({ length: 32 }, (_, i) => i) },
  { name: 'all 0xff bytes', seed: new Uint8Array(32).fill(0xff) },
  { name: 'BIP32 test vector 4 seed', seed: hex('3ddd5602285899a946114506157c7997e5444528f3003f6134712147db19b678') },
  { name: 'SHA-256("orbitdraw derived vector")', seed: sha256(utf8Encode('orbitdraw derived vector')) },
]
const INDICES = [0, 1, 2, 3, 10, 1000, 0x7fff_ffff]

function hex(s: string): Uint8Array {
  return Uint8Array.from(s.match(/../g)!.map((b) => parseInt(b, 16)))
}

export function makeVectors(): unknown {
  return {
    description:
      'Local derived source: value(seed, i) = SHA-256(compressed secp256k1 public key of BIP32 child m/i\' of HDKey.fromMasterSeed(seed)). ' +
      'seed: 32 bytes hex; index: i; publicKey: 33-byte compressed public key of m/i\' (hex); value: 32-byte output (hex).',
    generator: 'scripts/make-derived-vectors.ts',
    vectors: SEEDS.map(({ name, seed }) => ({
      name,
      seed: bytesToHex(seed),
      values: INDICES.map((index) => ({
        index,
        publicKey: bytesToHex(derivedPublicKey(seed, index)),
        value: bytesToHex(derivedValue(seed, index)),
      })),
    })),
  }
}

const here = dirname(fileURLToPath(import.meta.url))
const out = join(here, '..', 'test', 'vectors', 'derived.json')
const text = JSON.stringify(makeVectors(), null, 2) + '\n'
if (process.argv.includes('--check')) {
  const current = readFileSync(out, 'utf8')
  if (current !== text) {
    console.error(`${out} is out of date: run npx tsx scripts/make-derived-vectors.ts`)
    process.exit(1)
  }
  console.log(`${out} is up to date`)
} else {
  writeFileSync(out, text)
  console.log(`wrote ${out}`)
}
