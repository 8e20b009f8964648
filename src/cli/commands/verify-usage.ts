/**
 * What `orbitdraw verify --help` needs, and nothing else: the usage text and the flags. Kept apart from
 * the command (`verify.ts`, which imports the verifier) so that printing help or refusing a bad flag
 * loads no verifier code (see docs/performance.md, Start-up).
 *
 * @module
 */
import { BEACON_OPTIONS, GLOBAL_OPTIONS, type CommandUsage } from '../command.js'

/** `orbitdraw verify`'s name, summary, help and flags. */
export const verifyUsage: CommandUsage = {
  name: 'verify',
  summary: 'check a proof offline under your trust policy; exit 0 only when every check passes',
  help: `Usage: orbitdraw verify PROOF [--commitment CID] [--trust-beacon NAME]... [--trust-tsa FILE]...
                        [--allow-unsigned] [--allow-untimestamped]
                        [--online [--gateway URL]... [--timeout-ms N] [--allow-unsigned-head]] [--json]

Re-checks a proof bundle with no network, under a strict policy by default: the commitment's CID,
that the beacon is one you trust (default: Orbitport's beacons), the participants (all entries, or
each revealed winner's inclusion proof), every carried block against its CID, the chain links, the
beacon's signed IPNS record (required), the commitment's RFC 3161 time-stamp (required: a trusted
authority dated it before the target block), the seed and the outcome. Prints every check.

The verdict starts with the commitment CID: compare it with the CID the organizer announced before
the target block, or pin it with --commitment so a proof of any other commitment fails.

With --online it then asks the beacon's gateways whether every carried block is still served with
the same bytes and whether today's signed head descends from the proof's head (checks
online-blocks and online-chain). An unreachable beacon makes those checks fail (exit 1). A proof
that fails offline is not sent to any gateway: both online checks are shown not checked (○).

Trust (your anchors, never the proof's):
  --commitment CID       the commitment CID the organizer announced; any other fails commitment-pinned
  --trust-beacon NAME    also trust this beacon IPNS name (repeatable), e.g. the emulator's;
                         ORBITDRAW_TRUST_BEACONS (comma-separated) does the same
  --trust-tsa FILE       also trust this time-stamping root (PEM; repeatable); ORBITDRAW_TRUST_TSA
                         (comma-separated base64 DER) does the same
  --trust-drand FILE     also trust this drand chain for mixed draws: its info JSON as drand's
                         /{chainhash}/info serves it (repeatable; default: drand's quicknet only);
                         ORBITDRAW_TRUST_DRAND (the info JSON) does the same
  --allow-unsigned       accept blocks that no signed beacon record vouches for (integrity only)
  --allow-untimestamped  accept a commitment that no trusted time-stamp dates before the target block
                         (check by other means that its CID was published before then)
  With --allow-*, the verdict says NOT FULLY VERIFIED and what to check instead. Trust added by
  ORBITDRAW_TRUST_BEACONS or ORBITDRAW_TRUST_TSA (which 'orbitdraw emulator' prints) is named under
  every verdict ("Trust from the environment, not from flags: …"; trustFromEnvironment in --json).

Flags:
  --online           also re-check against the live beacon (uses --gateway / ORBITDRAW_GATEWAYS;
                     the beacon is the one named in the proof)
  --gateway URL      a gateway for --online (repeatable); --timeout-ms N per request
  --json             print the full result as JSON
  PROOF              a proof file, or - for standard input

Exit codes: 0 every check passed, 1 the proof was read and a check failed (the draw does not check
out), 2 usage error, 4 could not read a proof (missing or unreadable file, truncated or not JSON,
a commitment or receipt instead of a proof, an unsupported version): nothing about the draw is known.
A verdict that relied on --allow-unsigned or --allow-untimestamped also exits 0, and says so on its
first line. NOT VERIFIED HERE (a check this host cannot do) exits 1.

Examples:
  orbitdraw verify proof.json --commitment bagu…
  orbitdraw verify proof.json --online --gateway https://ipfs.io
  orbitdraw verify proof.json --trust-beacon k51qzi5uqu5… --json | jq '.checks[] | select(.ok == false)'
  curl -s https://example.org/raffle/proof.json | orbitdraw verify -`,
  options: {
    ...GLOBAL_OPTIONS,
    ...BEACON_OPTIONS,
    online: { type: 'boolean' },
    commitment: { type: 'string' },
    'trust-beacon': { type: 'string', multiple: true },
    'allow-unsigned': { type: 'boolean' },
    'allow-untimestamped': { type: 'boolean' },
    'trust-tsa': { type: 'string', multiple: true },
    'trust-drand': { type: 'string', multiple: true },
  },
}
