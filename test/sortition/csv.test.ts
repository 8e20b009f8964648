/** Pool and quota CSV readers (the field's own formats). */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parsePoolCsv, parseQuotasCsv, readPoolCsv, readQuotasCsv } from '../../src/sortition/csv.js'
import { checkQuotas } from '../../src/core/sortition/index.js'

describe('parsePoolCsv', () => {
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

describe('parseQuotasCsv', () => {
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
