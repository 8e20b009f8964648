// CHECK_NAMES is exact: every check name `verify` (core and Node's `online`) reports over the tamper
// table, the hostile inputs and the policy cases below is listed, and every listed name is reported by
// one of them. (The types already refuse an unlisted name in src/: `check()` takes a CheckName.)
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkReceipt, commit, drawFromBlock, makeReceipts, verify as coreVerify, type CheckName, type VerifyOptions } from '../../src/core/index.js'
import { CHECK_NAMES } from '../../src/core/check-names.js'
import type { PanelOutcomeJson } from '../../src/core/sortition/index.js'
import { withOriginal } from '../../src/core/kinds/index.js'
import { rerollDraw, withKinds } from '../../src/core/kinds/index.js'
import { panelReplacementDraw } from '../../src/core/sortition/index.js'
import { panelLotteryDraw } from '../../src/core/sortition/index.js'
import { panelDraw } from '../../src/core/sortition/index.js'
import { RECEIPT_CHECK_NAMES } from '../../src/core/formats.js'
import { PANEL_CHECK_NAMES } from '../../src/core/sortition/index.js'
import { LOTTERY_CHECK_NAMES } from '../../src/core/sortition/index.js'
import { verify as nodeVerify } from '../../src/index.js'
import { ENGINE_ONLY } from '../helpers/policy.js'
import { AFTER, CHAIN, MUTATIONS, PEOPLE, PROOFS, TARGET, type J } from '../helpers/tamper-table.js'
import { BEACON_NAME } from '../helpers/chain.js'
import { mixedProof } from '../helpers/mixed.js'
import { diceDraw, diceKind } from './kinds/dice.js'
import { proportionalQuotas, smallPool } from './sortition/fixtures.js'

const reported = new Map<string, string>()

async function run(what: string, proof: unknown, options: VerifyOptions = ENGINE_ONLY): Promise<void> {
  const r = await coreVerify(proof, options)
  for (const c of r.checks) if (!reported.has(c.name)) reported.set(c.name, what)
}

describe('CHECK_NAMES', () => {
  it('includes the built-in kinds\' own check names', () => {
    for (const name of [...PANEL_CHECK_NAMES, ...LOTTERY_CHECK_NAMES]) expect(CHECK_NAMES).toContain(name)
  })

  it('has no duplicates', () => {
    expect(new Set(CHECK_NAMES).size).toBe(CHECK_NAMES.length)
    expect(new Set(RECEIPT_CHECK_NAMES).size).toBe(RECEIPT_CHECK_NAMES.length)
  })

  it('lists every name verify reports, and verify reports every listed name', async () => {
    // The tamper table: the untampered proofs and every one-field change.
    for (const [pname, proof] of Object.entries(PROOFS)) {
      await run(pname, proof)
      for (const m of MUTATIONS) {
        if (!m.applies(proof)) continue
        const p = structuredClone(proof) as J
        m.mutate(p)
        await run(`${pname} / ${m.name}`, p)
      }
    }
    const pick = PROOFS['public pick'] as J
    await run('not a proof', null)
    // The sortition kinds, whose own checks follow `outcome`.
    const after = { sequence: AFTER, block: CHAIN[AFTER]!.cid }
    const pool = smallPool(40, [2, 3], 5)
    const quotas = proportionalQuotas(pool, 6, 1)
    const panel = panelDraw(pool, quotas, 6, { alternates: 0 })
    const panelProof = drawFromBlock(commit({ beacon: BEACON_NAME, target: TARGET, after, ...panel }).commitment, panel.participants, CHAIN[TARGET]!)
    await run('a panel', panelProof)
    const households = panelDraw(pool, quotas, 6, { households: new Map(pool.respondents.map((x, i) => [x.id, `h${i % 30}`])) })
    await run('a panel with households', drawFromBlock(commit({ beacon: BEACON_NAME, target: TARGET, after, ...households }).commitment, households.participants, CHAIN[TARGET]!))
    // A panel replacement (a follow-up draw) with its original carried.
    const original = drawFromBlock(commit({ beacon: BEACON_NAME, target: 8, after, ...panel }).commitment, panel.participants, CHAIN[8]!)
    const replacement = panelReplacementDraw(original, [(original.outcome as PanelOutcomeJson).members[0]!.index], original.commitmentCid)
    await run('a panel replacement', withOriginal(drawFromBlock(commit({ beacon: BEACON_NAME, target: TARGET, after, draw: replacement, participants: panel.participants }).commitment, panel.participants, CHAIN[TARGET]!), original))
    // A re-roll of a pick (a follow-up draw of its own kind): reroll-kept and reroll-never-won.
    const picked = drawFromBlock(commit({ beacon: BEACON_NAME, target: 8, after, participants: PEOPLE, draw: { kind: 'pick', count: 2 } }).commitment, PEOPLE, CHAIN[8]!)
    const reroll = rerollDraw(picked, [(picked.outcome as { readonly winners: readonly { readonly index: number }[] }).winners[0]!.index], picked.commitmentCid, 'fresh')
    await run('a re-roll', withOriginal(drawFromBlock(commit({ beacon: BEACON_NAME, target: TARGET, after, draw: reroll, participants: PEOPLE }).commitment, PEOPLE, CHAIN[TARGET]!), picked))
    const members = [8, 9].map((t) => (drawFromBlock(commit({ beacon: BEACON_NAME, target: t, after, ...panel }).commitment, panel.participants, CHAIN[t]!).outcome as PanelOutcomeJson).members.map((m) => m.entry.split('|')[0]!))
    const lottery = panelLotteryDraw(pool, quotas, members)
    await run('a panel lottery', drawFromBlock(commit({ beacon: BEACON_NAME, target: TARGET, after, ...lottery }).commitment, lottery.participants, CHAIN[TARGET]!))
    // A mixed (protocol v2) draw: its drand checks (test/helpers/mixed.ts).
    const mixed = await mixedProof()
    await run('a mixed draw', mixed.proof, mixed.trust)
    // The verifier's policy: invalid options, a pinned commitment, the default trust (no relaxing).
    await run('invalid options', pick, { trust: { beacons: [{ name: 'not a beacon name', label: 'x' }] } })
    await run('a pinned commitment', pick, { ...ENGINE_ONLY, commitment: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' })
    await run('the default policy', pick, {})
    // A user kind that breaks (throws a plain Error) stops verify with `internal`, never a throw.
    const broken = { ...diceKind, compute: () => { throw new TypeError('broken kind') } }
    const kinds = withKinds([diceKind])
    const { commitment } = commit({ beacon: BEACON_NAME, target: TARGET, after: { sequence: AFTER, block: CHAIN[AFTER]!.cid }, draw: diceDraw(3, 6), kinds })
    const dice = JSON.parse(JSON.stringify(drawFromBlock(commitment, undefined, CHAIN[TARGET]!, { kinds })))
    await run('a user kind that throws', dice, { ...ENGINE_ONLY, kinds: withKinds([broken as never]) })
    // Node's verify with `online`, against a client that cannot answer.
    const r = await nodeVerify(pick, { ...ENGINE_ONLY, online: { client: { name: BEACON_NAME, block: () => Promise.reject(new Error('down')), latest: () => Promise.reject(new Error('down')) } as never } })
    for (const c of r.checks) if (!reported.has(c.name)) reported.set(c.name, 'online')

    const names = [...reported.keys()]
    expect(names.filter((n) => !(CHECK_NAMES as readonly string[]).includes(n)), 'reported but not listed').toEqual([])
    expect(CHECK_NAMES.filter((n: CheckName) => !reported.has(n)), 'listed but never reported').toEqual([])
  })
})

describe('docs/spec.md', () => {
  it('names exactly the checks of CHECK_NAMES (the table of checks, the paragraph after it, the sortition kinds\' table)', () => {
    const spec = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'spec.md'), 'utf8')
    const section = spec.slice(spec.indexOf('| # | check | passes when | on failure |'), spec.indexOf('### Worked example'))
    const tableNames = [...section.matchAll(/^\| [0-9a-z–]+ \| ((?:`[a-z-]+`(?:, )?)+) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([a-z-]+)`/g)].map((x) => x[1]!))
    const after = section.slice(section.indexOf('An internal error'))
    const prose = [...after.matchAll(/check named `([a-z-]+)`|`(online-[a-z]+)`/g)].map((m) => (m[1] ?? m[2])!)
    expect(prose).toEqual(['internal', 'policy', 'online-blocks', 'online-chain'])
    const kindsSection = spec.slice(spec.indexOf('**Checks `verify` adds**'), spec.indexOf('### Worked vector (`test/vectors/sortition.json`'))
    const kindNames = [...kindsSection.matchAll(/^\| `[a-z-]+` \| `([a-z-]+)` \|/gm)].map((m) => m[1]!)
    // + 3: `panel-households` (a panel with a household rule), `follow-up-original` and `follow-up-link` (a panel replacement);
    // + 2: `reroll-kept` and `reroll-never-won` (a re-roll).
    expect(kindNames.length).toBe(PANEL_CHECK_NAMES.length + LOTTERY_CHECK_NAMES.length + 3 + 2)
    expect([...tableNames, ...prose, ...kindNames].sort()).toEqual([...CHECK_NAMES].sort())
  })
})

describe('RECEIPT_CHECK_NAMES', () => {
  it('lists every name checkReceipt reports, and checkReceipt reports every listed name', async () => {
    const secret = Uint8Array.from({ length: 32 }, (_, i) => 7 + i)
    const { commitment, cid } = commit({ beacon: BEACON_NAME, target: TARGET, after: { sequence: AFTER, block: CHAIN[AFTER]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, private: { secret } })
    const receipt = makeReceipts(commitment, PEOPLE, secret).receiptFor(0)
    const seen = new Set<string>()
    for (const [input, options] of [[receipt, { commitment: cid }], [{ ...receipt, index: 1 }, {}], [null, {}]] as const) {
      for (const c of checkReceipt(input, options).checks) seen.add(c.name)
    }
    expect([...seen].sort()).toEqual([...RECEIPT_CHECK_NAMES].sort())
  })
})
