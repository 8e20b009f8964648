/** The commitment file (commitment + CID + time-stamp tokens) and the proof's `timestamps` field. */
import { describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { commitmentFile, parseCommitmentFile } from '../../src/core/commitment-file.js'
import { LIMITS } from '../../src/core/limits.js'
import { parseTimestamps } from '../../src/core/proof.js'

const result = commit({ beacon: 'k51qzi5uqu5dj9ve6xwd6zyzm0yx6tm0x0kkqrkvmnxw4c7x2otyb8ooszkpbx', target: 100, after: { sequence: 90, block: 'bafkreial7oeangta7hakknhzsjzja4k2sehnsykx2u7bm6wdz46ug42me4' }, participants: ['a', 'b'], draw: { kind: 'pick', count: 1 } })

describe('commitment file', () => {
  it('round-trips with its tokens; a bare commitment is read with none', () => {
    const text = JSON.stringify(commitmentFile(result, ['AAEC']))
    const f = parseCommitmentFile(text)
    expect(f).toMatchObject({ cid: result.cid, timestamps: ['AAEC'] })
    expect(f.commitment).toEqual(result.commitment)
    const bare = parseCommitmentFile(JSON.stringify(result.json))
    expect(bare).toMatchObject({ cid: result.cid, timestamps: [] })
  })
  it('refuses a CID that is not the commitment\'s, unknown keys, bad tokens, by path', () => {
    const good = commitmentFile(result, [])
    expect(() => parseCommitmentFile(JSON.stringify({ ...good, cid: 'bafkreial7oeangta7hakknhzsjzja4k2sehnsykx2u7bm6wdz46ug42me4' }))).toThrow(expect.objectContaining({ code: 'COMMITMENT_CID_MISMATCH' }))
    expect(() => parseCommitmentFile(JSON.stringify({ ...good, extra: 1 }))).toThrow(expect.objectContaining({ code: 'UNKNOWN_FIELD' }))
    expect(() => parseCommitmentFile(JSON.stringify({ ...good, timestamps: ['not base64!'] }))).toThrow(expect.objectContaining({ path: '$.timestamps[0]' }))
    expect(() => parseCommitmentFile(JSON.stringify({ ...good, type: 'other' }))).toThrow(expect.objectContaining({ path: '$.type' }))
  })
})

describe('parseTimestamps (proof.timestamps)', () => {
  it('bounds the count and each token\'s size before decoding', () => {
    expect(parseTimestamps(['AAEC', 'AA=='], '$.timestamps')).toEqual(['AAEC', 'AA=='])
    expect(() => parseTimestamps(Array(LIMITS.maxTimestampTokens + 1).fill('AAEC'), '$.timestamps')).toThrow()
    expect(() => parseTimestamps(['A'.repeat(Math.ceil(LIMITS.maxTimestampTokenBytes / 3) * 4 + 4)], '$.timestamps')).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED', path: '$.timestamps[0]' }))
    expect(() => parseTimestamps([''], '$.timestamps')).toThrow(expect.objectContaining({ path: '$.timestamps[0]' }))
    expect(() => parseTimestamps('AAEC', '$.timestamps')).toThrow()
  })
})
