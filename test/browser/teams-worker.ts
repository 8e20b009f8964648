/**
 * The verifier worker with a test-only draw kind added (`teams`, test/core/kinds/teams.ts, shown in
 * the `sections` layout): the entry that test/browser/outcome-layouts.test.ts builds the page with.
 */
import { withKinds } from '../../src/core/kinds/registry.js'
import { startVerifierWorker } from '../../src/verifier/worker.js'
import { teamsKind } from '../core/kinds/teams.js'

startVerifierWorker(withKinds([teamsKind]))
