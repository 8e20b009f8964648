/**
 * The verifier page's pairing worker: the BLS12-381 check of a drand round's signature
 * (`verifyRoundSignature`, @noble/curves), kept out of the verify worker so that only a mixed
 * (protocol v2) proof loads it. Bundled by scripts/build-verifier.ts into its own non-executed
 * `<script type="text/plain">` block, which the page starts as a `blob:` worker on the verify worker's
 * first request (pairing-client.ts).
 *
 * @module
 */
import { verifyRoundSignature } from '../core/drand/beacon.js'
import { OrbitdrawError } from '../core/errors.js'
import type { PairingAnswer, PairingRequest } from './pairing-client.js'

interface PairingScope {
  onmessage: ((ev: MessageEvent<PairingRequest>) => void) | null
  postMessage(message: PairingAnswer): void
}

const scope = self as unknown as PairingScope

scope.onmessage = (ev) => {
  const { id, publicKey, round, signature } = ev.data
  try {
    scope.postMessage({ type: 'pairing-result', id, ok: verifyRoundSignature({ publicKey }, { round, signature }) })
  } catch (err) {
    const e = err instanceof OrbitdrawError ? err : undefined
    scope.postMessage({ type: 'pairing-result', id, error: { code: e?.code ?? 'INVALID_PUBLIC_KEY', detail: e?.detail ?? String(err), hint: e?.hint ?? '' } })
  }
}
