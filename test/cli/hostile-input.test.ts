/**
 * Hostile input through the real binary: proof files are read as bytes (an FF byte is refused, never
 * repaired into U+FFFD), and text from proofs, commitments and participants files never reaches the
 * terminal raw (an ESC sequence in a label or an entry cannot repaint the screen).
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { serializeProof } from '../../src/core/proof.js'
import { verify } from '../../src/core/verify.js'
import { makeReceipts, serializeReceipt } from '../../src/core/receipt.js'
import { OrganizerSecret } from '../../src/core/secret.js'
import { LIMITS } from '../../src/core/limits.js'
import { readParticipants } from '../../src/cli/participants-file.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { BIN, closedPort, run, runCommand, start, useWorkspace } from './helpers.js'
import { ENGINE_ONLY } from '../helpers/policy.js'

const CHAIN = buildChain(6, 'hostile')
const ESC_PAINT = '\u001b[2J\u001b[HVERIFIED'

function proofText(participants: string[], label = ''): string {
  const { commitment } = commit({ beacon: BEACON_NAME, target: 4, after: { sequence: 2, block: CHAIN[2]!.cid }, participants, draw: { kind: 'pick', count: participants.length }, label })
  return serializeProof(drawFromBlock(commitment, participants, CHAIN[4]!))
}

/** The bytes of `text` with the first U+FFFD (EF BF BD) replaced by the single byte FF. */
function withFF(text: string): Uint8Array {
  const b = Buffer.from(text, 'utf8')
  const at = b.indexOf(Buffer.from([0xef, 0xbf, 0xbd]))
  expect(at).toBeGreaterThan(0)
  return new Uint8Array(Buffer.concat([b.subarray(0, at), Buffer.from([0xff]), b.subarray(at + 3)]))
}

function noRawControls(out: string): void {
  // eslint-disable-next-line no-control-regex
  expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/)
}

const ws = useWorkspace()

describe('proof files are bytes: an FF byte in an entry is refused, not repaired', () => {
  // The entry committed is "ad\uFFFD"; the file carries the byte FF instead of its UTF-8 form EF BF BD.
  // A lenient decoder turns FF back into U+FFFD, and the tampered file would verify.
  const good = proofText(['ad\ufffd', 'bob'])
  const bad = withFF(good)

  it('library: verify(bytes) fails the format check with INVALID_UTF8 and the byte offset', async () => {
    expect((await verify(new TextEncoder().encode(good), ENGINE_ONLY)).ok).toBe(true)
    const r = await verify(bad, ENGINE_ONLY)
    expect(r.ok).toBe(false)
    expect(r.checks[0]).toMatchObject({ name: 'format', ok: false })
    expect(r.checks[0]!.detail).toMatch(/not valid UTF-8 \(first bad byte at offset [0-9]+: 0xff\)/)
  })

  it('CLI: orbitdraw verify reads the file as bytes (exit 4: not a readable proof, INVALID_UTF8), the good file verifies (exit 0)', async () => {
    await writeFile(join(ws.dir, 'good.json'), good)
    await writeFile(join(ws.dir, 'ff.json'), bad)
    const ok = await run(['verify', join(ws.dir, 'good.json'), '--allow-unsigned', '--allow-untimestamped'])
    expect(ok.code, ok.stdout + ok.stderr).toBe(0)
    const r = await run(['verify', join(ws.dir, 'ff.json'), '--allow-unsigned', '--allow-untimestamped'])
    expect(r.code, r.stdout + r.stderr).toBe(4)
    expect(r.stdout).toMatch(/✗ format .*not valid UTF-8/)
    const j = await run(['verify', join(ws.dir, 'ff.json'), '--allow-unsigned', '--allow-untimestamped', '--json'])
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: false, checks: [{ name: 'format', ok: false }] })
  })

  it('CLI: a byte order mark before a proof is refused (UNEXPECTED_BOM), and so is a commitment with FF for draw', async () => {
    await writeFile(join(ws.dir, 'bom.json'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(good)]))
    const r = await run(['verify', join(ws.dir, 'bom.json'), '--allow-unsigned', '--allow-untimestamped'])
    expect(r.code).toBe(4)
    expect(r.stdout).toMatch(/byte order mark/)
    const { json } = commit({ beacon: BEACON_NAME, target: 4, after: { sequence: 2, block: CHAIN[2]!.cid }, participants: ['a'], draw: { kind: 'pick', count: 1 }, label: 'x\ufffd' })
    await writeFile(join(ws.dir, 'c.json'), withFF(JSON.stringify(json)))
    const d = await run(['draw', join(ws.dir, 'c.json'), '-p', join(ws.dir, 'none.txt'), '-o', join(ws.dir, 'never.json')])
    expect(d.code, d.stderr).toBe(4)
    expect(d.stderr).toMatch(/commitment bytes are not valid UTF-8/)
    expect(d.stderr).toMatch(/\[INVALID_UTF8\]/)
  })
})

describe('a pipe given as a file (verify <(curl …)) is read to its end, not as an empty file', () => {
  /** Runs the binary from bash with FILE's content behind a pipe: `orbitdraw ARGS <(cat FILE) ...`. */
  const quote = (a: string): string => `'${a.replace(/'/g, "'\\''")}'`
  const piped = (before: string[], file: string, after: string[] = []) =>
    runCommand('bash', ['-c', `exec ${[process.execPath, BIN, ...before].map(quote).join(' ')} <(cat ${quote(file)}) ${after.map(quote).join(' ')}`])

  it.skipIf(process.platform === 'win32')('verify, inspect and check-receipt read a process substitution (a pipe: fstat says size 0)', async () => {
    await writeFile(join(ws.dir, 'pipe-proof.json'), proofText(['ada', 'bob']))
    const v = await piped(['verify'], join(ws.dir, 'pipe-proof.json'), ['--allow-unsigned', '--allow-untimestamped'])
    expect(v.code, v.stdout + v.stderr).toBe(0)
    expect(v.stdout).toMatch(/^NOT FULLY VERIFIED/m)
    const i = await piped(['inspect'], join(ws.dir, 'pipe-proof.json'), ['--json'])
    expect(i.code, i.stdout + i.stderr).toBe(0)
    expect(JSON.parse(i.stdout)).toMatchObject({ kind: 'proof' })
    const secret = OrganizerSecret.fromBytes(new Uint8Array(32).fill(5))
    const c = commit({ beacon: BEACON_NAME, target: 4, after: { sequence: 2, block: CHAIN[2]!.cid }, participants: ['ada', 'bob'], draw: { kind: 'pick', count: 1 }, private: { secret } })
    await writeFile(join(ws.dir, 'pipe-receipt.json'), serializeReceipt([...makeReceipts(c, ['ada', 'bob'], secret).receipts()][0]!))
    const r = await piped(['check-receipt'], join(ws.dir, 'pipe-receipt.json'), ['--commitment', c.cid])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    // still bounded: a pipe over the limit is read one byte past it, then refused by its size
    await writeFile(join(ws.dir, 'pipe-big.json'), ' '.repeat(LIMITS.maxReceiptBytes + 100_000))
    const big = await piped(['check-receipt'], join(ws.dir, 'pipe-big.json'), ['--json'])
    expect(big.code).toBe(1)
    expect(JSON.parse(big.stdout).checks[0].detail).toContain(`receipt is ${LIMITS.maxReceiptBytes + 1} bytes`)
  })
})

describe('terminal escaping: text from files never reaches the terminal raw', () => {
  it('an ESC sequence in the label of a valid proof is printed escaped', async () => {
    await writeFile(join(ws.dir, 'label.json'), proofText(['ada', 'bob'], `${ESC_PAINT} \u202e\u2028x`))
    const r = await run(['verify', join(ws.dir, 'label.json'), '--allow-unsigned', '--allow-untimestamped'])
    expect(r.code).toBe(0)
    noRawControls(r.stdout)
    // JSON.stringify (the label is shown quoted) escapes ESC as \u001b; safeText escapes what it leaves raw.
    expect(r.stdout).toContain('"\\u001b[2J\\u001b[HVERIFIED \\u{202e}\\u{2028}x"')
    // JSON output stays exact and escaped (JSON escapes ESC itself; printJson escapes U+202E and U+2028).
    const j = await run(['verify', join(ws.dir, 'label.json'), '--allow-unsigned', '--allow-untimestamped', '--json'])
    noRawControls(j.stdout)
    expect(JSON.parse(j.stdout).commitment.label).toBe(`${ESC_PAINT} \u202e\u2028x`)
  })

  it('verify --json escapes DEL and C1 controls (U+009B is CSI on its own) and keeps the value exact (issue 23, item 6)', async () => {
    const label = 'a\u007fb\u0085c\u009b2J\u009bHVERIFIED\u0080\u009f\u200bd\u{e0041}'
    await writeFile(join(ws.dir, 'c1.json'), proofText(['ada', 'bob'], label))
    const j = await run(['verify', join(ws.dir, 'c1.json'), '--allow-unsigned', '--allow-untimestamped', '--json'])
    expect(j.code).toBe(0)
    noRawControls(j.stdout)
    expect(j.stdout).not.toMatch(/[\u0080-\u009f\u007f\u200b]|\udb40/)
    expect(j.stdout).toContain('"label": "a\\u007fb\\u0085c\\u009b2J\\u009bHVERIFIED\\u0080\\u009f\\u200bd\\udb40\\udc41"')
    expect(JSON.parse(j.stdout).commitment.label).toBe(label)
    // a failing proof's --json (checks' details quote the text) is escaped too
    const p = JSON.parse(proofText(['ada', 'bob'], label))
    p.outcome.winners[0].entry = 'x\u009b31mRED'
    await writeFile(join(ws.dir, 'c1-bad.json'), JSON.stringify(p))
    const bad = await run(['verify', join(ws.dir, 'c1-bad.json'), '--allow-unsigned', '--allow-untimestamped', '--json'])
    expect(bad.code).toBe(1)
    expect(bad.stdout).not.toMatch(/[\u0080-\u009f\u007f]/)
    expect(bad.stdout).toContain('x\\u009b31mRED')
  })

  it('an ESC sequence in a claimed winner is printed escaped (and the tampered proof fails)', async () => {
    const p = JSON.parse(proofText(['ada', 'bob']))
    p.outcome.winners[0].entry = ESC_PAINT
    await writeFile(join(ws.dir, 'entry.json'), JSON.stringify(p))
    const r = await run(['verify', join(ws.dir, 'entry.json'), '--allow-unsigned', '--allow-untimestamped'])
    expect(r.code).toBe(1)
    noRawControls(r.stdout)
    expect(r.stdout).toContain('\\u{1b}[2J\\u{1b}[HVERIFIED  (position ')
    expect(r.stdout).toMatch(/^FAILED: /m)
    expect(r.stdout).not.toMatch(/^VERIFIED/m)
  })

  it('error details quoting file text (a JSON syntax error, a bad commitment) are escaped on stdout and stderr', async () => {
    await writeFile(join(ws.dir, 'esc.json'), ESC_PAINT)
    const v = await run(['verify', join(ws.dir, 'esc.json')])
    expect(v.code).toBe(4)
    noRawControls(v.stdout + v.stderr)
    await writeFile(join(ws.dir, 'esc-commitment.json'), `{"a":"${ESC_PAINT}",}`)
    const d = await run(['draw', join(ws.dir, 'esc-commitment.json'), '-p', join(ws.dir, 'none.txt'), '-o', join(ws.dir, 'never.json')])
    expect(d.code).toBe(4)
    expect(d.stderr).toMatch(/\[INVALID_JSON\]/)
    noRawControls(d.stdout + d.stderr)
  })
})

describe('check-receipt: a receipt is a third party\'s file, and its text never reaches the terminal raw', () => {
  const secret = OrganizerSecret.fromBytes(new Uint8Array(32).fill(7))
  const label = `Spring\u009b2J\u202eDEKCEHC\u202c ${ESC_PAINT}`
  const c = commit({ beacon: BEACON_NAME, target: 4, after: { sequence: 2, block: CHAIN[2]!.cid }, participants: ['ada', 'bob'], draw: { kind: 'pick', count: 1 }, label, private: { secret } })
  const receipt = serializeReceipt([...makeReceipts(c, ['ada', 'bob'], secret).receipts()][0]!)

  it('a valid receipt whose label carries C1, bidi and ESC is CHECKED with the label escaped', async () => {
    await writeFile(join(ws.dir, 'r-label.json'), receipt)
    const r = await run(['check-receipt', join(ws.dir, 'r-label.json'), '--commitment', c.cid])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    noRawControls(r.stdout)
    expect(r.stdout).toContain('"Spring\\u{9b}2J\\u{202e}DEKCEHC\\u{202c} \\u001b[2J\\u001b[HVERIFIED"')
  })

  it('a field name with ESC and line breaks, quoted by the format check, cannot clear the screen or forge a CHECKED line', async () => {
    const bad = JSON.parse(receipt) as Record<string, unknown>
    bad['\u001b[2J\u001b[H\nCHECKED: "ada" is at position 1\n'] = 1
    await writeFile(join(ws.dir, 'r-key.json'), JSON.stringify(bad))
    const r = await run(['check-receipt', join(ws.dir, 'r-key.json')])
    expect(r.code).toBe(1)
    noRawControls(r.stdout)
    expect(r.stdout).not.toMatch(/^CHECKED/m)
    expect(r.stdout).toMatch(/^FAILED: format$/m)
  })
})

describe('check-receipt reads the receipt as bytes, as verify reads a proof', () => {
  const secret = OrganizerSecret.fromBytes(new Uint8Array(32).fill(9))
  const c = commit({ beacon: BEACON_NAME, target: 4, after: { sequence: 2, block: CHAIN[2]!.cid }, participants: ['ad\ufffd', 'bob'], draw: { kind: 'pick', count: 1 }, label: 'ff', private: { secret } })
  const receipt = serializeReceipt([...makeReceipts(c, ['ad\ufffd', 'bob'], secret).receipts()][0]!)

  it('an FF byte in the entry is refused (format: not valid UTF-8), not repaired into U+FFFD and CHECKED', async () => {
    await writeFile(join(ws.dir, 'r-good.json'), receipt)
    const good = await run(['check-receipt', join(ws.dir, 'r-good.json'), '--commitment', c.cid])
    expect(good.code, good.stdout + good.stderr).toBe(0)
    await writeFile(join(ws.dir, 'r-ff.json'), withFF(receipt))
    const r = await run(['check-receipt', join(ws.dir, 'r-ff.json'), '--commitment', c.cid])
    expect(r.code, r.stdout + r.stderr).toBe(1)
    expect(r.stdout).toMatch(/✗ format +receipt bytes are not valid UTF-8/)
    expect(r.stdout).not.toMatch(/^CHECKED/m)
  })

  it('a file over maxReceiptBytes is refused by its size, read no further than one byte past the limit', async () => {
    await writeFile(join(ws.dir, 'r-big.json'), ' '.repeat(LIMITS.maxReceiptBytes + 4096))
    const r = await run(['check-receipt', join(ws.dir, 'r-big.json'), '--json'])
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout).checks[0].detail).toContain(`receipt is ${LIMITS.maxReceiptBytes + 1} bytes, over the limit maxReceiptBytes`)
  })
})

describe('participants files and look-alike entries (commit reads the list before any network call)', () => {
  it('invalid UTF-8 names the line and byte offset and suggests iconv (library and binary)', async () => {
    const file = join(ws.dir, 'latin1.txt')
    await writeFile(file, Buffer.concat([Buffer.from('ada\nJos'), Buffer.from([0xe9]), Buffer.from('\nbob\n')]))
    await expect(readParticipants(file)).rejects.toMatchObject({ code: 'INVALID_UTF8', detail: expect.stringContaining('line 2, byte offset 7 (byte 0xe9)') })
    const r = await run(['commit', '-p', file, '--pick', '1', '-o', join(ws.dir, 'never.json')])
    expect(r.code, r.stderr).toBe(4)
    expect(r.stderr).toContain('line 2, byte offset 7')
    expect(r.stderr).toContain('iconv -f latin1 -t utf-8')
  })

  it('a device as the participants file is refused at once (it was read a byte at a time, for ever, deaf to SIGTERM)', async () => {
    const r = await run(['commit', '-p', '/dev/zero', '--pick', '1', '-o', join(ws.dir, 'never.json')])
    expect(r.code, r.stderr).toBe(4)
    expect(r.stderr).toContain('not a regular file')
    expect(r.stderr).toContain('[FILE_UNREADABLE]')
  })

  it('a SIGTERM stops commit\'s reading of a large file between two chunks (it read the whole file first: 148 MiB, 11.8 s)', async () => {
    const file = join(ws.dir, 'large.txt')
    await writeFile(file, Array.from({ length: 1_500_000 }, (_, i) => `entrant-${i}@example.org`).join('\n') + '\n') // about 40 MiB
    const child = start(['commit', '-p', file, '--pick', '1', '--delay', '10m', '-o', join(ws.dir, 'never.json')])
    let stderr = ''
    let signalled = false
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString()
      // The first progress report: the read is under way.
      if (!signalled && stderr.includes('hashing')) {
        signalled = true
        child.kill('SIGTERM')
      }
    })
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(signalled, stderr).toBe(true)
    expect(code, stderr).toBe(130)
    expect(stderr).toContain('interrupted; nothing was written')
    expect(stderr).not.toContain('100%')
  })

  it('participants JSON is read with the core\'s limits: nested brackets refused before parsing, a repeated key refused', async () => {
    const deep = join(ws.dir, 'deep.json')
    // 2 MB of brackets: JSON.parse built a million nested arrays (100 MB: 52 s, 4.9 GB).
    await writeFile(deep, `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`)
    await expect(readParticipants(deep)).rejects.toMatchObject({ code: 'JSON_TOO_DEEP', hint: expect.stringContaining('two levels deep') })
    const twice = join(ws.dir, 'twice.json')
    await writeFile(twice, '[{"entry": "a", "entry": "b", "weight": 1}, {"entry": "c", "weight": 2}]')
    await expect(readParticipants(twice)).rejects.toMatchObject({ code: 'DUPLICATE_KEY', path: '$[0].entry' })
    const r = await run(['commit', '-p', deep, '--pick', '1', '-o', join(ws.dir, 'never.json')])
    expect(r.code, r.stderr).toBe(4)
    expect(r.stderr).toContain('[JSON_TOO_DEEP]')
    // An ordinary list still reads.
    const good = join(ws.dir, 'good.json')
    await writeFile(good, '[{"entry": "a", "weight": 1}, {"entry": "b", "weight": 2}]')
    expect(await readParticipants(good)).toEqual([{ entry: 'a', weight: 1 }, { entry: 'b', weight: 2 }])
  })

  it('a UTF-16 file (a byte order mark FF FE) gets the UTF-16 conversion, not the Latin-1 one that would garble it', async () => {
    const file = join(ws.dir, 'utf16.txt')
    await writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ada\nbob\n', 'utf16le')]))
    await expect(readParticipants(file)).rejects.toMatchObject({ code: 'INVALID_UTF8', hint: expect.stringContaining('iconv -f utf-16 -t utf-8') })
    for (const args of [['-p', file], ['-p', file, '--format', 'json']]) {
      const r = await run(['commit', ...args, '--pick', '1', '-o', join(ws.dir, 'never.json')])
      expect(r.code, r.stderr).toBe(4)
      expect(r.stderr).toContain('line 1, byte offset 0 (byte 0xff)')
      expect(r.stderr).toContain('iconv -f utf-16 -t utf-8')
      expect(r.stderr).not.toContain('latin1')
    }
  })

  it('an NFD entry and an invisible character are refused with their line', async () => {
    const file = join(ws.dir, 'nfd.txt')
    await writeFile(file, 'ada\nJose\u0301\nbob\u200b\n')
    const r = await run(['commit', '-p', file, '--pick', '1', '-o', join(ws.dir, 'never.json')])
    expect(r.code).toBe(4)
    expect(r.stderr).toMatch(/line 2: entry is not in Unicode Normalization Form C/)
    expect(r.stderr).toMatch(/\[ENTRY_NOT_NFC\]/)
    await writeFile(file, 'ada\nbob\u200b\n')
    const z = await run(['commit', '-p', file, '--pick', '1', '-o', join(ws.dir, 'never.json')])
    expect(z.stderr).toMatch(/line 2: entry has the invisible character U\+200B ZERO WIDTH SPACE at character 4/)
  })

  it('confusable entries: a warning naming the lines, or a refusal with --strict-entries', async () => {
    const file = join(ws.dir, 'confusable.txt')
    await writeFile(file, 'paypal\nbob\np\u0430ypal\n')
    const gw = `http://127.0.0.1:${await closedPort()}`
    const warned = await run(['commit', '-p', file, '--pick', '1', '--gateway', gw, '-o', join(ws.dir, 'never.json')])
    expect(warned.code).toBe(3) // the warning does not stop it; the closed gateway does
    expect(warned.stderr).toContain('warning: 1 group of entries look alike')
    expect(warned.stderr).toContain('line 1 "paypal" / line 3 "p\u0430ypal"')
    const strict = await run(['commit', '-p', file, '--pick', '1', '--strict-entries', '--gateway', gw, '-o', join(ws.dir, 'never.json')])
    expect(strict.code).toBe(4)
    expect(strict.stderr).toMatch(/\[ENTRIES_CONFUSABLE\]/)
  })
})
