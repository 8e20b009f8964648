/**
 * `orbitdraw random`: cosmic random values from the Orbitport REST endpoint. Credentials come only
 * from the environment or a `--credentials` file, never from flags (flags end up in shell history and
 * process listings).
 *
 * @module
 */
import { utf8Decode } from '../../core/bytes.js'
import { InvalidInputError, OrbitdrawError } from '../../core/errors.js'
import { readFileAtMost } from '../../node/read-at-most.js'
import { OrbitportClient, SOURCE_NAMES, type SourceName } from '../../rest/client.js'
import { type OrbitportClientOptions } from '../../rest/options.js'
import { type SignatureCurve } from '../../rest/signature.js'
import { GLOBAL_OPTIONS, type CliContext, type Command } from '../command.js'
import { intFlag, listFlag, stringFlag } from '../common.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { printJson } from '../output.js'

const CURVES = ['p256', 'secp256k1', 'ed25519'] as const
/** Largest credentials or public key file read (64 KiB: a few hundred bytes of JSON or PEM in practice). */
const MAX_KEY_FILE_BYTES = 64 * 1024

/** Credentials and endpoints, from a `--credentials` file or the environment. */
interface Credentials {
  clientId: string
  clientSecret: string
  baseUrl?: string
  authUrl?: string
}

async function credentialsFrom(ctx: CliContext, file: string | undefined): Promise<Credentials> {
  if (file !== undefined) {
    const shape = 'supply a JSON object {"clientId": "…", "clientSecret": "…", "baseUrl"?: "…", "authUrl"?: "…"}'
    let bytes: Uint8Array | undefined
    try {
      bytes = await readFileAtMost(file, MAX_KEY_FILE_BYTES)
    } catch (cause) {
      throw new InvalidInputError('CREDENTIALS_UNREADABLE', `credentials file ${file} cannot be read: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, shape)
    }
    if (bytes === undefined) throw new InvalidInputError('CREDENTIALS_UNREADABLE', `credentials file ${file} is over ${MAX_KEY_FILE_BYTES} bytes`, shape)
    let raw: unknown
    try {
      raw = JSON.parse(utf8Decode(bytes)) as unknown
    } catch {
      // Not quoted: the file holds a secret.
      throw new InvalidInputError('CREDENTIALS_UNREADABLE', `credentials file ${file} is not valid JSON`, shape)
    }
    const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
    const pick = (...keys: string[]): string | undefined => {
      for (const k of keys) if (typeof o[k] === 'string' && o[k] !== '') return o[k]
      return undefined
    }
    const clientId = pick('clientId', 'client_id', 'ORBITPORT_CLIENT_ID')
    const clientSecret = pick('clientSecret', 'client_secret', 'ORBITPORT_CLIENT_SECRET')
    if (clientId === undefined || clientSecret === undefined) {
      throw new InvalidInputError('CREDENTIALS_INCOMPLETE', `credentials file ${file} lacks ${clientId === undefined ? 'clientId' : 'clientSecret'}`, 'supply a JSON object {"clientId": "…", "clientSecret": "…"}')
    }
    const baseUrl = pick('baseUrl', 'base_url', 'ORBITPORT_BASE_URL') ?? ctx.env.ORBITPORT_BASE_URL
    const authUrl = pick('authUrl', 'auth_url', 'ORBITPORT_AUTH_URL') ?? ctx.env.ORBITPORT_AUTH_URL
    return { clientId, clientSecret, ...(baseUrl ? { baseUrl } : {}), ...(authUrl ? { authUrl } : {}) }
  }
  const clientId = ctx.env.ORBITPORT_CLIENT_ID
  const clientSecret = ctx.env.ORBITPORT_CLIENT_SECRET
  if (!clientId || !clientSecret) {
    throw new UsageError(
      `no Orbitport credentials: set ${!clientId ? 'ORBITPORT_CLIENT_ID' : 'ORBITPORT_CLIENT_SECRET'}${!clientId && !clientSecret ? ' and ORBITPORT_CLIENT_SECRET' : ''} in the environment, or pass --credentials FILE (credentials are never accepted as flags)`,
      'random',
    )
  }
  return {
    clientId,
    clientSecret,
    ...(ctx.env.ORBITPORT_BASE_URL ? { baseUrl: ctx.env.ORBITPORT_BASE_URL } : {}),
    ...(ctx.env.ORBITPORT_AUTH_URL ? { authUrl: ctx.env.ORBITPORT_AUTH_URL } : {}),
  }
}

export const randomCommand: Command = {
  name: 'random',
  summary: 'signed cosmic random values from the Orbitport REST endpoint (needs credentials)',
  help: `Usage: orbitdraw random [--src satellite,derived] [--count N] [--public-key HEX [--curve p256]] [--json]

Fetches 32-byte random values from Orbitport's authenticated cTRNG endpoint. Each value says which
source produced it (satellite or derived); with --public-key its signature is verified and a value
that does not verify is an error (exit 1).

Use it for randomness you need now and privately. For a draw others must be able to check, use
'orbitdraw commit' and 'orbitdraw draw': the public beacon makes the draw verifiable.

Credentials (never flags):
  ORBITPORT_CLIENT_ID, ORBITPORT_CLIENT_SECRET   from the Orbitport access form
  ORBITPORT_BASE_URL   default https://op.spacecomputer.io
  ORBITPORT_AUTH_URL   default https://auth.spacecomputer.io
  --credentials FILE   instead: a JSON file {"clientId", "clientSecret", "baseUrl"?, "authUrl"?}
                       (keep it chmod 600)

Flags:
  --src LIST           sources to try, in order: satellite, derived (also vendororbital,
                       aptosorbital); comma-separated or repeated; default: the server's order
  --count N            how many values (default 1; one request each)
  --public-key KEY     verify every value's signature under this key (hex, or a PEM file path)
  --curve C            the key's curve: p256 (default), secp256k1 or ed25519
  --timeout-ms N       per-request timeout in milliseconds
  --json               machine-readable output

Exit codes: 0 ok, 1 a signature did not verify, 2 usage error (or no credentials), 3 network or
service failure, 4 credentials refused or unreadable credentials file.

Examples:
  export ORBITPORT_CLIENT_ID=… ORBITPORT_CLIENT_SECRET=…
  orbitdraw random
  orbitdraw random --src derived --count 5 --json | jq -r '.values[].hex'
  orbitdraw random --credentials ~/.config/orbitport.json --public-key 02ab… --curve p256
  # against 'orbitdraw emulator' (it prints these):
  ORBITPORT_BASE_URL=http://127.0.0.1:8787 ORBITPORT_AUTH_URL=http://127.0.0.1:8787 \\
  ORBITPORT_CLIENT_ID=emulator-client ORBITPORT_CLIENT_SECRET=emulator-secret orbitdraw random`,
  options: {
    ...GLOBAL_OPTIONS,
    src: { type: 'string', multiple: true },
    count: { type: 'string' },
    'public-key': { type: 'string' },
    curve: { type: 'string' },
    credentials: { type: 'string' },
    'timeout-ms': { type: 'string' },
  },
  async run(flags, positionals, ctx) {
    if (positionals.length > 0) throw new UsageError('random takes no positional arguments (credentials go in the environment or --credentials FILE)', 'random')
    const src = listFlag(flags, 'src')
    for (const s of src ?? []) {
      if (!(SOURCE_NAMES as readonly string[]).includes(s)) throw new UsageError(`unknown source ${JSON.stringify(s)} in --src; use ${SOURCE_NAMES.join(', ')}`, 'random')
    }
    const count = intFlag(flags, 'count', 'random', 1, 1000) ?? 1
    const timeoutMs = intFlag(flags, 'timeout-ms', 'random', 1)
    const curve = stringFlag(flags, 'curve') ?? 'p256'
    if (!(CURVES as readonly string[]).includes(curve)) throw new UsageError(`--curve must be one of ${CURVES.join(', ')}`, 'random')
    if (flags.curve !== undefined && flags['public-key'] === undefined) throw new UsageError('--curve goes with --public-key', 'random')
    let publicKey = stringFlag(flags, 'public-key')
    if (publicKey !== undefined && !/^[0-9a-fA-F]+$/.test(publicKey)) {
      try {
        const bytes = await readFileAtMost(publicKey, MAX_KEY_FILE_BYTES)
        if (bytes === undefined) throw new Error('too large')
        publicKey = utf8Decode(bytes)
      } catch {
        throw new UsageError('--public-key must be hex (SEC1 or DER) or the path of a PEM file', 'random')
      }
    }
    const creds = await credentialsFrom(ctx, stringFlag(flags, 'credentials'))
    const options: OrbitportClientOptions = {
      ...creds,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(publicKey !== undefined ? { verify: { publicKey, curve: curve as SignatureCurve } } : {}),
    }
    let client: OrbitportClient
    try {
      client = new OrbitportClient(options)
    } catch (err) {
      // Bad public key or base URL: a problem with what was typed.
      if (err instanceof OrbitdrawError && err.code !== 'ORBITPORT_SECRET_IN_BROWSER') throw new UsageError(`${err.detail}; ${err.hint}`, 'random')
      throw err
    }
    const values = []
    for (let i = 0; i < count; i++) {
      const v = await client.random({ ...(src !== undefined && src.length > 0 ? { src: src as SourceName[] } : {}), signal: ctx.signal })
      values.push({ source: v.source, src: v.src, hex: v.hex, signatureVerified: v.signatureVerified, ...(v.signature ? { signature: v.signature } : {}) })
    }
    if (flags.json === true) {
      printJson(ctx, { ok: true, values })
      return EXIT.ok
    }
    for (const v of values) ctx.out(`${v.hex}  ${v.source}${v.src !== v.source ? ` (${v.src})` : ''}${publicKey !== undefined ? (v.signatureVerified ? '  signature ✓' : '  signature not checked') : ''}\n`)
    return EXIT.ok
  },
}
