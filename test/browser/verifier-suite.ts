/**
 * The shared set-up of the verifier page's two suites (`verifier.test.ts`: the page, its trust policy
 * and its checks; `verifier-reading.test.ts`: what a reader sees and can do): three proofs, the page
 * built and opened (`page-fixture.ts`), its console errors and every request it made collected, and the
 * small queries both suites read the page with. Call `useVerifierSuite` inside `describe`; end the
 * suite with `itMadeNoOtherRequests`.
 */
import { beforeAll, expect, it } from 'vitest'
import { type Proof } from '../../src/core/proof.js'
import { makeProof, TEST_TSA } from './fixtures.js'
import { INSECURE_HOST } from './harness.js'
import { useVerifierPage, type VerifierPage } from './page-fixture.js'

export const beaconOf = (p: Proof): string => (p.commitment as { beacon: string }).beacon
export const winnersOf = (p: Proof): string[] => (p.outcome.kind === 'pick' ? p.outcome.winners.map((w) => w.entry) : [])

export interface VerifierSuite {
  readonly web: VerifierPage
  /** Unsigned, naming the real Orbitport beacon: a forgery under the strict policy. */
  readonly plain: Proof
  /** Signed by a throwaway Ed25519 beacon key: a beacon nobody trusts by default. */
  readonly signed: Proof
  /** Signed by a throwaway RSA beacon key, like the real beacon's records. */
  readonly rsa: Proof
  /** Every address the page requested. */
  readonly requests: string[]
  readonly failedChecks: (p?: VerifierPage['page']) => Promise<string[]>
  readonly shownWinners: () => Promise<string[]>
  readonly tier: (p?: VerifierPage['page']) => Promise<string | null>
  /** The page's address with these link parameters. */
  readonly q: (params: Record<string, string | string[]>) => string
  /** The reader trusts the fixtures' test time-stamping root, in the trust panel (roots never come from a link). */
  readonly trustTestTsa: (p?: VerifierPage['page']) => Promise<void>
  /** No green element (verdict, pill, badge) inside a verdict box that is not the green one. */
  readonly greenInsideVerdict: () => Promise<number>
}

export function useVerifierSuite(name: string): VerifierSuite {
  let proofs: [Proof, Proof, Proof] | undefined
  const requests: string[] = []
  beforeAll(async () => {
    proofs = await Promise.all([makeProof(), makeProof({ signed: true }), makeProof({ signed: 'RSA' })])
  })
  const made = (i: 0 | 1 | 2): Proof => {
    if (proofs === undefined) throw new Error('the suite’s proofs are made in beforeAll')
    return proofs[i]
  }
  const web = useVerifierPage({ name, files: () => ({ '/proofs/signed.json': JSON.stringify(made(1)) }) })
  beforeAll(() => {
    const { built } = web
    console.log(`verifier page: ${(built.page.gzip / 1024).toFixed(1)} KiB min+gzip (page script ${(built.js.gzip / 1024).toFixed(1)}, worker ${(built.worker.gzip / 1024).toFixed(1)})`)
    web.page.on('console', (m) => {
      if (m.type() === 'error') web.pageErrors.push(m.text())
    })
    web.page.on('request', (r) => requests.push(r.url()))
  })
  return {
    web,
    get plain() {
      return made(0)
    },
    get signed() {
      return made(1)
    },
    get rsa() {
      return made(2)
    },
    requests,
    failedChecks: (p = web.page) => p.locator('#checks li[data-ok="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check') ?? '')),
    shownWinners: () => web.page.locator('#outcome tr.winner td.entry').allTextContents(),
    tier: (p = web.page) => p.locator('#verdict').getAttribute('data-tier'),
    q: (params) => {
      const s = new URLSearchParams()
      for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) s.append(k, x)
      return `${web.url}?${s.toString()}`
    },
    trustTestTsa: async (p = web.page) => {
      if ((await p.locator('#trust').getAttribute('open')) === null) await p.locator('#trust summary').click()
      await p.locator('#trust-tsa').fill(TEST_TSA.rootPem)
    },
    greenInsideVerdict: () => web.page.locator('#verdict .auth-yes, #verdict .state-ok, #verdict.verdict-verified').count(),
  }
}

/** The last test of a suite: the page requested nothing beyond itself and the linked proof, and logged no errors. */
export function itMadeNoOtherRequests(suite: VerifierSuite): void {
  it('made no request beyond the page itself and the linked proof, and logged no errors', () => {
    const { web, requests } = suite
    const origins = [new URL(web.url).origin, `http://${INSECURE_HOST}:${new URL(web.url).port}`]
    expect(requests.filter((u) => !origins.some((o) => u.startsWith(o)) && !u.startsWith('blob:'))).toEqual([])
    expect(web.pageErrors).toEqual([])
  })
}
