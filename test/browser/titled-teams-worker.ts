/**
 * The verifier worker with the test-only `teams` kind (test/core/kinds/teams.ts) whose teams table is
 * titled with the first captain's entry: proof text in a section title, which the page also gives the
 * table's scrolling box as its `aria-label` (test/browser/verifier-text.test.ts). None of the built-in
 * kinds puts an entry in a table's title today; a registered kind may.
 */
import { type OutcomeDisplay } from '../../src/core/kinds/kind.js'
import { withKinds } from '../../src/core/kinds/registry.js'
import { startVerifierWorker } from '../../src/verifier/worker.js'
import { teamsKind } from '../core/kinds/teams.js'

const titledTeams: typeof teamsKind = {
  ...teamsKind,
  display(o) {
    const d: OutcomeDisplay = teamsKind.display(o)
    if (d.layout !== 'sections') return d
    const first = d.sections[0]?.layout === 'ranked' ? d.sections[0].rows[0]?.entry : undefined
    return { ...d, sections: d.sections.map((s) => (s.layout === 'table' ? { ...s, title: `Team of ${first ?? '?'}` } : s)) }
  },
}

startVerifierWorker(withKinds([titledTeams]))
