/**
 * The verifier page's evidence picture: the chain of boxes from the commitment to the signed head,
 * the carried blocks, and the derivation from the block to the outcome.
 *
 * @module
 */
import type { Evidence, EvidenceLink, EvidenceNode } from './evidence.js'
import { badge, h, t, untrusted } from './page-dom.js'
import { clip } from './text.js'


function renderNode(n: EvidenceNode): HTMLElement {
  const facts = h('dl', { class: 'facts small' })
  for (const f of n.facts) facts.append(h('dt', null, f.label), h('dd', f.mono === true ? { class: 'mono', title: f.value } : null, untrusted(f.value, f.untrusted === true)))
  return h(
    'li',
    { class: `node state-${n.state}`, 'data-node': n.key, 'data-state': n.state },
    h('div', { class: 'node-head' }, h('h3', null, n.title), badge(n.state)),
    h('p', { class: 'node-status', title: n.status }, untrusted(clip(n.status, 170))),
    facts,
    n.state === 'absent' ? undefined : h('p', { class: 'node-checks' }, ...n.checks.flatMap((c, i) => [i > 0 ? ' ' : '', h('code', null, c)])),
  )
}

function renderLink(l: EvidenceLink): HTMLElement {
  return h(
    'li',
    { class: `link state-${l.state}`, 'data-link': `${l.from}-${l.to}`, 'data-state': l.state, 'aria-label': `${l.label}: ${t.ui.states[l.state]} — ${l.status}` },
    h('span', { class: 'arrow', 'aria-hidden': 'true' }),
    h('span', { class: 'link-body', 'aria-hidden': 'true' }, h('span', { class: 'link-label' }, l.label), badge(l.state), h('span', { class: 'link-status' }, untrusted(clip(l.status, 90)))),
  )
}

export function renderEvidence(e: Evidence): HTMLElement {
  const flow = h('ol', { class: `flow nodes-${e.nodes.length}`, 'aria-label': t.ui.evidenceFlow })
  e.nodes.forEach((n, i) => {
    flow.append(renderNode(n))
    const l = e.links[i]
    if (l !== undefined) flow.append(renderLink(l))
  })

  // carried chain strip
  const strip = h('ol', { class: 'strip', 'aria-label': `Blocks carried in the proof, newest first (${e.blockCount})` })
  const n = e.blocks.length
  const keep = new Set<number>()
  e.blocks.forEach((b, i) => {
    if (n <= 14 || i < 2 || i >= n - 2 || b.roles.length > 0) {
      keep.add(i - 1)
      keep.add(i)
      keep.add(i + 1)
    }
  })
  let gap = false
  e.blocks.forEach((b, i) => {
    if (!keep.has(i)) {
      if (!gap) strip.append(h('li', { class: 'chip gap', 'aria-label': 'more blocks' }, '…'))
      gap = true
      return
    }
    gap = false
    if (i > 0) strip.append(h('li', { class: 'chip-link', 'aria-hidden': 'true' }, '←'))
    strip.append(
      h(
        'li',
        { class: `chip ${b.intact ? '' : 'corrupt'} ${b.roles.map((r) => `role-${r}`).join(' ')}`, title: `${b.cid}${b.intact ? '' : ' — content does not match this CID'}` },
        h('span', { class: 'chip-seq' }, b.sequence === undefined ? '?' : `#${b.sequence}`),
        ...b.roles.map((r) => h('span', { class: 'chip-role' }, r === 'after' ? t.ui.seenAtCommit : r)),
        b.intact ? '' : h('span', { class: 'chip-role bad' }, t.ui.corrupt),
      ),
    )
  })

  const [seed, outcome] = e.derivation
  const step = (l: EvidenceLink | undefined, title: string): HTMLElement =>
    h(
      'li',
      { class: `dnode state-${l?.state ?? 'unchecked'}`, 'data-step': l?.label ?? title, 'data-state': l?.state ?? 'unchecked' },
      h('div', { class: 'node-head row' }, h('h3', null, title), badge(l?.state ?? 'unchecked')),
      h('p', { class: 'node-status', title: l?.status }, untrusted(clip(l?.status ?? 'not checked', 240))),
      h('p', { class: 'node-checks' }, h('code', null, l?.label ?? '')),
    )
  const deriv = h(
    'ol',
    { class: 'derive', 'aria-label': 'How the outcome follows from the block' },
    h('li', { class: 'dnode input' }, h('h3', null, t.ui.commitmentCid), h('p', { class: 'node-status' }, t.ui.plusCtrng)),
    h('li', { class: `dlink state-${seed?.state ?? 'unchecked'}`, 'aria-hidden': 'true' }, h('span', { class: 'arrow' })),
    step(seed, t.ui.seed),
    h('li', { class: `dlink state-${outcome?.state ?? 'unchecked'}`, 'aria-hidden': 'true' }, h('span', { class: 'arrow' })),
    step(outcome, t.ui.outcome),
  )

  const legend = h('p', { class: 'legend' }, ...(['ok', 'relaxed', 'fail', 'unchecked', 'absent'] as const).flatMap((s) => [badge(s), ' ']))
  const explain = h('ul', { class: 'explain', id: 'explain' }, ...e.explain.map((s) => h('li', null, s)))

  return h(
    'section',
    { class: 'card evidence', id: 'evidence', 'aria-labelledby': 'evidence-h' },
    h('h2', { id: 'evidence-h' }, t.ui.evidence),
    explain,
    flow,
    h('h3', { class: 'minor' }, t.ui.carried(e.blockCount)),
    strip,
    h('h3', { class: 'minor' }, t.ui.blockToOutcome),
    deriv,
    legend,
  )
}
