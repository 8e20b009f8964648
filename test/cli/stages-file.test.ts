// The stages file of `orbitdraw commit --stages FILE`, read as the sortition CSVs are: an empty line
// between rows is refused with its line, so a later "row N" in an error is line N of the file.
import { describe, expect, it } from 'vitest'
import { parseStagesText } from '../../src/cli/stages-file.js'

describe('stages CSV', () => {
  it('reads stages in order; empty lines at the end are ignored', () => {
    const stages = parseStagesText('name,method,count\nfirst,pick,2\nsecond,pick,1\n\n\n', 'stages.csv')
    expect(stages.map((s) => s.name)).toEqual(['first', 'second'])
  })

  it('an empty line between rows is refused with its line (it was skipped, and "row N" then named the line before)', () => {
    expect(() => parseStagesText('name,method,count\nfirst,pick,2\n\nsecond,pick,x\n', 'stages.csv')).toThrow(expect.objectContaining({ code: 'INVALID_CSV', detail: 'stages.csv: line 3 is empty, between rows' }))
  })
})
