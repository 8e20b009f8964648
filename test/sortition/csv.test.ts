/** Pool and quota CSV readers (the field's own formats). */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_SORTITION_ROW_BYTES, parseLotteryCsv, parsePoolCsv, parseQuotasCsv, readPoolCsv, readQuotasCsv } from '../../src/sortition/csv.js'
import { checkQuotas } from '../../src/core/sortition/pool.js'

describe('parsePoolCsv', () => {
  it('a repeated respondent id names both rows of the file', () => {
    expect(() => parsePoolCsv('id,age\nr1,young\nr2,old\nr1,old\n', { name: 'pool.csv' })).toThrow(
      expect.objectContaining({ code: 'SORTITION_POOL_INVALID', detail: 'pool.csv, row 4: respondent id "r1" appears twice: row 2 and row 4' }),
    )
  })

  it('reads an id column and one column per feature, in canonical order; a BOM is ignored', () => {
    const pool = parsePoolCsv('\uFEFFname,id,gender\nx,r2,m\ny,r1,f\n')
    expect(pool.features.map((f) => f.name)).toEqual(['gender', 'name'])
    expect(pool.respondents.map((r) => r.id)).toEqual(['r1', 'r2'])
  })

  it('uses the first column when there is no id column, or the one named', () => {
    expect(parsePoolCsv('pid,g\na,f\nb,m\n').respondents.map((r) => r.id)).toEqual(['a', 'b'])
    expect(parsePoolCsv('g,pid\nf,a\nm,b\n', { idColumn: 'pid' }).features.map((f) => f.name)).toEqual(['g'])
    expect(() => parsePoolCsv('g,pid\nf,a\n', { idColumn: 'nope' })).toThrow(expect.objectContaining({ code: 'SORTITION_POOL_INVALID' }))
  })

  it('names the file and row of a bad respondent', () => {
    expect(() => parsePoolCsv('id,g\na,f\na,m\n', { name: 'pool.csv' })).toThrow(expect.objectContaining({ code: 'SORTITION_POOL_INVALID', detail: expect.stringContaining('pool.csv') }))
    expect(() => parsePoolCsv('id,g\na,f\nb, m\n', { name: 'pool.csv' })).toThrow(expect.objectContaining({ detail: expect.stringMatching(/^pool\.csv, row 3: /) }))
    expect(() => parsePoolCsv('id,g\na,f\nb\n')).toThrow(expect.objectContaining({ code: 'INVALID_CSV' }))
    expect(() => parsePoolCsv('id,g\n')).toThrow(expect.objectContaining({ code: 'SORTITION_POOL_INVALID' }))
  })
})

describe('empty lines in a CSV', () => {
  it('an empty line between rows is refused with its line (a later "row N" would name the wrong line); empty lines at the end are not rows', () => {
    // Without the rule, the duplicate below was reported at "row 4", the file's line 5.
    expect(() => parsePoolCsv('id,age\nr1,young\n\nr2,old\nr1,old\n', { name: 'pool.csv' })).toThrow(expect.objectContaining({ code: 'INVALID_CSV', detail: 'pool.csv: line 3 is empty, between rows', path: 'line 3' }))
    expect(() => parseQuotasCsv('feature,value,min,max\ng,f,1,2\n\ng,m,1,2\n', { name: 'quotas.csv' })).toThrow(expect.objectContaining({ code: 'INVALID_CSV', detail: 'quotas.csv: line 3 is empty, between rows' }))
    expect(parsePoolCsv('id,age\nr1,young\nr2,old\n\n\n').respondents.map((r) => r.id)).toEqual(['r1', 'r2'])
    // An empty line inside a quoted value is the value's (refused as a line break in a value), not an empty line.
    expect(() => parsePoolCsv('id,note\nr1,"a\n\nb"\nr2,c\n')).toThrow(expect.objectContaining({ detail: expect.stringMatching(/^pool, row 2: entry has control character U\+000A/) }))
  })
})

describe('empty lines, any line ending (the rows are read without csv-parse\'s record context when no line break follows another)', () => {
  it('an empty line at the start or between rows is refused at its line; at the end it is ignored; inside quotes it is the value\'s', () => {
    fc.assert(
      fc.property(fc.constantFrom('\n', '\r\n', '\r'), fc.integer({ min: 1, max: 6 }), fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 3 }), fc.integer({ min: 0, max: 2 }), fc.boolean(), (eol, n, blanks, trailing, quoted) => {
        // Lines: the header, then n rows; an empty line goes before line index b (0: before the header).
        // (csv-parse counts a CRLF inside quotes as two lines, so the quoted value uses LF there: a value
        // with a line break is refused anyway, as a control character in an entry.)
        const inner = eol === '\r\n' ? '\n' : eol
        const lines = ['id,age', ...Array.from({ length: n }, (_, i) => (quoted && i === 0 ? `r${i},"x${inner}${inner}y"` : `r${i},a${i}`))]
        const at = [...new Set(blanks.filter((b) => b <= n))].sort((a, b) => a - b)
        const out: string[] = []
        lines.forEach((line, i) => {
          if (at.includes(i)) out.push('')
          out.push(line)
        })
        const text = out.join(eol) + eol + eol.repeat(trailing)
        if (at.length === 0) {
          // Only the quoted value's line breaks (refused as a control character in an entry, by row).
          if (quoted) expect(() => parsePoolCsv(text)).toThrow(expect.objectContaining({ detail: expect.stringMatching(/^pool, row 2: entry has control character/) }))
          else expect(parsePoolCsv(text).respondents).toHaveLength(n)
          return
        }
        // The first empty line's number in the file (a quoted value's line breaks count as lines).
        const extra = quoted && at[0]! >= 2 ? 2 : 0
        expect(() => parsePoolCsv(text)).toThrow(expect.objectContaining({ code: 'INVALID_CSV', path: `line ${at[0]! + 1 + extra}` }))
      }),
      { seed: 22, numRuns: 400 },
    )
  })
})

describe('a row over MAX_SORTITION_ROW_BYTES', () => {
  it('is refused as it is read, naming its row, in every sortition CSV; the widest row the limits allow is read', () => {
    const long = 'a'.repeat(MAX_SORTITION_ROW_BYTES)
    expect(() => parsePoolCsv(`id,age\nr1,young\nr2,${long}\n`, { name: 'pool.csv' })).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED', path: 'row 3', detail: 'pool.csv, row 3: over 1,025,024 bytes, the limit MAX_SORTITION_ROW_BYTES; not read further' }))
    // An unclosed quote makes the rest of the file one cell: it ends there too.
    expect(() => parseQuotasCsv(`feature,value,min,max\ng,"f,1,2\n${'g,m,1,2\n'.repeat(200_000)}`)).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED', path: 'row 2' }))
    expect(() => parseLotteryCsv(`r1,r2\n${long}x\n`)).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED', path: 'row 2' }))
    // 1,001 cells of maxEntryBytes each (the widest row the limits allow: a weight and maxPanelSize ids)
    // is exactly the bound: read (the core then judges the panel); one byte more is not.
    const cells = Array.from({ length: 1001 }, (_, i) => `${String(i).padStart(4, '0')}${'x'.repeat(1020)}`)
    const codeOf = (text: string): unknown => {
      try {
        parseLotteryCsv(text)
        return undefined
      } catch (err) {
        return (err as { code?: unknown }).code
      }
    }
    expect(codeOf(`${cells.join(',')}\n`)).not.toBe('LIMIT_EXCEEDED')
    expect(codeOf(`${cells.join(',')}y\n`)).toBe('LIMIT_EXCEEDED')
  })
})

describe('parseQuotasCsv', () => {
  it('more rows than maxFeatures x maxValuesPerFeature (1,024) is LIMIT_EXCEEDED, found without holding a million rows (it held them: 79 MB, 1.5 GB)', () => {
    const rows = (n: number): string => `feature,value,min,max\n${Array.from({ length: n }, (_, i) => `f${i >> 6},v${i & 63},0,1`).join('\n')}\n`
    expect(parseQuotasCsv(rows(1024))).toHaveLength(1024)
    expect(() => parseQuotasCsv(rows(1025), { name: 'quotas.csv' })).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED', detail: 'quotas.csv has more than 1,024 quota rows, over the limit of maxFeatures x maxValuesPerFeature = 16 x 64', path: 'row 1026' }))
    const million = `feature,value,min,max\n${'gender,v,0,1\n'.repeat(1_000_000)}`
    const before = process.memoryUsage().heapUsed
    expect(() => parseQuotasCsv(million)).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }))
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024)
  })

  it('accepts feature,value,min,max and FeatureName,ValueName,MinQuota,MaxQuota', () => {
    const a = parseQuotasCsv('feature,value,min,max\ngender,f,1,2\n')
    const b = parseQuotasCsv('FeatureName,ValueName,MinQuota,MaxQuota\ngender,f,1,2\n')
    expect(a).toEqual([{ feature: 'gender', value: 'f', min: 1, max: 2 }])
    expect(b).toEqual(a)
    // Extra columns are ignored, order is free.
    expect(parseQuotasCsv('max,note,min,value,feature\n2,x,1,f,gender\n')).toEqual(a)
  })

  it('refuses an unknown header and non-integer bounds, naming the row', () => {
    expect(() => parseQuotasCsv('category,name,lo,hi\ng,f,1,2\n')).toThrow(expect.objectContaining({ code: 'QUOTA_INVALID' }))
    expect(() => parseQuotasCsv('feature,value,min,max\ng,f,1.5,2\n')).toThrow(expect.objectContaining({ code: 'QUOTA_INVALID', path: 'row 2' }))
    expect(() => parseQuotasCsv('feature,value,min,max\ng,f,-1,2\n')).toThrow(expect.objectContaining({ code: 'QUOTA_INVALID' }))
    expect(() => parseQuotasCsv('')).toThrow(expect.objectContaining({ code: 'QUOTA_INVALID' }))
  })

  it('reads files end to end into a checked quota table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orbitdraw-sortition-'))
    writeFileSync(join(dir, 'pool.csv'), 'id,gender\na,f\nb,m\nc,f\n')
    writeFileSync(join(dir, 'quotas.csv'), 'feature,value,min,max\ngender,f,1,1\ngender,m,1,1\n')
    const pool = await readPoolCsv(join(dir, 'pool.csv'))
    const rows = await readQuotasCsv(join(dir, 'quotas.csv'))
    expect(checkQuotas(pool, rows, 2).min).toEqual([[1, 1]])
    await expect(readPoolCsv(join(dir, 'missing.csv'))).rejects.toMatchObject({ code: 'FILE_UNREADABLE' })
    writeFileSync(join(dir, 'latin1.csv'), Buffer.from([0x69, 0x64, 0x2c, 0x67, 0x0a, 0x61, 0x2c, 0xe9, 0x0a]))
    await expect(readPoolCsv(join(dir, 'latin1.csv'))).rejects.toMatchObject({ code: 'INVALID_UTF8' })
  })
})

describe('parseLotteryCsv', () => {
  it('reads one panel per row of ids, uniform weights; or a weight column under a header', async () => {
    const { parseLotteryCsv } = await import('../../src/sortition/csv.js')
    expect(parseLotteryCsv('a,b\nc,d\n')).toEqual({ panels: [['a', 'b'], ['c', 'd']], weights: [1, 1] })
    expect(parseLotteryCsv('weight,members\n3,a,b\n1,c,d\n')).toEqual({ panels: [['a', 'b'], ['c', 'd']], weights: [3, 1] })
    expect(() => parseLotteryCsv('weight\n0,a\n')).toThrow(expect.objectContaining({ code: 'LOTTERY_INVALID', path: 'row 2' }))
    expect(() => parseLotteryCsv('weight\n1.5,a\n')).toThrow(expect.objectContaining({ code: 'LOTTERY_INVALID' }))
    expect(() => parseLotteryCsv('')).toThrow(expect.objectContaining({ code: 'LOTTERY_INVALID' }))
  })
})

/**
 * The selected-panels file of the Sortition Foundation's `sortition-algorithms` (Python). Source of the
 * format: github.com/sortitionfoundation/sortition-algorithms, src/sortition_algorithms/core.py at commit
 * 1334ebc055261e3b3746b94b781dc184d9456714 (`multi_selection_to_table`: a header row
 * `Assembly 0..n-1`, then one row of ids per selection; `person_list_to_table`: `[id_column,
 * *columns_to_keep, *features]` then one row per selected person), written by adapters.py
 * `_write_csv_rows` at commit 070d5a11076c8a03f90464826305e79dbeeedf30 (`csv.writer`, QUOTE_MINIMAL,
 * Python's default CRLF line ends). The samples below are those bytes: four selections of a 4-person
 * panel from `lottery_rounding` (which may repeat a panel), one id quoted because it holds a comma.
 */
const SELECTIONS = ['Assembly 0,Assembly 1,Assembly 2,Assembly 3', 'p0007,p0012,"p0031,b",p0044', 'p0003,p0012,p0027,p0044', 'p0007,p0012,"p0031,b",p0044', 'p0002,p0018,p0027,p0040', ''].join('\r\n')
const SELECTED = ['id,first_name,last_name,gender,age', 'p0007,Ann,Okafor,Female,16-29', 'p0012,Bilal,"Hussain, Jr",Male,30-44', 'p0031,Chen,Wei,Male,45-59', ''].join('\r\n')

describe('parseSortitionAlgorithmsCsv (sortition-algorithms selected-panels file)', () => {
  it('reads its several-selections file: one panel per row after the Assembly header, a repeated panel kept as a second ticket', async () => {
    const { parseSortitionAlgorithmsCsv, parseLotteryCsv } = await import('../../src/sortition/csv.js')
    const r = parseSortitionAlgorithmsCsv(SELECTIONS)
    expect(r.format).toBe('selections')
    expect(r.panels).toEqual([
      ['p0007', 'p0012', 'p0031,b', 'p0044'],
      ['p0003', 'p0012', 'p0027', 'p0044'],
      ['p0007', 'p0012', 'p0031,b', 'p0044'],
      ['p0002', 'p0018', 'p0027', 'p0040'],
    ])
    expect(r.weights).toEqual([1, 1, 1, 1])
    // the portfolio reader (the CLI's lottery file) recognises the same file; a BOM is ignored
    expect(parseLotteryCsv(`\uFEFF${SELECTIONS}`)).toEqual({ panels: r.panels, weights: r.weights })
  })

  it('reads its one-selection file: the ids of the id column, the header kept', async () => {
    const { parseSortitionAlgorithmsCsv } = await import('../../src/sortition/csv.js')
    expect(parseSortitionAlgorithmsCsv(SELECTED)).toEqual({ format: 'selected', panels: [['p0007', 'p0012', 'p0031']], weights: [1], columns: ['id', 'first_name', 'last_name', 'gender', 'age'] })
    expect(parseSortitionAlgorithmsCsv(SELECTED, { idColumn: 'first_name' }).panels).toEqual([['Ann', 'Bilal', 'Chen']])
  })

  it('the imported panels go straight into the core lottery checks', async () => {
    const { parseSortitionAlgorithmsCsv, parsePoolCsv, parseQuotasCsv } = await import('../../src/sortition/csv.js')
    const { checkLotteryPanels } = await import('../../src/core/sortition/index.js')
    const ids = ['p0002', 'p0003', 'p0007', 'p0012', 'p0018', 'p0027', '"p0031,b"', 'p0040', 'p0044']
    const pool = parsePoolCsv(`id,gender\n${ids.map((id, i) => `${id},${i % 2 === 0 ? 'f' : 'm'}`).join('\n')}\n`)
    const table = checkQuotas(pool, parseQuotasCsv('feature,value,min,max\ngender,f,1,3\ngender,m,1,3\n'), 4)
    const { panels } = parseSortitionAlgorithmsCsv(SELECTIONS)
    expect(checkLotteryPanels(pool, table, 4, panels)).toEqual([])
    expect(checkLotteryPanels(pool, table, 3, panels).map((p) => p.check)).toEqual(['PANEL_SIZE', 'PANEL_SIZE', 'PANEL_SIZE', 'PANEL_SIZE'])
  })

  it('refuses a truncated or edited file with a typed error naming the row', async () => {
    const { parseSortitionAlgorithmsCsv, parseLotteryCsv } = await import('../../src/sortition/csv.js')
    const lines = SELECTIONS.split('\r\n')
    // a selection row lost: the header names 4
    expect(() => parseSortitionAlgorithmsCsv(lines.slice(0, 4).join('\r\n'), { name: 'selected.csv' })).toThrow(expect.objectContaining({ code: 'LOTTERY_INVALID', detail: expect.stringContaining('selected.csv: the header names 4 selection(s)'), path: 'row 5' }))
    expect(() => parseLotteryCsv(lines.slice(0, 4).join('\r\n'))).toThrow(expect.objectContaining({ code: 'LOTTERY_INVALID' }))
    // an emptied id
    expect(() => parseSortitionAlgorithmsCsv(SELECTIONS.replace('p0003', ''))).toThrow(expect.objectContaining({ code: 'LOTTERY_INVALID', path: 'row 3' }))
    // a header out of order is not the package's: read as ids by the portfolio reader, refused here as a one-selection file of the wrong width
    expect(parseLotteryCsv('Assembly 1,Assembly 0\na,b\n').panels[0]).toEqual(['Assembly 1', 'Assembly 0'])
    expect(() => parseSortitionAlgorithmsCsv('Assembly 1,Assembly 0\na,b,c\n')).toThrow(expect.objectContaining({ code: 'INVALID_CSV', path: 'row 2' }))
    expect(() => parseSortitionAlgorithmsCsv(SELECTED, { idColumn: 'nope' })).toThrow(expect.objectContaining({ code: 'LOTTERY_INVALID', path: 'row 1' }))
    expect(() => parseSortitionAlgorithmsCsv('id,gender\r\n')).toThrow(expect.objectContaining({ code: 'LOTTERY_INVALID' }))
    expect(() => parseSortitionAlgorithmsCsv('')).toThrow(expect.objectContaining({ code: 'LOTTERY_INVALID' }))
    expect(() => parseSortitionAlgorithmsCsv('Assembly 0\r\n"p1\r\n')).toThrow(expect.objectContaining({ code: 'INVALID_CSV' }))
  })

  it('reads the file from disk', async () => {
    const { readSortitionAlgorithmsCsv } = await import('../../src/sortition/csv.js')
    const dir = mkdtempSync(join(tmpdir(), 'orbitdraw-sa-'))
    writeFileSync(join(dir, 'selected.csv'), SELECTIONS)
    expect((await readSortitionAlgorithmsCsv(join(dir, 'selected.csv'))).panels).toHaveLength(4)
    await expect(readSortitionAlgorithmsCsv(join(dir, 'none.csv'))).rejects.toMatchObject({ code: 'FILE_UNREADABLE' })
  })
})
