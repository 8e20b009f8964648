/**
 * The lazily loaded command table (src/cli/commands/index.ts): `orbitdraw --help` and unknown commands
 * load no command module; `orbitdraw <cmd> ...` loads exactly that one; and the table's names and
 * summaries are those of the modules it stands for.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { CliContext } from '../../src/cli/command.js'

const loaded = new Set<string>()
vi.mock('../../src/cli/commands/commit.js', async (orig) => (loaded.add('commit'), await orig()))
vi.mock('../../src/cli/commands/draw.js', async (orig) => (loaded.add('draw'), await orig()))
vi.mock('../../src/cli/commands/verify.js', async (orig) => (loaded.add('verify'), await orig()))
vi.mock('../../src/cli/commands/receipts.js', async (orig) => (loaded.add('receipts'), await orig()))
vi.mock('../../src/cli/commands/beacon.js', async (orig) => (loaded.add('beacon'), await orig()))
vi.mock('../../src/cli/commands/random.js', async (orig) => (loaded.add('random'), await orig()))
vi.mock('../../src/cli/commands/emulator.js', async (orig) => (loaded.add('emulator'), await orig()))
/** Whether any test so far loaded the drand client (never cleared: a module loads once per file). */
let drandClientLoaded = false
vi.mock('../../src/drand/client.js', async (orig) => ((drandClientLoaded = true), await orig()))

const { main } = await import('../../src/cli/main.js')
const { COMMANDS } = await import('../../src/cli/commands/index.js')

function ctx(): CliContext & { stdout: () => string; stderr: () => string } {
  let out = ''
  let err = ''
  return { out: (t) => void (out += t), err: (t) => void (err += t), env: {}, signal: new AbortController().signal, isTTY: false, stdout: () => out, stderr: () => err }
}

describe('lazy command table', () => {
  beforeEach(() => loaded.clear())

  it('orbitdraw --help lists every command and loads none of their modules', async () => {
    const c = ctx()
    expect(await main(['--help'], c)).toBe(0)
    for (const { name, summary } of COMMANDS) expect(c.stdout()).toContain(`  ${name.padEnd(14)} ${summary}`)
    expect([...loaded]).toEqual([])
  })

  it('an unknown command is a usage error (exit 2) without loading any command', async () => {
    const c = ctx()
    expect(await main(['verfy'], c)).toBe(2)
    expect(c.stderr()).toContain('unknown command')
    expect([...loaded]).toEqual([])
  })

  it('orbitdraw verify --help prints the help from verify-usage.ts and loads no command module (no verifier)', async () => {
    const c = ctx()
    expect(await main(['verify', '--help'], c)).toBe(0)
    expect(c.stdout()).toContain('Usage: orbitdraw verify')
    expect([...loaded]).toEqual([])
  })

  it('a bad flag to verify is refused from its usage alone (exit 2), without loading the verifier', async () => {
    const c = ctx()
    expect(await main(['verify', 'proof.json', '--trust-beacn', 'x'], c)).toBe(2)
    expect(c.stderr()).toContain('did you mean --trust-beacon?')
    expect([...loaded]).toEqual([])
  })

  it('orbitdraw verify FILE loads the verify command (and only it)', async () => {
    const c = ctx()
    expect(await main(['verify', '/nonexistent/proof.json'], c)).toBe(4)
    expect([...loaded]).toEqual(['verify'])
  })

  it("verify's usage module says what its command says (same name, summary, help and flags)", async () => {
    const entry = COMMANDS.find((e) => e.name === 'verify')!
    const usage = await entry.usage!()
    const command = await entry.load()
    expect(usage).toEqual({ name: command.name, summary: command.summary, help: command.help, options: command.options })
  })

  it("a bad flag is reported through the lazily imported error reporter (exit 2, the command's name)", async () => {
    const c = ctx()
    expect(await main(['draw', '--no-such-flag'], c)).toBe(2)
    expect(c.stderr()).toMatch(/no-such-flag/)
    // draw shares the participants flags with commit from src/cli/participants-flags.ts: commit.js does not load.
    expect([...loaded].sort()).toEqual(['draw'])
  })

  it('receipts loads only itself (the participants flags come from participants-flags.ts, not commit.js)', async () => {
    const c = ctx()
    expect(await main(['receipts', '--no-such-flag'], c)).toBe(2)
    expect([...loaded].sort()).toEqual(['receipts'])
  })

  it("each entry's name and summary equal its module's command", async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load()
      expect(command.name).toBe(entry.name)
      expect(command.summary).toBe(entry.summary)
    }
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length)
  })

  it('the draw command loads without the drand client (BLS12-381): only a mixed commitment imports it', async () => {
    const c = ctx()
    expect(await main(['draw', '--help'], c)).toBe(0)
    expect(c.stdout()).toContain('--drand-url URL')
    expect(drandClientLoaded).toBe(false)
  })
})
