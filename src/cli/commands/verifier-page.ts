/**
 * `orbitdraw verifier-page [-o FILE]`: writes the browser verifier page shipped with this orbitdraw and
 * prints its SHA-256 and content address, so anyone can host their own copy, or check the copy an
 * organizer hosts, against the hash published in docs/verifier.md for this version.
 *
 * @module
 */
import { GLOBAL_OPTIONS, type Command } from '../command.js'
import { writeOutput } from '../common.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { printJson } from '../print-json.js'
import { readShippedPage } from '../verifier-page-file.js'

const DEFAULT_FILE = 'orbitdraw-verifier.html'

export const verifierPageCommand: Command = {
  name: 'verifier-page',
  summary: 'write the browser verifier page (one HTML file) and print its SHA-256 and CID to compare',
  help: `Usage: orbitdraw verifier-page [-o FILE] [--force] [--json]

Writes the browser verifier page shipped with this orbitdraw (one self-contained HTML file that
verifies proofs offline) and prints its SHA-256 and its content address (CIDv1, raw, sha2-256). The
page is built reproducibly: the same orbitdraw version gives the same bytes, so the hash equals the one
published in docs/verifier.md for this version, and the one of any honest copy. Host the file anywhere
static, or compare it with the page an organizer hosts (download that file, then 'sha256sum FILE').

Flags:
  -o, --output FILE        where to write the page (default ${DEFAULT_FILE}; - for standard output,
                           then the hashes go to standard error)
  --force                  overwrite FILE if it exists (otherwise refused)
  --json                   print { file, bytes, sha256, cid } instead of text

Exit codes: 0 written, 2 usage error, 4 the page is not built (run from a checkout without a build).

Examples:
  orbitdraw verifier-page
  orbitdraw verifier-page -o site/index.html --force`,
  options: { ...GLOBAL_OPTIONS, output: { type: 'string', short: 'o' }, force: { type: 'boolean' } },
  async run(flags, positionals, ctx) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (write the page with -o FILE)`, 'verifier-page')
    const out = typeof flags.output === 'string' && flags.output !== '' ? flags.output : DEFAULT_FILE
    const page = await readShippedPage()
    await writeOutput(ctx, out, Buffer.from(page.html).toString('utf8'), flags.force === true, 'verifier-page')
    const say = out === '-' ? ctx.err.bind(ctx) : ctx.out.bind(ctx)
    if (flags.json === true && out !== '-') {
      printJson(ctx, { file: out, bytes: page.bytes, sha256: page.sha256, cid: page.cid })
      return EXIT.ok
    }
    say(
      [
        out === '-' ? `verifier page (${page.bytes} bytes) written to standard output` : `wrote ${out} (${page.bytes} bytes): the orbitdraw verifier page`,
        `  SHA-256  ${page.sha256}`,
        `  CID      ${page.cid}  (CIDv1, raw, sha2-256)`,
        'Compare the SHA-256 with the one published for this version (docs/verifier.md) and with the page you',
        "are asked to trust: download that file (not \"Save page as\") and run 'sha256sum FILE'.",
      ].join('\n') + '\n',
    )
    return EXIT.ok
  },
}
