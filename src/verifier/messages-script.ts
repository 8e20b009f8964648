/**
 * The verifier page's words as a script of their own (bundled by scripts/build-verifier.ts into a
 * classic inline `<script>`, allowed by its hash): it puts the runtime exports of messages.ts on
 * `globalThis.orbitdrawMessages`. The page runs it before its own script, and the verify worker's
 * `blob:` is its text followed by the worker's, so both read one copy of every language's words
 * (through messages-shared.ts, which the build puts in place of messages.ts) instead of a copy each.
 *
 * @module
 */
import * as messages from './messages.js'

;(globalThis as unknown as { orbitdrawMessages: typeof messages }).orbitdrawMessages = messages
