/**
 * The verify worker's side of the lazily loaded pairing code. The page's build puts this module in
 * place of src/core/drand/pairing.ts inside the verify worker, so the worker carries no BLS12-381
 * code: for a mixed (protocol v2) proof, `checkRoundSignature` asks the page, which starts the pairing
 * worker (pairing-worker.ts, a second `blob:` worker built from its own inlined data block) on that
 * first request only and relays the answer. A version 1 proof never asks, so the pairing worker never
 * starts.
 *
 * @module
 */
import type { DrandRound } from '../core/drand/beacon.js'
import type { DrandChainInfo } from '../core/drand/chain.js'
import { InvalidInputError } from '../core/errors.js'

/** Verify worker → page (→ pairing worker): check one round's signature under one public key. */
export interface PairingRequest {
  readonly type: 'pairing'
  readonly id: number
  readonly publicKey: string
  readonly round: number
  readonly signature: string
}

/** Pairing worker → page → verify worker: the answer, or the typed error `verifyRoundSignature` threw. */
export type PairingAnswer =
  | { readonly type: 'pairing-result'; readonly id: number; readonly ok: boolean }
  | { readonly type: 'pairing-result'; readonly id: number; readonly error: { readonly code: string; readonly detail: string; readonly hint: string } }

interface Scope {
  postMessage(message: PairingRequest): void
}

const pending = new Map<number, { resolve: (ok: boolean) => void; reject: (err: Error) => void }>()
let next = 0

/** The pairing check, answered by the pairing worker through the page. */
export function checkRoundSignature(chain: Pick<DrandChainInfo, 'publicKey'>, r: DrandRound): Promise<boolean> {
  const id = ++next
  return new Promise<boolean>((resolve, reject) => {
    pending.set(id, { resolve, reject })
    ;(self as unknown as Scope).postMessage({ type: 'pairing', id, publicKey: chain.publicKey, round: r.round, signature: r.signature })
  })
}

/** Settles the request `a` answers (the verify worker's message handler calls it). */
export function answerPairing(a: PairingAnswer): void {
  const p = pending.get(a.id)
  if (p === undefined) return
  pending.delete(a.id)
  if ('ok' in a) p.resolve(a.ok)
  else p.reject(new InvalidInputError(a.error.code as 'INVALID_PUBLIC_KEY', a.error.detail, a.error.hint))
}
