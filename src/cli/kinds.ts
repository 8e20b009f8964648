/**
 * The draw kinds on the command line, from the core's registry: `commit`'s flags, usage and help
 * are built from each kind's `cli` part, so a kind added to the registry appears here with no edit.
 * Rendering of outcomes is generic (src/cli/commands/describe.ts over the kind's `display`).
 *
 * @module
 */
import { DEFAULT_DRAW_KINDS, type DrawSpec } from '../core/kinds/registry.js'
import { InvalidInputError } from '../core/errors.js'
import { type AnyDrawKind, type DrawKinds, type DrawSpecBase, type KindCli, type KindFlags } from '../core/kinds/kind.js'
import type { Flags } from './command.js'
import { UsageError } from './exit-codes.js'

type CliKind = AnyDrawKind & { readonly cli: KindCli<DrawSpecBase> }

/** The kinds the CLI offers: those with a `cli` part. */
export function cliKinds(kinds: DrawKinds = DEFAULT_DRAW_KINDS): readonly CliKind[] {
  return kinds.list.filter((k): k is CliKind => k.cli !== undefined)
}

/**
 * Every kind's flags, for `commit`'s options.
 * @throws {@link Error} when two kinds declare the same flag (a programming error, caught by the tests).
 */
export function kindOptions(kinds: DrawKinds = DEFAULT_DRAW_KINDS): Record<string, { type: 'string' | 'boolean' }> {
  const out: Record<string, { type: 'string' | 'boolean' }> = {}
  const fileFormat = new Map<string, string | undefined>()
  for (const k of cliKinds(kinds)) {
    if (!(k.cli.flag in k.cli.options)) throw new Error(`draw kind ${k.name}: its flag --${k.cli.flag} is not among its options`)
    for (const [name, type] of Object.entries(k.cli.options)) {
      // Only an input file of the same format may be shared (the sortition kinds' --pool and --quotas).
      // A selecting flag may be another kind's input file of the same format (--replacing: a panel
      // replacement's selecting flag, a re-roll's followed proof), never another kind's selecting flag.
      const format = k.cli.files?.[name]
      if (name === k.cli.flag && cliKinds(kinds).some((o) => o !== k && o.cli.flag === name)) throw new Error(`draw kinds select with the flag --${name} twice`)
      if (name in out && (format === undefined || fileFormat.get(name) !== format)) throw new Error(`draw kinds declare the flag --${name} twice`)
      out[name] = { type }
      fileFormat.set(name, format)
    }
  }
  return out
}

/** "a, b, or c" */
function orList(items: readonly string[]): string {
  return items.length <= 2 ? items.join(' or ') : `${items.slice(0, -1).join(', ')}, or ${items.at(-1)}`
}

/** `(--shuffle | --pick K | …)` for the usage line. */
export function kindsUsage(kinds: DrawKinds = DEFAULT_DRAW_KINDS): string {
  return `(${cliKinds(kinds).map((k) => k.cli.usage).join(' | ')})`
}

/** The "What to draw" lines of `commit --help`. */
export function kindsHelp(kinds: DrawKinds = DEFAULT_DRAW_KINDS): string {
  return cliKinds(kinds).map((k) => k.cli.help).join('\n')
}

/** The usage of the kinds whose participants are weighted (for messages). */
export function weightedUsage(kinds: DrawKinds = DEFAULT_DRAW_KINDS): string {
  return orList(cliKinds(kinds).filter((k) => k.participants === 'weighted').map((k) => k.cli.usage))
}

/**
 * The draw spec the flags ask for: exactly one kind's flag, no flag of another kind.
 * @throws {@link UsageError} (exit 2).
 */
export function drawSpecFromFlags(flags: Flags, command: string, kinds: DrawKinds = DEFAULT_DRAW_KINDS): { spec: DrawSpec | undefined; kind: CliKind; flags: KindFlags } {
  const all = cliKinds(kinds)
  // A kind whose selecting flag is also an input file of another chosen kind (--replacing with --reroll) gives way to it.
  const set = all.filter((k) => flags[k.cli.flag] !== undefined)
  const chosen = set.filter((k) => !set.some((o) => o !== k && o.cli.files?.[k.cli.flag] !== undefined))
  if (chosen.length !== 1) {
    throw new UsageError(chosen.length === 0 ? `say what to draw: ${orList(all.map((k) => k.cli.usage))}` : `choose one draw kind, not ${chosen.map((k) => `--${k.cli.flag}`).join(' and ')}`, command)
  }
  const kind = chosen[0]!
  for (const other of all) {
    if (other === kind) continue
    const extra = Object.keys(other.cli.options).filter((f) => f !== other.cli.flag && !(f in kind.cli.options))
    if (extra.some((f) => flags[f] !== undefined)) throw new UsageError(`${extra.map((f) => `--${f}`).join(' and ')} go with --${other.cli.flag}`, command)
  }
  const own: Record<string, string | boolean | undefined> = {}
  for (const f of Object.keys(kind.cli.options)) {
    const v = flags[f]
    own[f] = Array.isArray(v) ? v.at(-1) : v
  }
  // A kind that builds its spec from input files (KindCli.build) is built by the command, after reading them.
  if (kind.cli.build !== undefined) return { spec: undefined, kind, flags: own as KindFlags }
  try {
    return { spec: kind.cli.fromFlags(own as KindFlags) as DrawSpec, kind, flags: own as KindFlags }
  } catch (err) {
    if (err instanceof InvalidInputError) throw new UsageError(err.detail, command)
    throw err
  }
}
