/**
 * The organizer's secret file of a private list (`orbitdraw commit --private` writes it, `draw` and
 * `receipts` read it with `--secret FILE`): owner-only permissions, never printed.
 *
 * @module
 */
import { chmod, writeFile } from 'node:fs/promises'
import { InvalidInputError, MismatchError, ParseError } from '../core/errors.js'
import { parseSecretFile, serializeSecretFile, type OrganizerSecret } from '../core/secret.js'
import { UsageError } from './exit-codes.js'
import { readBytesInput } from './read-bytes.js'

/** The longest secret file `parseSecretFile` reads, in characters (and so the bytes read here). */
const MAX_SECRET_FILE_CHARS = 4096

/** The secret file next to a commitment file: `x.json` → `x.secret.json` (`x` → `x.secret.json`). */
export function secretPathFor(commitmentPath: string): string {
  return `${commitmentPath.endsWith('.json') ? commitmentPath.slice(0, -'.json'.length) : commitmentPath}.secret.json`
}

/** Writes the secret file with mode 0600; refuses to overwrite unless `force`. */
export async function writeSecretFile(path: string, secret: OrganizerSecret, commitmentCid: string, force: boolean, command: string): Promise<void> {
  try {
    await writeFile(path, serializeSecretFile(secret, commitmentCid), { flag: force ? 'w' : 'wx', mode: 0o600 })
    await chmod(path, 0o600) // an overwritten file keeps its old mode otherwise
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code
    if (code === 'EEXIST') throw new UsageError(`${path} already exists; pass --force to overwrite it (the old secret is then lost), or choose another -o file`, command)
    throw new InvalidInputError('FILE_UNWRITABLE', `cannot write ${path}: ${code ?? 'error'}`, 'check the directory exists and is writable')
  }
}

/**
 * Reads `--secret FILE` and checks it belongs to the commitment `cid`. Errors name the file, never its
 * content.
 */
export async function readSecretFile(path: string, cid: string): Promise<OrganizerSecret> {
  let bytes: Uint8Array
  try {
    // At most one byte past the longest secret file parseSecretFile reads (a secret file is about 210
    // bytes): a large file, or /dev/zero, is refused by its size without being read whole.
    bytes = await readBytesInput(path, 'the secret file', MAX_SECRET_FILE_CHARS)
  } catch (cause) {
    const code = ((cause as { cause?: NodeJS.ErrnoException }).cause ?? (cause as NodeJS.ErrnoException)).code
    throw new InvalidInputError('FILE_UNREADABLE', `cannot read the secret file ${path}: ${code ?? 'error'}`, 'pass the *.secret.json written by orbitdraw commit --private')
  }
  if (bytes.length > MAX_SECRET_FILE_CHARS) throw new ParseError('INVALID_SECRET_FILE', `the secret file ${path} is over ${MAX_SECRET_FILE_CHARS} bytes: not a secret file`, 'pass the *.secret.json written by orbitdraw commit --private', { path: '$' })
  // Invalid UTF-8 decodes to U+FFFD, which no secret file holds: parseSecretFile refuses it (never quoting it).
  const file = parseSecretFile(new TextDecoder('utf-8').decode(bytes))
  if (file.commitment !== cid) {
    throw new MismatchError('SECRET_MISMATCH', `the secret file ${path} belongs to commitment ${file.commitment}, not ${cid}`, 'pass the secret file written with this commitment')
  }
  return file.secret
}

/**
 * The secret a follow-up draw (a re-roll, a panel replacement) is committed with: the followed draw's own, from `--secret FILE` (`path`)
 * (checked to belong to the followed commitment `cid`), when the followed list is private; none for a
 * public one. The same secret gives the same salted leaves, so both commitments have one root.
 * @throws {@link UsageError} for a missing, superfluous or mixed-up `--secret` / `--private`.
 */
export async function followedSecret(followed: unknown, cid: string, path: string | undefined, asked: boolean): Promise<OrganizerSecret | undefined> {
  const salted = (followed as { commitment?: { participants?: { salted?: unknown } } } | undefined)?.commitment?.participants?.salted === true
  if (!salted) {
    if (path !== undefined || asked) throw new UsageError('the followed draw is a public list: the follow-up draw is over the same list, so it takes neither --secret nor --private', 'commit')
    return undefined
  }
  if (path === undefined) throw new UsageError('the followed draw is a private list: pass --secret FILE (its .secret.json); the follow-up draw is committed with the same secret, so both have one root', 'commit')
  return readSecretFile(path, cid)
}
