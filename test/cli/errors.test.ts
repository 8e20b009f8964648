/**
 * Usage errors (exit 2), network failures (exit 3) and bad input (exit 4) through the real binary.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closedPort, json, names, run, useEmulatorWorkspace, STAMPED_DELAY } from './helpers.js'

const ws = useEmulatorWorkspace({ emulator: { beacon: { intervalMs: 300, keyType: 'Ed25519', initialBlocks: 3 } }, files: { 'names.txt': names(10) } })

describe('help', () => {
  it('main help lists every command; each command has --help with usage and examples', async () => {
    const h = await run(['--help'])
    expect(h.code).toBe(0)
    for (const c of ['commit', 'draw', 'verify', 'inspect', 'beacon', 'random', 'emulator']) {
      expect(h.stdout).toContain(`  ${c} `)
      const ch = await run([c, '--help'])
      expect(ch.code, c).toBe(0)
      expect(ch.stdout, c).toMatch(/^Usage: orbitdraw /)
      expect(ch.stdout, c).toMatch(/Examples:\n[\s\S]*\n {2}orbitdraw /)
      expect(ch.stdout, c).toMatch(/Exit codes:/)
    }
    const v = await run(['--version'])
    expect(v.code).toBe(0)
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+/)
  })
})

describe('usage errors: exit 2', () => {
  const cases: [string, string[], RegExp][] = [
    ['no command', [], /Usage: orbitdraw <command>/],
    ['unknown command', ['raffle'], /unknown command "raffle"/],
    ['unknown flag', ['commit', '--pik', '3'], /unknown flag --pik; did you mean --pick\?/],
    ['missing --participants', ['commit', '--pick', '3'], /--participants FILE is required/],
    ['no draw kind', ['commit', '-p', 'names.txt'], /say what to draw/],
    ['two draw kinds', ['commit', '-p', 'names.txt', '--pick', '2', '--shuffle'], /choose one draw kind/],
    ['bad count', ['commit', '-p', 'names.txt', '--pick', 'three'], /--pick must be a whole number/],
    ['too many winners', ['commit', '-p', 'names.txt', '--pick', '11'], /cannot draw 11 winners from 10 participants/],
    ['bad delay', ['commit', '-p', 'names.txt', '--pick', '1', '--delay', 'soon'], /--delay must be a duration like 90s, 5m/],
    ['delay and sequence', ['commit', '-p', 'names.txt', '--pick', '1', '--delay', '5m', '--sequence', '99'], /--delay or --sequence, not both/],
    // A flag of one value given twice was resolved silently, the last one winning (--pick 3, label "b").
    ['a one-value flag twice', ['commit', '-p', 'names.txt', '--pick', '2', '--pick', '3'], /--pick is given more than once; give it once/],
    ['a one-value flag twice, inline and short', ['commit', '-p', 'names.txt', '--participants=other.txt', '--pick', '1'], /--participants is given more than once/],
    ['a label twice', ['commit', '-p', 'names.txt', '--pick', '1', '--label', 'a', '--label', 'b'], /--label is given more than once/],
    // 8.64e24 ms: the planned target was not an integer (INVALID_COMMITMENT, exit 4, naming no flag).
    ['a delay past 2^53 ms', ['commit', '-p', 'names.txt', '--pick', '1', '--delay', '99999999999999999999d'], /--delay 99999999999999999999d is too long/],
    ['bad range', ['commit', '--range', '1-49', '--count', '6'], /--range must look like MIN\.\.MAX/],
    ['range without count', ['commit', '--range', '1..49'], /--range needs --count/],
    ['bad gateway URL', ['beacon', 'latest', '--gateway', 'not a url'], /is not a URL/],
    ['bad beacon name', ['beacon', 'latest', '--beacon', 'hello'], /is not a beacon IPNS name/],
    ['draw without commitment', ['draw', '-p', 'names.txt'], /exactly one commitment file/],
    ['verify two files', ['verify', 'a.json', 'b.json'], /exactly one proof file/],
    ['beacon without subcommand', ['beacon'], /beacon needs a subcommand/],
    ['beacon unknown subcommand', ['beacon', 'head'], /unknown beacon subcommand "head"/],
    ['beacon get without N', ['beacon', 'get'], /exactly one sequence number/],
    ['beacon get not a number', ['beacon', 'get', 'ten'], /must be a whole number/],
    ['random with a secret flag', ['random', '--client-secret', 'x'], /unknown flag --client-secret/],
    ['random bad source', ['random', '--src', 'moon'], /unknown source "moon"/],
    ['emulator bad key', ['emulator', '--key', 'dsa'], /--key must be rsa or ed25519/],
    ['emulator bad interval', ['emulator', '--interval', '10ms'], /at least 100ms/],
  ]
  for (const [what, args, message] of cases) {
    it(what, async () => {
      const r = await run(args, ws.opts)
      expect(r.code, r.stdout + r.stderr).toBe(2)
      expect(r.stdout + r.stderr).toMatch(message)
      if (args.length > 0) expect(r.stderr).toMatch(/Run 'orbitdraw .*--help' for usage\./)
    })
  }
  it('a URL given for a file says orbitdraw reads local files and how to download it (exit 4), not ENOENT', async () => {
    const r = await run(['verify', 'https://example.org/draws/proof.json', '--json'], ws.opts)
    expect(r.code).toBe(4)
    const e = json<{ error: { message: string; hint: string } }>(r).error
    expect(e.message).toContain('it is a URL, and orbitdraw reads local files')
    expect(e.message).not.toContain('ENOENT')
    expect(e.hint).toContain("curl -fsSL -o proof.json 'https://example.org/draws/proof.json'")
    expect(e.hint).toContain('?proof=')
    const d = await run(['draw', 'http://example.org/c.json', '-p', 'names.txt'], ws.opts)
    expect(d.code).toBe(4)
    expect(d.stderr).toContain('it is a URL')
  })

  it('--json usage errors are JSON on stdout', async () => {
    const r = await run(['commit', '--pick', '3', '--json'], ws.opts)
    expect(r.code).toBe(2)
    expect(json(r)).toMatchObject({ ok: false, exitCode: 2, error: { name: 'UsageError' } })
  })
})

describe('network failure: exit 3', () => {
  it('an unreachable gateway (closed loopback port) for every networked command', async () => {
    const port = await closedPort()
    const gw = `http://127.0.0.1:${port}`
    const env = { ORBITDRAW_BEACON: ws.emu.beaconName }
    const c = await run(['commit', '-p', 'names.txt', '--pick', '1', '--gateway', gw, '-o', 'never.json'], { cwd: ws.dir, env })
    expect(c.code, c.stderr).toBe(3)
    expect(c.stderr).toMatch(/network failure: no gateway gave a verified signed head/)
    expect(c.stderr).toContain(`could not reach ${gw}`)
    expect(c.stderr).toMatch(/what to do: /)
    expect(c.stderr).toMatch(/\[ALL_GATEWAYS_FAILED\]/)

    const b = await run(['beacon', 'latest', '--gateway', gw, '--json'], { cwd: ws.dir, env })
    expect(b.code).toBe(3)
    expect(json(b)).toMatchObject({ ok: false, exitCode: 3, error: { code: 'ALL_GATEWAYS_FAILED' } })

    // env ORBITDRAW_GATEWAYS works the same
    const e = await run(['beacon', 'get', '1'], { cwd: ws.dir, env: { ...env, ORBITDRAW_GATEWAYS: gw } })
    expect(e.code).toBe(3)

    // draw: a valid commitment, but the gateway is gone
    const ok = await run(['commit', '-p', 'names.txt', '--pick', '1', '-o', 'net.json'], ws.opts)
    expect(ok.code, ok.stderr).toBe(0)
    const d = await run(['draw', 'net.json', '-p', 'names.txt', '--gateway', gw, '-o', 'net.proof.json'], { cwd: ws.dir, env })
    expect(d.code).toBe(3)

    // random: the REST endpoint is unreachable
    const r = await run(['random'], { cwd: ws.dir, env: { ORBITPORT_CLIENT_ID: 'id', ORBITPORT_CLIENT_SECRET: 'secret-unreachable', ORBITPORT_BASE_URL: gw, ORBITPORT_AUTH_URL: gw } })
    expect(r.code, r.stderr).toBe(3)
    expect(r.stderr).not.toContain('secret-unreachable')
  }, 30_000)

  it('verify --online against an unreachable gateway fails the online checks (exit 1), offline checks still shown', async () => {
    const c = await run(['commit', '-p', 'names.txt', '--pick', '1', '--delay', STAMPED_DELAY, '-o', 'on.json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'on.json', '-p', 'names.txt', '-o', 'on.proof.json', '--quiet'], ws.opts)
    expect(d.code, d.stderr).toBe(0)
    const v = await run(['verify', 'on.proof.json', '--online', '--gateway', `http://127.0.0.1:${await closedPort()}`], ws.opts)
    expect(v.code).toBe(1)
    expect(v.stdout).toMatch(/✓ outcome/)
    expect(v.stdout).toMatch(/✗ online-blocks/)
    expect(v.stdout).toMatch(/FAILED online/)
  })
})

describe('bad input: exit 4', () => {
  const files: [string, string, string[], RegExp][] = [
    ['a blank line', 'a\nb\n\nc\n', [], /blank\.txt: line 3 is empty/],
    ['trailing whitespace', 'a\nb \nc\n', [], /ws\.txt, line 2: entry has trailing U\+0020 whitespace/],
    ['a duplicate', 'a\nb\nc\nb\n', [], /dup\.txt, line 4: identical to line 2\n/],
    ['a control character', 'a\nb\u0007c\n', [], /ctl\.txt, line 2: entry has control character U\+0007/],
    ['an empty file', '', [], /empty\.txt: the participants list is empty/],
    ['a CSV weight that is not a number', 'name,w\nx,1\ny,lots\n', ['--weight-column', 'w', '--weighted', '1'], /row 3: weight "lots" is not a positive integer/],
    ['a CSV with an unknown column', 'name\nx\n', ['--column', 'email'], /--column "email" is not a column of the CSV \(columns: name\)/],
    ['JSON that is not an array', '{"a": 1}', [], /participants JSON must be an array/],
  ]
  const fileName: Record<string, string> = { 'a blank line': 'blank.txt', 'trailing whitespace': 'ws.txt', 'a duplicate': 'dup.txt', 'a control character': 'ctl.txt', 'an empty file': 'empty.txt', 'a CSV weight that is not a number': 'w.csv', 'a CSV with an unknown column': 'col.csv', 'JSON that is not an array': 'obj.json' }
  for (const [what, content, extra, message] of files) {
    it(`participants file with ${what}`, async () => {
      const name = fileName[what]!
      await writeFile(join(ws.dir, name), content)
      const args = ['commit', '-p', name, ...(extra.includes('--weighted') ? [] : ['--pick', '1']), ...extra, '-o', `${name}.commitment.json`]
      const r = await run(args, ws.opts)
      expect(r.code, r.stderr).toBe(4)
      expect(r.stderr).toMatch(message)
      expect(r.stderr).toMatch(/what to do: /)
    })
  }
  it('a missing participants file', async () => {
    const r = await run(['commit', '-p', 'nope.txt', '--pick', '1'], ws.opts)
    expect(r.code).toBe(4)
    expect(r.stderr).toMatch(/cannot read participants file nope\.txt: ENOENT/)
  })
  it('a block that is not published yet', async () => {
    const r = await run(['beacon', 'get', '999999'], ws.opts)
    expect(r.code).toBe(4)
    expect(r.stderr).toMatch(/block 999999 is not published yet/)
  })
  it('a malformed CID', async () => {
    const r = await run(['beacon', 'block', 'not-a-cid'], ws.opts)
    expect(r.code).toBe(4)
  })
})
