/**
 * What the page's script and its verify worker import in place of messages.ts (scripts/build-verifier.ts
 * swaps them): the same exports, read from the one copy that the page's words script
 * (messages-script.ts) put on `globalThis` before them.
 *
 * @module
 */
import type { SharedWords } from './messages-script.js'

const shared = (globalThis as unknown as { orbitdrawMessages?: SharedWords }).orbitdrawMessages
if (shared === undefined) throw new Error('the page\'s words script (messages-script.ts) did not run before this script')

export const { en, LANGUAGES, pickLanguage } = shared
