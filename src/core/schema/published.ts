/**
 * The published shapes of the proof and the commitment with the built-in kinds' `outcome` and `draw`
 * (docs/proof.schema.json, docs/commitment.schema.json: `npm run schema`). They are built here, apart
 * from the parsers (`schema/proof.ts`, `schema/commitment.ts`), because building them builds every
 * built-in kind's declared shapes: a program that only parses and verifies (the CLI's `verify`)
 * builds only the shapes of the kinds it reads (docs/performance.md, Start-up).
 *
 * @module
 */
import { DEFAULT_DRAW_KINDS } from '../kinds/registry.js'
import { commitmentShapeOf } from './commitment.js'
import { proofShapeOf } from './proof.js'

/**
 * The proof bundle (version 1) with the built-in kinds' outcomes; published as docs/proof.schema.json.
 * @category Formats
 */
export const ProofShape = proofShapeOf(DEFAULT_DRAW_KINDS)

/**
 * A commitment in its DAG-JSON form (version 1), with the built-in kinds' `draw` shapes; published as docs/commitment.schema.json.
 * @category Formats
 */
export const CommitmentShape = commitmentShapeOf(DEFAULT_DRAW_KINDS)
