/**
 * `orbitdraw announce COMMITMENT` through the real binary: the announcement as text, Markdown and JSON
 * (CID, draw, count and root, target block and its expected time in local time and UTC, verifier link
 * with ?commitment=CID), the QR code as SVG, a hostile label escaped for the terminal and for Markdown,
 * and the failure paths.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatMarkdown, localTime, qrSvg } from '../../src/cli/commands/announce.js'
import { escapeMarkdown } from '../../src/cli/markdown.js'
import { json, names, run, useEmulatorWorkspace } from './helpers.js'

const ws = useEmulatorWorkspace({ files: { 'names.txt': names(7) } })
const HOSTILE = 'Raffle \u001b[2J\u001b[HVERIFIED [click](https://evil.example) <img src=x onerror=alert(1)> # *bold*'

describe('orbitdraw announce', () => {
  let cid = ''
  it('text: CID, draw, count and root, target block with its expected local and UTC time, the verifier link with ?commitment=CID', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '2', '--delay', '1h', '--label', 'Spring raffle', '-o', 'c.json', '--json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const committed = json<{ cid: string; target: number; participants: { root: string } }>(c)
    cid = committed.cid
    const a = await run(['announce', 'c.json', '--verifier-url', 'https://example.org/verify/index.html'], { ...ws.opts, env: { ...ws.opts.env, TZ: 'Asia/Kolkata' } })
    expect(a.code, a.stderr).toBe(0)
    expect(a.stdout).toContain('Draw commitment: "Spring raffle"')
    expect(a.stdout).toContain(`commitment CID  ${cid}`)
    expect(a.stdout).toContain('pick 2 of 7')
    expect(a.stdout).toContain(`7 entries, Merkle root ${committed.participants.root}`)
    expect(a.stdout).toMatch(new RegExp(`decided by      block ${committed.target.toLocaleString('en-US')}, expected around \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d \\(UTC\\+05:30\\) = \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC`))
    expect(a.stdout).toMatch(/time-stamped {4}\d{4}-\d\d-\d\dT/)
    expect(a.stdout).toContain(`Check the result: https://example.org/verify/index.html?commitment=${cid}`)
  })

  it('json and markdown carry the same facts; the expected time is ahead', async () => {
    const j = await run(['announce', 'c.json', '--format', 'json', '--verifier-url', 'https://example.org/v/'], ws.opts)
    expect(j.code, j.stderr).toBe(0)
    const a = json<{ cid: string; expectedTime: string; verifierLink: string; participants: { count: number }; timestamps: string[] }>(j)
    expect(a.cid).toBe(cid)
    expect(a.verifierLink).toBe(`https://example.org/v/?commitment=${cid}`)
    expect(a.participants.count).toBe(7)
    expect(a.timestamps.length).toBeGreaterThan(0)
    const ahead = Date.parse(a.expectedTime) - Date.now()
    // The emulator's blocks come about every 250 ms, not exactly: the estimate is in the future, near an hour.
    expect(ahead).toBeGreaterThan(0)
    expect(ahead).toBeLessThan(2 * 3600_000)
    const m = await run(['announce', 'c.json', '--format', 'markdown', '--offline', '--verifier-url', 'https://example.org/v/', '-o', 'a.md'], ws.opts)
    expect(m.code, m.stderr).toBe(0)
    const md = await readFile(join(ws.dir, 'a.md'), 'utf8')
    expect(md).toContain('## Draw commitment: Spring raffle')
    expect(md).toContain(`- **Commitment CID:** \`${cid}\``)
    expect(md).toContain(`Check the result: <https://example.org/v/?commitment=${cid}>`)
    expect(md).not.toContain('expected around') // --offline: the beacon is not asked
  })

  it('--qr writes an SVG QR code of the link (of the CID without one), refused over an existing file unless --force', async () => {
    const r = await run(['announce', 'c.json', '--offline', '--verifier-url', 'https://example.org/v/', '--qr', 'link.svg'], ws.opts)
    expect(r.code, r.stderr).toBe(0)
    const svg = await readFile(join(ws.dir, 'link.svg'), 'utf8')
    expect(svg).toBe(qrSvg(`https://example.org/v/?commitment=${cid}`))
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 (\d+) \1"/)
    expect(svg).not.toMatch(/<script|on\w+=/i)
    expect(qrSvg(cid)).not.toBe(svg)
    const again = await run(['announce', 'c.json', '--offline', '--qr', 'link.svg'], ws.opts)
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('already exists')
    const forced = await run(['announce', 'c.json', '--offline', '--qr', 'link.svg', '--force'], ws.opts)
    expect(forced.code, forced.stderr).toBe(0)
    expect(await readFile(join(ws.dir, 'link.svg'), 'utf8')).toBe(qrSvg(cid))
  })

  it('a hostile label is escaped for the terminal and for Markdown', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', '1h', '--label', HOSTILE, '-o', 'h.json', '--no-timestamp'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const t = await run(['announce', 'h.json', '--offline'], ws.opts)
    expect(t.code, t.stderr).toBe(0)
    expect(t.stdout).not.toContain('\u001b')
    expect(t.stdout).toContain('Raffle \\u001b[2J\\u001b[HVERIFIED')
    const m = await run(['announce', 'h.json', '--offline', '--format', 'markdown'], ws.opts)
    expect(m.code, m.stderr).toBe(0)
    const heading = m.stdout.split('\n')[0]!
    expect(heading).toBe(`## Draw commitment: ${escapeMarkdown(HOSTILE)}`)
    expect(heading.slice('## Draw commitment: '.length)).not.toMatch(/(^|[^\\])[[\]<>()*#]/)
    expect(escapeMarkdown('a_b')).toBe('a\\_b')
    // --format json: what JSON.stringify leaves raw (CSI as U+009B, bidi overrides, U+2028) is escaped too; it parses back the same.
    const quiet = 'Raffle \u009b2J\u202eevil\u202c\u2028next'
    const q = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', '1h', '--label', quiet, '-o', 'q.json', '--no-timestamp'], ws.opts)
    expect(q.code, q.stderr).toBe(0)
    const j = await run(['announce', 'q.json', '--offline', '--format', 'json'], ws.opts)
    expect(j.code, j.stderr).toBe(0)
    expect(j.stdout).not.toMatch(/[\u0080-\u009f\u2028\u202e\u202c]/)
    expect(j.stdout).toContain('Raffle \\u009b2J\\u202eevil\\u202c\\u2028next')
    expect((JSON.parse(j.stdout) as { label: string }).label).toBe(quiet)
  })

  it('refuses a proof, a bad --format, a bad --verifier-url, network flags with --offline; 3 when the beacon is unreachable', async () => {
    await writeFile(join(ws.dir, 'fake-proof.json'), JSON.stringify({ type: 'orbitdraw/proof' }))
    const bad = await run(['announce', 'c.json', '--format', 'html'], ws.opts)
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--format must be text, markdown or json')])
    const url = await run(['announce', 'c.json', '--verifier-url', 'javascript:alert(1)'], ws.opts)
    expect([url.code, url.stderr]).toEqual([2, expect.stringContaining('must be an http(s) URL')])
    const off = await run(['announce', 'c.json', '--offline', '--gateway', 'http://127.0.0.1:9'], ws.opts)
    expect(off.code).toBe(2)
    const down = await run(['announce', 'c.json', '--gateway', 'http://127.0.0.1:9', '--timeout-ms', '500'], { ...ws.opts, timeoutMs: 60_000 })
    expect(down.code, down.stderr).toBe(3)
  })

  it('local time says its UTC offset', () => {
    expect(localTime(new Date('2026-01-01T00:00:00Z'))).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d \(UTC[+-]\d\d:\d\d\)$/)
    expect(formatMarkdown({ cid: 'b', label: '', beacon: 'k', target: 5, draw: 'pick 1 of 2', participants: null, expectedTime: null, expectedLocalTime: null, timestamps: [], verifierLink: null })).toContain('## Draw commitment\n')
  })
})
