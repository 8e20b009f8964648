/**
 * The command list, in help order. Each command's module is imported only when that command runs (or
 * prints its own help): `orbitdraw --help` and a mistyped command load none of them, so start-up does
 * not pay for the beacon client, the verifier or the emulator (see docs/performance.md, Start-up).
 * `test/cli/lazy-commands.test.ts` checks that each name and summary here equals its module's.
 *
 * @module
 */
import type { Command, CommandUsage } from '../command.js'

/** A command as the table knows it before loading it. */
export interface CommandEntry {
  /** The command word. */
  readonly name: string
  /** One line for the command list (the same as the loaded command's `summary`). */
  readonly summary: string
  /** Imports the command's module. */
  load(): Promise<Command>
  /**
   * Imports only the command's usage (help text and flags), when it lives in a lighter module than the
   * command: `orbitdraw verify --help` and a mistyped flag then load no verifier code. Absent: `load`.
   */
  usage?(): Promise<CommandUsage>
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'commit', summary: 'fix a draw before its randomness exists; prints the CID to publish', load: async () => (await import('./commit.js')).commitCommand },
  { name: 'draw', summary: 'wait for the committed block, draw, and write the proof', load: async () => (await import('./draw.js')).drawCommand },
  { name: 'verify', summary: 'check a proof offline under your trust policy; exit 0 only when every check passes', load: async () => (await import('./verify.js')).verifyCommand, usage: async () => (await import('./verify-usage.js')).verifyUsage },
  { name: 'announce', summary: 'write the announcement of a commitment (CID, target block and time, verifier link) to publish', load: async () => (await import('./announce.js')).announceCommand },
  { name: 'inspect', summary: 'show what a commitment, proof or receipt says: CID, beacon, target, count, root', load: async () => (await import('./inspect.js')).inspectCommand },
  { name: 'receipts', summary: 'write one receipt per participant of a private list ("I was in the draw")', load: async () => (await import('./receipts.js')).receiptsCommand },
  { name: 'check-receipt', summary: 'check a participant receipt offline ("I was in the draw")', load: async () => (await import('./receipts.js')).checkReceiptCommand },
  { name: 'beacon', summary: 'read the beacon: latest | block CID | get N | watch (every answer verified) | drand', load: async () => (await import('./beacon.js')).beaconCommand },
  { name: 'random', summary: 'signed cosmic random values from the Orbitport REST endpoint (needs credentials)', load: async () => (await import('./random.js')).randomCommand },
  { name: 'verifier-page', summary: 'write the browser verifier page (one HTML file) and print its SHA-256 and CID to compare', load: async () => (await import('./verifier-page.js')).verifierPageCommand },
  { name: 'emulator', summary: 'run a local emulator of the beacon, gateway and REST service (until Ctrl-C)', load: async () => (await import('./emulator.js')).emulatorCommand },
]
