/**
 * The verifier page's worker entry (bundled by scripts/build-verifier.ts): the worker of
 * worker.ts, verifying with the built-in draw kinds.
 *
 * @module
 */
import { DEFAULT_DRAW_KINDS } from '../core/kinds/registry.js'
import { startVerifierWorker } from './worker.js'

startVerifierWorker(DEFAULT_DRAW_KINDS)
