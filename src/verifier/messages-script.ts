/**
 * The verifier page's words as a script of their own (bundled by scripts/build-verifier.ts into a
 * classic inline `<script>`, allowed by its hash): it puts what the page and its worker use of
 * messages.ts on `globalThis.orbitdrawMessages`. The page runs it before its own script, and the verify worker's
 * `blob:` is its text followed by the worker's, so both read one copy of every language's words
 * (through messages-shared.ts, which the build puts in place of messages.ts) instead of a copy each.
 *
 * @module
 */
import { en, LANGUAGES, pickLanguage } from './messages.js'

/** What the page's script and worker read of messages.ts (not `enPage`: the build writes it into the HTML). */
export interface SharedWords {
  readonly en: typeof en
  readonly LANGUAGES: typeof LANGUAGES
  readonly pickLanguage: typeof pickLanguage
}

;(globalThis as unknown as { orbitdrawMessages: SharedWords }).orbitdrawMessages = { en, LANGUAGES, pickLanguage }
