/**
 * The verifier page's pure parts, in Node: trust settings from a link or the panel, the page's
 * verdict tiers (green only for the strict policy), and the outcome's views (the marking of hidden
 * characters: text.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { describeVerdict, failureReason } from '../../src/core/verdict.js'
import { InvalidInputError } from '../../src/core/errors.js'
import { ORBITPORT_BEACONS, shortName } from '../../src/core/trust.js'
import { type CheckName } from '../../src/core/check-names.js'
import { type VerifyResult } from '../../src/core/verify.js'
import { carriedParticipants, CUSTOM_HEADLINE, MAX_MATCHES, MAX_ROWS, outcomeView, pageVerdict, searchEntries, verifyOptions, winnerRanks } from '../../src/verifier/model.js'
import { withKinds } from '../../src/core/kinds/registry.js'
import { type OutcomeDisplay } from '../../src/core/kinds/kind.js'
import { diceKind } from '../core/kinds/dice.js'
import { customSettings, DEFAULT_SETTINGS, parseBeaconLines, parsePemCertificates, pinOrigin, receiptTier, settingsFromQuery, settingsToQuery } from '../../src/verifier/settings.js'
import { explainChecks } from '../../src/verifier/evidence.js'
import { fr } from '../../src/verifier/messages-fr.js'

const K51 = 'k51qzi5uqu5dhj99om0uxodfb565xjhqzea3m646usrpknvc9b2b3gto9e1ch0'
const CID = 'baguqeeraypwkrkefm73pvikdp5wlkukamr6yoovlrtyyfqsg6b4qqblvkwnq'

/** A result as `verify` would return it (only the fields the page reads). */
function result(over: Partial<VerifyResult> = {}): VerifyResult {
  return {
    ok: true,
    verdict: 'verified',
    relaxed: [],
    authenticated: true,
    pinned: false,
    checks: [
      { name: 'format', ok: true, detail: 'the proof is well-formed' },
      { name: 'beacon-authenticity', ok: true, detail: 'vouched' },
      { name: 'outcome', ok: true, detail: 'follows' },
    ],
    notes: [],
    commitmentCid: CID,
    beacon: { name: ORBITPORT_BEACONS[0]!.name, trusted: true, label: ORBITPORT_BEACONS[0]!.label, source: 'default', text: 'Orbitport randomness beacon (k2k4r8lvom…)' },
    ...over,
  }
}

describe('verifier page: trust settings', () => {
  it('reads the link parameters, and never time-stamping roots', () => {
    const { settings, ignored } = settingsFromQuery(new URLSearchParams(`trust-beacon=${K51}&trust-beacon=${K51}&allow-unsigned=1&allow-untimestamped=1&commitment=${CID}&trust-tsa=https://x/root.pem&proof=p.json`))
    expect(settings).toEqual({ beacons: [K51], allowUnsigned: true, allowUntimestamped: true, tsaRoots: [], commitment: CID })
    expect(ignored).toEqual([expect.stringMatching(/^trust-tsa: ignored/)])
    expect(settingsToQuery(settings)).toBe(`trust-beacon=${K51}&allow-unsigned=1&allow-untimestamped=1&commitment=${CID}`)
  })

  it('ignores malformed link values, saying which', () => {
    const { settings, ignored } = settingsFromQuery(new URLSearchParams('trust-beacon=<script>&allow-unsigned=yes&commitment=a&commitment=b'))
    expect(settings).toEqual(DEFAULT_SETTINGS)
    expect(ignored).toHaveLength(3)
    expect(ignored.join('\n')).toMatch(/trust-beacon: ignored.*\n.*allow-unsigned: ignored \(use allow-unsigned=1/)
    expect(settingsFromQuery(new URLSearchParams('allow-unsigned=0')).settings.allowUnsigned).toBe(false)
  })

  it('reads the panel: beacon lines and PEM certificates, with typed errors', () => {
    expect(parseBeaconLines(` ${K51}\n\n${K51}\r\n`)).toEqual([K51])
    expect(() => parseBeaconLines('not a name')).toThrow(InvalidInputError)
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\nAAAA\n-----END CERTIFICATE-----\n'
    expect(parsePemCertificates(`${pem}${pem}`)).toEqual(['-----BEGIN CERTIFICATE-----\nMIIBAAAA\n-----END CERTIFICATE-----', '-----BEGIN CERTIFICATE-----\nMIIBAAAA\n-----END CERTIFICATE-----'])
    expect(() => parsePemCertificates('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----')).toThrow(/no "-----BEGIN CERTIFICATE-----" block/)
    expect(() => parsePemCertificates(`${pem}junk`)).toThrow(/outside the certificate blocks/)
  })

  it('names every non-default setting (pinning excluded) with where it came from and what to check instead', () => {
    const link = settingsFromQuery(new URLSearchParams(`trust-beacon=${K51}`)).settings
    const list = customSettings({ beacons: [K51, 'k51other'], allowUnsigned: true, allowUntimestamped: true, tsaRoots: ['pem'], commitment: CID }, link)
    expect(list.map((c) => `${c.key}:${c.origin}`)).toEqual(['trust-beacon:link', 'trust-beacon:panel', 'allow-unsigned:panel', 'allow-untimestamped:panel', 'trust-tsa:panel'])
    for (const c of list) expect(c.instead.length).toBeGreaterThan(40)
    expect(customSettings({ ...DEFAULT_SETTINGS, commitment: CID })).toEqual([])
  })

  it('maps settings to verify options: extra beacons after Orbitport’s, relaxations, pin', () => {
    const now = new Date(0)
    expect(verifyOptions(DEFAULT_SETTINGS, now)).toEqual({ now })
    const o = verifyOptions({ beacons: [K51], allowUnsigned: true, allowUntimestamped: false, tsaRoots: [], commitment: CID }, now)
    expect(o.trust?.beacons).toEqual([...ORBITPORT_BEACONS, { name: K51, label: 'a beacon added in the trust settings' }])
    expect(o.allowUnsigned).toBe(true)
    expect(o.commitment).toBe(CID)
  })
})

describe('verifier page: verdict tiers', () => {
  it('is green only for a verified result under the strict policy (a pin included)', () => {
    const v = pageVerdict(result(), DEFAULT_SETTINGS)
    expect(v).toMatchObject({ tier: 'verified', title: 'Verified', headline: 'VERIFIED: every check passed on its own evidence.' })
    expect(v.lines[0]).toBe(`Commitment ${CID}: compare it with the organizer's announcement (made before the target block).`)
    const pinned = pageVerdict(result({ pinned: true }), { ...DEFAULT_SETTINGS, commitment: CID })
    expect(pinned.tier).toBe('verified')
    expect(pinned.lines[0]).toBe(`Commitment ${CID}: the one you pinned.`)
    const pinnedByLink = pageVerdict(result({ pinned: true }), { ...DEFAULT_SETTINGS, commitment: CID }, { ...DEFAULT_SETTINGS, commitment: CID })
    expect(pinnedByLink.lines.join('\n')).toContain('pinned by the link you opened')
  })

  it('shortens an untrusted beacon name exactly as the core verdict does (13 and 14 characters included)', () => {
    for (const name of ['k51short', 'k51qzi5uqu5dh', 'k51qzi5uqu5dhj', K51]) {
      const commitment = { beacon: name, target: 7 } as unknown as VerifyResult['commitment']
      const v = pageVerdict(result({ commitment, beacon: { name, trusted: false, text: name } }), DEFAULT_SETTINGS)
      expect(v.lines).toContain(`Beacon: ${shortName(name)}, not one you trust.`)
      expect(shortName(name)).toBe(name.length > 12 ? `${name.slice(0, 10)}…` : name)
    }
  })

  it('is amber under any custom setting, even one the proof did not need', () => {
    const unused = pageVerdict(result(), { ...DEFAULT_SETTINGS, allowUnsigned: true })
    expect(unused).toMatchObject({ tier: 'custom', title: 'Verified under custom trust settings', headline: CUSTOM_HEADLINE })
    expect(unused.custom).toEqual([expect.objectContaining({ key: 'allow-unsigned', used: false })])
    const beacon = pageVerdict(result({ beacon: { name: K51, trusted: true, label: 'beacon k51qzi5uqu…', source: 'caller', text: 'beacon k51qzi5uqu… (k51qzi5uqu…)' } }), { ...DEFAULT_SETTINGS, beacons: [K51] })
    expect(beacon.tier).toBe('custom')
    expect(beacon.custom[0]!.used).toBe(true)
    const relaxed = pageVerdict(result({ verdict: 'verified-relaxed', relaxed: ['unsigned blocks allowed: …'], authenticated: false, checks: [{ name: 'beacon-authenticity', ok: true, detail: 'x', relaxedBy: 'allowUnsigned' }] }), { ...DEFAULT_SETTINGS, allowUnsigned: true })
    expect(relaxed).toMatchObject({ tier: 'custom', title: 'Not fully verified' })
    expect(relaxed.headline).toMatch(/^NOT FULLY VERIFIED/)
    expect(relaxed.custom[0]!.used).toBe(true)
  })

  it('is red when a check failed, whatever the settings, naming the failed checks', () => {
    const v = pageVerdict(result({ ok: false, verdict: 'failed', checks: [{ name: 'beacon-trusted', ok: false, detail: 'untrusted' }] }), { ...DEFAULT_SETTINGS, allowUnsigned: true })
    expect(v).toMatchObject({ tier: 'failed', title: 'Failed', headline: 'FAILED: beacon-trusted.', failed: ['beacon-trusted'] })
    expect(v.custom).toHaveLength(1)
  })

  it('explains only what was checked: no time-stamp check, no claim about when the commitment was made', () => {
    const text = explainChecks(result()).join(' ')
    expect(text).toContain('do not show when the commitment was made')
    expect(text).not.toMatch(/existed before/)
    const stamped = explainChecks(result({ checks: [...result().checks, { name: 'commitment-time', ok: true, detail: 'stamped' }] })).join(' ')
    expect(stamped).toContain('A trusted time-stamp shows that the commitment existed before its target block.')
    const relaxed = explainChecks(result({ checks: [{ name: 'commitment-time', ok: true, detail: 'x', relaxedBy: 'allowUntimestamped' }] })).join(' ')
    expect(relaxed).toContain('nothing here shows that the commitment existed before its target block')
  })
})

describe('verifier page: receipts', () => {
  it('is green only when the reader pinned the CID, never on the link\'s ?commitment= (issue 23, item 2)', () => {
    const link = settingsFromQuery(new URLSearchParams({ commitment: CID })).settings
    expect(pinOrigin(link, link)).toBe('link')
    expect(pinOrigin({ ...DEFAULT_SETTINGS, commitment: CID }, DEFAULT_SETTINGS)).toBe('reader')
    expect(pinOrigin({ ...DEFAULT_SETTINGS, commitment: CID }, { ...DEFAULT_SETTINGS, commitment: 'bagu0ther' })).toBe('reader')
    expect(pinOrigin(DEFAULT_SETTINGS, link)).toBeUndefined()
    expect(receiptTier({ ok: true, pinned: true, pinnedBy: 'reader' })).toBe('verified')
    expect(receiptTier({ ok: true, pinned: true, pinnedBy: 'link' })).toBe('custom')
    expect(receiptTier({ ok: true, pinned: true })).toBe('custom')
    expect(receiptTier({ ok: true, pinned: false })).toBe('custom')
    expect(receiptTier({ ok: false, pinned: true, pinnedBy: 'reader' })).toBe('failed')
  })
})

describe('verifier page: outcomes through the kinds', () => {
  it('shows each built-in kind through its display: ranked rows or values, cut to the page size', () => {
    const rows = Array.from({ length: 1200 }, (_, i) => ({ rank: i + 1, index: i, entry: `e${i}` }))
    expect(outcomeView({ kind: 'pick', winners: rows.slice(0, 3) } as never)).toEqual({ layout: 'ranked', title: 'Winners', rows: rows.slice(0, 3), total: 3 })
    expect(outcomeView({ kind: 'weighted', winners: rows.slice(0, 2) } as never)).toMatchObject({ layout: 'ranked', title: 'Winners', total: 2 })
    const big = outcomeView({ kind: 'shuffle', ranking: rows } as never)
    expect(big).toMatchObject({ layout: 'ranked', title: 'Ranking', total: 1200 })
    expect(big?.layout === 'ranked' && big.rows.length).toBeLessThan(1200)
    expect(outcomeView({ kind: 'range', values: ['-3', '7'] } as never)).toEqual({ layout: 'values', title: 'Values', values: ['-3', '7'], total: 2 })
    expect(outcomeView({ kind: 'lottery' } as never)).toBeUndefined()
  })

  it('tables and sections: each section cut to the page size, one cell per column, emphasis kept', () => {
    const shown = (d: OutcomeDisplay) => withKinds([{ ...(diceKind as never as typeof diceKind), name: 'shown', display: () => d } as never])
    const rows = Array.from({ length: MAX_ROWS + 20 }, (_, i) => [`f${i}`, { text: String(i), tone: i % 2 === 0 ? ('ok' as const) : ('bad' as const) }])
    const table = { layout: 'table', title: 'Quotas', note: 'n', columns: [{ label: 'Feature' }, { label: 'Selected', align: 'right' }, { label: 'Extra' }], rows } as const
    const ranked = { layout: 'ranked', title: 'Members', rows: [{ rank: 1, index: 4, entry: 'm' }, { rank: 2, index: 2, entry: 'n' }] } as const
    const kinds = shown({ layout: 'sections', title: 'Panel', sections: [{ layout: 'values', title: 'V', values: ['1'] }, table, ranked, { ...ranked, title: 'Alternates', rows: [{ rank: 1, index: 7, entry: 'z' }] }] })
    const view = outcomeView({ kind: 'shown' }, undefined, kinds)
    if (view?.layout !== 'sections') throw new Error('expected sections')
    expect(view.sections.map((x) => [x.layout, x.title, x.total])).toEqual([['values', 'V', 1], ['table', 'Quotas', MAX_ROWS + 20], ['ranked', 'Members', 2], ['ranked', 'Alternates', 1]])
    const t = view.sections[1]!
    if (t.layout !== 'table') throw new Error('expected a table')
    expect(t.rows).toHaveLength(MAX_ROWS)
    expect(t.note).toBe('n')
    expect(t.columns).toEqual([{ label: 'Feature' }, { label: 'Selected', align: 'right' }, { label: 'Extra' }])
    expect(t.rows[0]).toEqual([{ text: 'f0' }, { text: '0', tone: 'ok' }, { text: '' }])
    expect(t.rows[1]![1]).toEqual({ text: '1', tone: 'bad' })
    // the search's ranks come from the first ranked section (the members), not the alternates
    expect([...winnerRanks({ kind: 'shown' }, kinds)]).toEqual([[4, 1], [2, 2]])
    expect([...winnerRanks({ kind: 'pick', winners: [{ rank: 1, index: 3, entry: 'x' }] } as never)]).toEqual([[3, 1]])
    expect(winnerRanks({ kind: 'range', values: ['1'] } as never).size).toBe(0)
    expect(winnerRanks(undefined).size).toBe(0)
  })
})

describe('plain reading: the failure reason, weights, participants and entry search', () => {
  it('failureReason names the most telling failed check in words, and nothing when all passed', () => {
    const failed = (names: CheckName[]): VerifyResult['checks'] => names.map((name) => ({ name, ok: false, detail: `${name} detail` }))
    expect(failureReason(failed(['commitment-time', 'outcome']))).toBe('The outcome in the file is not the one the block decides: outcome detail.')
    expect(failureReason(failed(['beacon-trusted', 'outcome']))).toBe('The draw names a beacon you do not trust: beacon-trusted detail.')
    expect(failureReason(failed(['chain-links']))).toBe('Check chain-links failed: chain-links detail.')
    expect(failureReason([{ name: 'outcome', ok: true, detail: 'fine' }])).toBeUndefined()
    // a check this host could not perform is not "what is wrong"
    expect(failureReason([{ name: 'beacon-authenticity', ok: false, detail: 'no Web Crypto', uncheckable: true }])).toBeUndefined()
    // only failed verdicts carry a reason; the page passes it through
    const r = result({ ok: false, verdict: 'failed', checks: failed(['outcome']) })
    expect(describeVerdict(r).reason).toBe('The outcome in the file is not the one the block decides: outcome detail.')
    // the page words the reason itself (no option names), and shows the check's detail under it
    expect(pageVerdict(r, DEFAULT_SETTINGS)).toMatchObject({ reason: 'The outcome in the file is not the one the block decides.', reasonDetail: 'outcome detail' })
    expect(pageVerdict(r, DEFAULT_SETTINGS, DEFAULT_SETTINGS, fr).reason).toBe('Le résultat du fichier n’est pas celui que décide le bloc.')
    expect(describeVerdict(result()).reason).toBeUndefined()
    // a file that is not a readable proof is titled apart from a false draw (the CLI's exit 4 vs 1)
    expect(pageVerdict(result({ ok: false, verdict: 'failed', checks: failed(['format']) }), DEFAULT_SETTINGS).title).toBe('Not a readable proof')
    expect(pageVerdict(r, DEFAULT_SETTINGS).title).toBe('Failed')
  })

  it('weighted rows carry their weight; participants are read from what the proof carries', () => {
    const weighted = { participants: { disclosure: 'full', entries: [{ entry: 'a', weight: 2 }, { entry: 'b', weight: 5 }] } }
    const carried = carriedParticipants(weighted)
    expect(carried).toEqual({ disclosure: 'full', entries: ['a', 'b'], weights: [2, 5] })
    const view = outcomeView({ kind: 'weighted', winners: [{ rank: 1, index: 1, entry: 'b' }] } as never, carried?.weights)
    expect(view).toEqual({ layout: 'ranked', title: 'Winners', rows: [{ rank: 1, index: 1, entry: 'b', weight: 5 }], total: 1 })
    expect(carriedParticipants({ participants: { disclosure: 'winners', revealed: [] } })).toEqual({ disclosure: 'winners' })
    expect(carriedParticipants({ participants: { disclosure: 'full', entries: ['x', 'y'] } })).toEqual({ disclosure: 'full', entries: ['x', 'y'] })
    expect(carriedParticipants({})).toBeUndefined()
    expect(carriedParticipants(undefined)).toBeUndefined()
  })

  it('searchEntries: case-insensitive substring after NFC, 1-based positions, ranks, at most MAX_MATCHES shown and all counted', () => {
    const entries = ['Amara Okafor', 'José Díaz', 'amaranth', ...Array.from({ length: 120 }, (_, i) => `member ${i}`)]
    const ranks = new Map([[2, 1]])
    expect(searchEntries(entries, 'AMAR', ranks)).toEqual({ query: 'AMAR', total: 2, matches: [{ position: 1, entry: 'Amara Okafor' }, { position: 3, entry: 'amaranth', rank: 1 }] })
    // "José" typed decomposed (NFD) still finds the NFC entry
    expect(searchEntries(entries, 'Jose\u0301', ranks).matches.map((m) => m.position)).toEqual([2])
    const many = searchEntries(entries, 'member', ranks)
    expect(many.total).toBe(120)
    expect(many.matches).toHaveLength(MAX_MATCHES)
    expect(searchEntries(entries, '   ', ranks)).toEqual({ query: '   ', total: 0, matches: [] })
  })
})
