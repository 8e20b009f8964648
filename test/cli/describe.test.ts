/**
 * The CLI's outcome lines (`draw` and `verify`, src/cli/commands/describe.ts) for every display
 * layout, through test-only kinds: `teams` (sections: a ranked list, a table, values) and `dice`
 * (values). Table columns line up in terminal columns (wide characters count 2), every cell is
 * escaped before it is measured, an emphasised cell carries ✓/✗, long tables are cut at 50 rows,
 * and the built-in layouts print as before.
 */
import fc from 'fast-check'
import stringWidth from 'string-width'
import { describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { verify } from '../../src/core/verify.js'
import { withKinds } from '../../src/core/kinds/registry.js'
import { type OutcomeBase } from '../../src/core/kinds/kind.js'
import { type Proof } from '../../src/core/proof.js'
import { cellWidth, describeOutcome, MAX_PRINTED_ROWS } from '../../src/cli/commands/describe.js'
import { formatResult } from '../../src/cli/commands/verify.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { diceDraw, diceKind } from '../core/kinds/dice.js'
import { teamsDraw, teamsKind, type TeamsOutcomeJson } from '../core/kinds/teams.js'
import type { DrawKind, DrawSpecBase, OutcomeDisplay } from '../../src/core/kinds/kind.js'

const kinds = withKinds([teamsKind, diceKind])
const chain = buildChain(14, 'describe')

function proofOf(draw: ReturnType<typeof teamsDraw>, participants: readonly string[] | undefined): Proof {
  const { commitment } = commit({ beacon: BEACON_NAME, target: 11, after: { sequence: 8, block: chain[8]!.cid }, ...(participants === undefined ? {} : { participants }), draw, label: 'layouts', kinds })
  return drawFromBlock(commitment, participants, chain[11]!, { kinds })
}

// CJK names (2 columns each in a terminal), an accented one, and one with markup
const MEMBERS = ['王秀英', 'José Ñúñez', 'Zoë', '<b>bold</b>', 'Anna-Lena Müller-Lüdenscheidt', '佐藤 花子', 'Ali', 'Kwame Mensah', 'Ngozi', 'Li Wei']

/** A kind whose display is whatever the test gives it (the outcome carries nothing). */
function showing(d: OutcomeDisplay): DrawKind<DrawSpecBase, OutcomeBase, OutcomeBase> {
  return { ...(diceKind as unknown as DrawKind<DrawSpecBase, OutcomeBase, OutcomeBase>), name: 'shown', display: () => d }
}
const linesOf = (d: OutcomeDisplay): string[] => describeOutcome({ kind: 'shown' }, '', withKinds([showing(d)]))

/** The terminal column at which each cell of a printed table row starts (cells are separated by 2+ spaces). */
function starts(line: string): number[] {
  const out: number[] = []
  const re = /(?:^ *|\s{2,})(\S)/g
  for (let m = re.exec(line); m !== null; m = re.exec(line)) out.push(stringWidth(line.slice(0, m.index + m[0].length - 1)))
  return out
}

describe('CLI outcome lines: sections and tables', () => {
  it('a sections display prints each titled section under the outcome title, the table aligned', () => {
    const proof = proofOf(teamsDraw(3), MEMBERS)
    const lines = describeOutcome(proof.outcome, '', kinds)
    const o = proof.outcome as unknown as TeamsOutcomeJson
    const captains = [0, 1, 2].map((t) => o.order[t]!)
    expect(lines.slice(0, 5)).toEqual(['teams:', '  Captains:', ...captains.map((c) => `       ${c.rank}. ${c.entry}  (position ${c.index + 1})`)])
    const t = lines.indexOf('  Team sizes:')
    expect(lines[t + 1]).toBe('    even: a team of even size can pair up')
    const table = lines.slice(t + 2, t + 2 + 2 + 3)
    expect(table[0]).toMatch(/^ {4}Team {2,}Members {2}Captain {2,}Even$/)
    expect(table[1]).toMatch(/^ {4}─+ {2}─+ {2}─+ {2}─+$/)
    // every row's cells start in the header's columns, in terminal columns (CJK = 2)
    const left = (line: string): number[] => starts(line).filter((_, i) => i !== 1) // Members is right-aligned
    for (const row of table.slice(2)) expect(left(row)).toEqual(left(table[0]!))
    // the Members column is right-aligned: its cells end where the header ends
    const membersEnd = stringWidth(table[0]!.slice(0, table[0]!.indexOf('Members') + 'Members'.length))
    for (const [i, row] of table.slice(2).entries()) {
      const size = o.order.filter((_, j) => j % 3 === i).length
      const m = /^ {4}team \d +(\d+) {2}/.exec(row)
      expect(Number(m?.[1])).toBe(size)
      expect(stringWidth(m![0].slice(0, -2))).toBe(membersEnd)
      expect(row.endsWith(size % 2 === 0 ? 'yes ✓' : 'no ✗')).toBe(true)
    }
    expect(lines.at(-1)).toBe(`  Sizes: ${[4, 3, 3].join(', ')}`)
    expect(lines.every((l) => l === l.trimEnd())).toBe(true)
  })

  it('escapes every cell before measuring it: terminal codes never reach the output, columns still line up', () => {
    const lines = linesOf({
      layout: 'table',
      title: 'Quotas \u001b[2J',
      note: 'note \u202E',
      columns: [{ label: 'Feature\u0007' }, { label: 'Min', align: 'right' }, { label: 'OK' }],
      rows: [
        ['gender\u001b[31m', '10', { text: 'yes\u2028', tone: 'ok' }],
        ['age \\u{1b} literal', '7', { text: 'no', tone: 'bad' }],
      ],
    })
    const all = lines.join('\n')
    // eslint-disable-next-line no-control-regex
    expect(all).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u2028\u202e]/)
    expect(lines[0]).toBe('quotas \\u{1b}[2j:')
    expect(lines[1]).toBe('  note \\u{202e}')
    expect(lines[2]).toMatch(/^ {2}Feature\\u\{7\} {2,}Min {2}OK$/)
    expect(lines[4]).toMatch(/^ {2}gender\\u\{1b\}\[31m {2,}10 {2}yes\\u\{2028\} ✓$/)
    // a literal "\u{" in the text is doubled so it cannot pass for an escape
    expect(lines[5]).toContain('age \\\\u{1b} literal')
    const left = (line: string): number[] => starts(line).filter((_, i) => i !== 1) // Min is right-aligned
    expect(left(lines[4]!)).toEqual(left(lines[2]!))
    expect(left(lines[5]!)).toEqual(left(lines[2]!))
  })

  it('cuts a long table at 50 rows and counts the rest; a short row gets empty cells', () => {
    const rows = Array.from({ length: 120 }, (_, i) => [`row ${i + 1}`, String(i)])
    const lines = linesOf({ layout: 'table', title: 'Big', columns: [{ label: 'Name' }, { label: 'N', align: 'right' }, { label: 'Extra' }], rows })
    expect(lines).toHaveLength(1 + 2 + MAX_PRINTED_ROWS + 1)
    expect(lines.at(-1)).toBe('  … 70 more (use --json)')
    expect(lines[3]).toMatch(/^ {2}row 1 {2,}0$/)
  })

  it('the built-in layouts print as before: values on one line, ranked rows with 1-based positions', () => {
    const dice = proofOf(diceDraw(4, 6), undefined)
    expect(describeOutcome(dice.outcome, '', kinds)).toEqual([`faces: ${(dice.outcome as unknown as { faces: number[] }).faces.join(', ')}`])
    const lines = describeOutcome({ kind: 'pick', winners: [{ rank: 1, index: 4, entry: 'e\u001b' }, { rank: 2, index: 0, entry: 'a' }] } as OutcomeBase, ' (claimed, not verified)')
    expect(lines).toEqual(['winners (claimed, not verified):', '     1. e\\u{1b}  (position 5)', '     2. a  (position 1)'])
    expect(describeOutcome({ kind: 'nope' }, '')).toEqual(['outcome: a nope draw (unknown kind)'])
  })

  it('verify prints the sections under the verdict, and a claimed outcome of a failed proof as such', async () => {
    const proof = proofOf(teamsDraw(3), MEMBERS)
    const ok = formatResult(await verify(proof, { kinds, allowUnsigned: true, allowUntimestamped: true }), undefined, kinds)
    expect(ok).toMatch(/^ {2}teams:\n {4}Captains:$/m)
    expect(ok).toMatch(/^ {6}Team {2,}Members {2}Captain {2,}Even$/m)
    const bad = structuredClone(proof) as unknown as { outcome: TeamsOutcomeJson & { order: { entry: string }[] } }
    bad.outcome.order[0]!.entry = 'forged\u001b[2J'
    const failed = formatResult(await verify(bad, { kinds, allowUnsigned: true, allowUntimestamped: true }), undefined, kinds)
    expect(failed).toMatch(/^ {2}teams \(claimed, not verified\):$/m)
    expect(failed).toContain('forged\\u{1b}[2J')
    // eslint-disable-next-line no-control-regex
    expect(failed).not.toMatch(/\u001b/)
    expect(failed).toMatch(/^✗ outcome /m)
  })

  it('cellWidth (printable ASCII and the ✓/✗ marks counted without string-width) equals string-width on any string', () => {
    const marks = fc.constantFrom('✓', '✗')
    const ascii = fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), marks) })
    fc.assert(fc.property(ascii, (s) => cellWidth(s) === stringWidth(s) && cellWidth(s) === s.length), { seed: 15, numRuns: 500 })
    fc.assert(fc.property(fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), (s) => cellWidth(s) === stringWidth(s)), { seed: 16, numRuns: 500 })
    for (const s of ['', 'abc', '王秀英', 'José', 'e\u0301', '👩‍👩‍👧', 'a\tb', '✓ ok', '\u00ad']) expect(cellWidth(s), s).toBe(stringWidth(s))
  })
})
