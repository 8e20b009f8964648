/**
 * Checking time-stamp tokens: an honest token (the emulator authority's: root, TSA certificate, ECDSA
 * P-256) beside hostile ones measured in the same run (issue 23, item 1): the report's token (15 CA
 * certificates with one subject and one key, all signing each other: refused as duplicates), the same
 * with 15 distinct keys (refused by the counted cost), a 3-name grid of 9 CA certificates with one key
 * (every signature valid: the most checks one token can need, 28), and a proof's worst: 16 such tokens
 * (the per-proof budget, 128 checks); and the most pure-JavaScript work: 15 CA certificates none of
 * which signed the TSA certificate (every check invalid: Web Crypto, then `@noble/curves`), one token and
 * a proof of 16. Before the bound, a 7-certificate version of the report's token
 * took 3,619 chain signature checks and the 15-certificate one about 400,000 (minutes).
 */
import { timePair, type BenchRow } from './harness.js'
import { checkCommitmentTime } from '../src/core/timestamp/check.js'
import { parseTrustAnchor } from '../src/core/timestamp/anchor.js'
import { LIMITS } from '../src/core/limits.js'
import { DEADLINE, DIGEST, hostileToken, honestToken, invalidEdgesToken, nameGridToken } from '../test/helpers/hostile-tokens.js'

export default async function (): Promise<BenchRow[]> {
  const honest = honestToken()
  const anchors = [parseTrustAnchor(honest.tsa.rootPem)]
  const run = async (tokens: Uint8Array[]): Promise<number> => {
    const r = await checkCommitmentTime({ tokens, digest: DIGEST, deadline: DEADLINE, anchors })
    return r.tokens.reduce((n, t) => n + t.signatureChecks, 0)
  }
  const baseline = async (): Promise<void> => {
    if ((await checkCommitmentTime({ tokens: [honest.token], digest: DIGEST, deadline: DEADLINE, anchors })).status !== 'ok') throw new Error('the honest token does not verify')
  }
  const cases: [string, Uint8Array[]][] = [
    ['report\'s token: 15 CAs, one subject, one key (duplicates)', [hostileToken(15, true).token]],
    ['15 CAs, one subject, distinct keys (cost 226 > 32)', [hostileToken(15, false).token]],
    ['9 CAs, one key, 3-name grid (28 valid checks)', [nameGridToken(3).token]],
    ['15 CAs none of which signed the TSA certificate (15 invalid checks, pure JS)', [invalidEdgesToken(15).token]],
    [`a proof of ${LIMITS.maxTimestampTokens} such tokens (budget ${LIMITS.maxTimestampSignatureChecksPerProof} checks)`, Array.from({ length: LIMITS.maxTimestampTokens }, (_, i) => invalidEdgesToken(15, `bench flat ${i}`).token)],
    [`a proof of ${LIMITS.maxTimestampTokens} grid tokens (budget ${LIMITS.maxTimestampSignatureChecksPerProof} checks)`, Array.from({ length: LIMITS.maxTimestampTokens }, (_, i) => nameGridToken(3, `bench ${i}`).token)],
  ]
  const rows: BenchRow[] = []
  for (const [name, tokens] of cases) {
    const checks = await run(tokens)
    const r = await timePair(() => run(tokens), baseline, 7, 2)
    // A token: under a quarter of a second; a whole proof at its budget (128 checks, all pure JS at worst): under 2 s.
    const limit = tokens.length === 1 ? 250 : 2000
    rows.push({ name: `checkCommitmentTime, ${name}: ${checks} signature checks`, value: r.value, unit: 'ms', baseline: { name: 'one honest token, 2 checks', value: r.baseline }, goal: `< ${limit} ms`, met: r.value < limit })
  }
  return rows
}
