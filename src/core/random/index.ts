/**
 * Sampling primitives: a deterministic cryptographic byte stream from a 32-byte seed, exact uniform
 * integers by rejection, forward Fisher–Yates shuffle and O(k) pick, ranges with or without repetition,
 * and weighted picks. Every function is deterministic in the stream and uses only exact integer
 * arithmetic; `docs/spec.md (Randomness stream and sampling)` states the byte-exact rules.
 *
 * @module
 */
export { streamFromSeed, type RandomStream } from './stream.js'
export { uniformIndex, uniformBigInt } from './uniform.js'
export { shuffleIndices, shuffle, pickIndices } from './shuffle.js'
export { rangeValues } from './range.js'
export { weightedPick } from './weighted.js'
