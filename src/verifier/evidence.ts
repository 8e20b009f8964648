/**
 * The browser verifier's model of the evidence: from the proof (untrusted JSON) and the result of
 * `verify`, which nodes and links of the chain commitment → latest block seen → target block →
 * signed head were checked, and which failed. Pure (no DOM), so it is easy to reason about; the page
 * only draws it.
 *
 * Nothing here decides the verdict: that is `verify`'s job. The facts shown for each node are read
 * from the proof leniently (so a corrupt proof can still be pictured) and are labelled by the state
 * of the checks that cover them.
 *
 * @module
 */
import { base64ToBytes } from '../core/bytes.js'
import { DEFAULT_DRAW_KINDS, type DrawSpec } from '../core/kinds/registry.js'
import { parseBlock } from '../core/block.js'
import { type DrawKinds } from '../core/kinds/kind.js'
import { type JsonObject } from '../core/json.js'
import { type VerifyResult } from '../core/verify.js'
import { parseIpnsRecord } from '../core/ipns/record.js'
import { en, type Messages } from './messages.js'
import { formatTime, formatTimeBoth } from './text.js'

export { formatTime }

/**
 * How a node or link of the picture fared: `relaxed` means its check passed only because the
 * verifier relaxed the rule (the evidence is missing).
 */
export type State = 'ok' | 'relaxed' | 'fail' | 'unchecked' | 'absent'

/** One labelled fact; `mono` values (CIDs, names) are shown in a monospace font and may wrap anywhere; `untrusted` values (labels) are isolated (`<bdi>`). */
export interface Fact {
  readonly label: string
  readonly value: string
  readonly mono?: boolean
  readonly untrusted?: boolean
}

/** A box in the evidence picture. */
export interface EvidenceNode {
  readonly key: 'time' | 'commitment' | 'after' | 'target' | 'head'
  readonly title: string
  readonly state: State
  /** One line saying what the state means for this node. */
  readonly status: string
  readonly facts: readonly Fact[]
  /** The check names that cover this node. */
  readonly checks: readonly string[]
}

/** An arrow between two boxes. */
export interface EvidenceLink {
  readonly from: EvidenceNode['key']
  readonly to: EvidenceNode['key']
  readonly label: string
  readonly state: State
  readonly status: string
  readonly checks: readonly string[]
}

/** One carried block, for the chain strip. */
export interface CarriedBlock {
  readonly sequence: number | undefined
  readonly cid: string
  /** Its bytes hash to its CID (checked here only to mark the strip; `block-content` is the check). */
  readonly intact: boolean
  readonly roles: readonly ('head' | 'target' | 'after')[]
}

/** The whole picture. */
export interface Evidence {
  readonly nodes: readonly EvidenceNode[]
  readonly links: readonly EvidenceLink[]
  readonly derivation: readonly EvidenceLink[]
  readonly blocks: readonly CarriedBlock[]
  /** Total blocks carried (the strip may show fewer). */
  readonly blockCount: number
  /** True when the proof carries a signed IPNS record. */
  readonly hasRecord: boolean
  /** What the checks that ran establish, one sentence each; nothing that was not checked. */
  readonly explain: readonly string[]
}

interface LooseBlock {
  cid: string
  sequence: number | undefined
  timestamp: number | undefined
  ctrng: number | undefined
  previous: string | null | undefined
  intact: boolean
}

/** Reads a carried block for display: verified when its bytes hash to its CID, leniently otherwise. */
function readBlock(b: unknown): LooseBlock | undefined {
  if (b === null || typeof b !== 'object') return undefined
  const { cid, bytes } = b as { cid?: unknown; bytes?: unknown }
  if (typeof cid !== 'string' || typeof bytes !== 'string') return undefined
  let raw: Uint8Array
  try {
    raw = base64ToBytes(bytes)
  } catch {
    return { cid, sequence: undefined, timestamp: undefined, ctrng: undefined, previous: undefined, intact: false }
  }
  try {
    const p = parseBlock(raw, cid)
    return { cid, sequence: p.sequence, timestamp: p.timestamp, ctrng: p.ctrng.length, previous: p.previous, intact: true }
  } catch {
    // Not intact: read what it claims, only to draw it (marked as failed).
    try {
      const j = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw)) as { data?: { sequence?: unknown; timestamp?: unknown; ctrng?: unknown } }
      const d = j.data ?? {}
      return {
        cid,
        sequence: Number.isSafeInteger(d.sequence) ? (d.sequence as number) : undefined,
        timestamp: Number.isSafeInteger(d.timestamp) ? (d.timestamp as number) : undefined,
        ctrng: Array.isArray(d.ctrng) ? d.ctrng.length : undefined,
        previous: undefined,
        intact: false,
      }
    } catch {
      return { cid, sequence: undefined, timestamp: undefined, ctrng: undefined, previous: undefined, intact: false }
    }
  }
}


/** An IPNS record's RFC 3339 validity, in UTC and local time when it parses. */
function validUntil(validity: string, when: (seconds: number) => string): string {
  const ms = Date.parse(validity)
  return Number.isFinite(ms) ? when(Math.floor(ms / 1000)) : validity
}

/** The state of a group of checks: failed if any failed, ok if all ran and passed, else unchecked. */
function stateOf(result: VerifyResult, names: readonly string[]): State {
  const ran = result.checks.filter((c) => names.includes(c.name))
  if (ran.some((c) => !c.ok)) return 'fail'
  if (ran.some((c) => c.relaxedBy !== undefined)) return 'relaxed'
  return ran.length > 0 ? 'ok' : 'unchecked'
}

/** One sentence per thing the checks that ran establish (or fail to), and nothing else. */
export function explainChecks(result: VerifyResult, m: Messages = en): string[] {
  const w = m.evidence
  const get = (name: string): VerifyResult['checks'][number] | undefined => result.checks.find((c) => c.name === name)
  const out: string[] = []
  const time = get('commitment-time')
  if (time === undefined) out.push(w.explainNoTime)
  else if (!time.ok) out.push(w.explainTimeFailed)
  else if (time.relaxedBy !== undefined) out.push(w.explainTimeRelaxed)
  else out.push(w.explainTimeOk)
  const auth = get('beacon-authenticity')
  if (auth !== undefined) {
    if (!auth.ok) out.push(w.explainAuthFailed)
    else if (auth.relaxedBy !== undefined) out.push(w.explainAuthRelaxed)
    else out.push(w.explainAuthOk)
  }
  const trusted = get('beacon-trusted')
  if (trusted !== undefined && !trusted.ok) out.push(w.explainUntrustedBeacon)
  const outcome = get('outcome')
  if (outcome?.ok === true) out.push(w.explainOutcomeOk)
  else if (outcome !== undefined) out.push(w.explainOutcomeFailed)
  else out.push(w.explainOutcomeNotRun)
  return out
}

function failedDetail(result: VerifyResult, names: readonly string[]): string | undefined {
  const c = result.checks.find((x) => names.includes(x.name) && !x.ok)
  return c === undefined ? undefined : `${c.name}: ${c.detail}`
}

/** The committed draw in words, from the parsed commitment or, when it did not parse, its raw `draw` read by its kind. */
function describeDraw(parsed: DrawSpec | undefined, raw: unknown, kinds: DrawKinds): string {
  if (parsed !== undefined) return kinds.get(parsed.kind)?.describe(parsed, undefined) ?? 'unknown'
  if (raw === null || typeof raw !== 'object') return 'unknown'
  const kind = kinds.get((raw as { kind?: unknown }).kind)
  if (kind === undefined) return 'unknown'
  try {
    return kind.describe(kind.parse(raw as JsonObject, '$.draw'), undefined)
  } catch {
    return 'unknown'
  }
}

/**
 * Builds the evidence picture from the proof (parsed JSON, untrusted) and `verify`'s result.
 * Returns `undefined` when the proof is too broken to picture (not an object, or no chain).
 * `kinds` names the draw (default: the built-in kinds).
 */
export function buildEvidence(proof: unknown, result: VerifyResult, kinds: DrawKinds = DEFAULT_DRAW_KINDS, m: Messages = en): Evidence | undefined {
  const w = m.evidence
  const L = w.labels
  const when = (seconds: number | undefined): string => (seconds === undefined ? w.unknown : formatTimeBoth(seconds, m.lang, m.localTime))
  if (proof === null || typeof proof !== 'object') return undefined
  const p = proof as { commitmentCid?: unknown; commitment?: unknown; chain?: { blocks?: unknown; ipnsRecord?: unknown } }
  const rawBlocks = Array.isArray(p.chain?.blocks) ? (p.chain.blocks as unknown[]) : []
  if (rawBlocks.length === 0 && result.commitment === undefined) return undefined
  const blocks = rawBlocks.map(readBlock).filter((b): b is LooseBlock => b !== undefined)
  const c = result.commitment
  const rawC = (p.commitment ?? {}) as { target?: unknown; after?: { sequence?: unknown; block?: { '/': unknown } }; label?: unknown; draw?: unknown; beacon?: unknown }
  const targetSeq = c?.target ?? (Number.isSafeInteger(rawC.target) ? (rawC.target as number) : undefined)
  const afterSeq = c?.after.sequence ?? (Number.isSafeInteger(rawC.after?.sequence) ? (rawC.after?.sequence as number) : undefined)
  const afterCid = c?.after.block ?? (typeof rawC.after?.block?.['/'] === 'string' ? (rawC.after.block['/'] as string) : undefined)
  const blockCorrupt = result.checks.some((x) => x.name === 'block-content' && !x.ok)

  const head = blocks[0]
  const target = blocks.find((b) => b.sequence !== undefined && b.sequence === targetSeq)
  const afterBlock = blocks.find((b) => b.sequence !== undefined && b.sequence === afterSeq)
  const hasRecord = typeof p.chain?.ipnsRecord === 'string'

  // commitment
  const commitmentChecks = ['commitment-cid', 'commitment-pinned', 'beacon-trusted', 'participants'].filter((n) => n !== 'commitment-pinned' || result.checks.some((x) => x.name === n))
  const cState = stateOf(result, commitmentChecks)
  const commitmentNode: EvidenceNode = {
    key: 'commitment',
    title: w.titles.commitment,
    state: cState,
    status: cState === 'ok' ? `encodes to its CID${result.pinned ? ' (the one pinned)' : ''}; names a trusted beacon; participants match` : cState === 'fail' ? (failedDetail(result, commitmentChecks) ?? 'failed') : 'could not be read',
    checks: commitmentChecks,
    facts: [
      { label: L.cid, value: typeof p.commitmentCid === 'string' ? p.commitmentCid : w.missing, mono: true },
      { label: L.label, value: c?.label ?? (typeof rawC.label === 'string' ? rawC.label : ''), untrusted: true },
      { label: L.draw, value: describeDraw(c?.draw, rawC.draw, kinds) },
      { label: L.madeAfter, value: afterSeq === undefined ? w.unknown : w.block(String(afterSeq)) },
      { label: L.target, value: targetSeq === undefined ? w.unknown : w.block(String(targetSeq)) },
    ],
  }

  // latest block seen at commit time
  const afterCarried = afterBlock !== undefined
  const afterCheck = result.checks.find((x) => x.name === 'after-block')
  let aState: State
  let aStatus: string
  if (afterCheck === undefined) {
    aState = 'unchecked'
    aStatus = blockCorrupt ? 'not checked: a carried block is corrupt' : 'not checked'
  } else if (!afterCheck.ok) {
    aState = 'fail'
    aStatus = `after-block: ${afterCheck.detail}`
  } else if (!afterCarried) {
    aState = 'unchecked'
    aStatus = 'not carried in the proof; named by the commitment only'
  } else {
    aState = 'ok'
    aStatus = 'carried, and it is the block the commitment names'
  }
  const afterNode: EvidenceNode = {
    key: 'after',
    title: w.titles.after,
    state: aState,
    status: aStatus,
    checks: ['after-block'],
    facts: [
      { label: L.sequence, value: afterSeq === undefined ? w.unknown : String(afterSeq) },
      { label: L.cid, value: afterCid ?? w.unknown, mono: true },
      ...(afterBlock?.timestamp !== undefined ? [{ label: L.time, value: when(afterBlock.timestamp) }] : []),
    ],
  }

  // target block
  const targetChecks = ['block-content', 'chain-target', 'randomness']
  const tState = stateOf(result, targetChecks)
  const targetNode: EvidenceNode = {
    key: 'target',
    title: w.titles.target,
    state: target !== undefined && !target.intact ? 'fail' : tState,
    status:
      tState === 'fail'
        ? (failedDetail(result, targetChecks) ?? 'failed')
        : tState === 'ok'
          ? `content matches its CID; carries ${target?.ctrng ?? 0} ctrng value(s)`
          : target === undefined
            ? 'not found in the proof'
            : 'not checked',
    checks: targetChecks,
    facts: [
      { label: L.sequence, value: targetSeq === undefined ? w.unknown : String(targetSeq) },
      { label: L.cid, value: target?.cid ?? result.target?.cid ?? w.notCarried, mono: true },
      { label: L.time, value: when(target?.timestamp ?? result.target?.timestamp) },
    ],
  }

  // signed head
  const recordChecks = ['ipns-record-signature', 'ipns-record-name', 'ipns-record-value']
  let headNode: EvidenceNode
  const headFacts: Fact[] = head === undefined ? [] : [
    { label: L.headBlock, value: head.sequence === undefined ? w.unknown : w.sequence(String(head.sequence), head === target) },
    { label: L.cid, value: head.cid, mono: true },
  ]
  if (!hasRecord) {
    const relaxed = result.checks.some((x) => x.name === 'beacon-authenticity' && x.relaxedBy !== undefined)
    headNode = {
      key: 'head',
      title: w.titles.head,
      state: 'absent',
      status: relaxed ? 'no signed beacon record: integrity only, accepted by your settings' : 'no signed beacon record: nothing shows the beacon published these blocks',
      checks: recordChecks,
      facts: headFacts,
    }
  } else {
    const rState = stateOf(result, recordChecks)
    const facts = [...headFacts]
    try {
      const rec = parseIpnsRecord(base64ToBytes(p.chain!.ipnsRecord as string))
      facts.push({ label: L.ipnsValue, value: rec.value, mono: true }, { label: L.recordSeq, value: rec.sequence.toString() }, { label: L.validUntil, value: validUntil(rec.validity, when) })
    } catch {
      facts.push({ label: L.ipnsRecord, value: w.doesNotParse })
    }
    facts.push({ label: L.beacon, value: c?.beacon ?? (typeof rawC.beacon === 'string' ? rawC.beacon : w.unknown), mono: true })
    headNode = {
      key: 'head',
      title: w.titles.headSigned,
      state: rState,
      status:
        rState === 'ok'
          ? "signed by the beacon's key; names the head block"
          : rState === 'fail'
            ? (failedDetail(result, recordChecks) ?? 'failed')
            : blockCorrupt
              ? 'not checked: a carried block is corrupt'
              : 'not checked',
      checks: recordChecks,
      facts,
    }
  }

  // links
  const chainLinks = result.checks.find((x) => x.name === 'chain-links')
  const chainTarget = result.checks.find((x) => x.name === 'chain-target')
  const notRun = blockCorrupt ? 'not checked: a carried block is corrupt' : 'not checked'
  const link1: EvidenceLink = {
    from: 'commitment',
    to: 'after',
    label: 'made after',
    checks: ['after-block'],
    state: aState,
    status: aState === 'ok' ? 'the committed block is in the chain' : aState === 'fail' ? 'the committed block does not match' : afterCheck === undefined ? notRun : 'block not carried',
  }
  let link2: EvidenceLink
  if (chainLinks === undefined) {
    link2 = { from: 'after', to: 'target', label: 'hash-linked', checks: ['chain-links'], state: 'unchecked', status: notRun }
  } else if (!afterCarried) {
    link2 = { from: 'after', to: 'target', label: 'later block', checks: ['chain-links'], state: 'unchecked', status: `target ${targetSeq ?? '?'} > ${afterSeq ?? '?'} by the commitment; path not carried` }
  } else {
    link2 = { from: 'after', to: 'target', label: 'hash-linked', checks: ['chain-links'], state: chainLinks.ok ? 'ok' : 'fail', status: chainLinks.ok ? `${(targetSeq ?? 0) - (afterSeq ?? 0)} link(s) by previous hashes` : 'broken link' }
  }
  const linkOk = chainLinks?.ok === true && chainTarget?.ok === true
  let link3: EvidenceLink
  if (chainLinks === undefined || chainTarget === undefined) {
    link3 = { from: 'target', to: 'head', label: 'hash-linked', checks: ['chain-links', 'chain-target'], state: 'unchecked', status: notRun }
  } else if (head !== undefined && head === target) {
    link3 = { from: 'target', to: 'head', label: 'is the head', checks: ['chain-target'], state: chainTarget.ok ? 'ok' : 'fail', status: chainTarget.ok ? 'the target is the newest carried block' : 'target not proven' }
  } else {
    link3 = {
      from: 'target',
      to: 'head',
      label: 'hash-linked',
      checks: ['chain-links', 'chain-target'],
      state: linkOk ? 'ok' : 'fail',
      status: linkOk ? `${(head?.sequence ?? 0) - (targetSeq ?? 0)} link(s) by previous hashes` : !chainLinks.ok ? 'broken link' : 'target not in the chain',
    }
  }

  // derivation: commitment CID + target randomness -> seed -> outcome
  const seedCheck = result.checks.find((x) => x.name === 'seed')
  const outcomeCheck = result.checks.find((x) => x.name === 'outcome')
  const derivation: EvidenceLink[] = [
    {
      from: 'target',
      to: 'commitment',
      label: 'seed',
      checks: ['seed'],
      state: seedCheck === undefined ? 'unchecked' : seedCheck.ok ? 'ok' : 'fail',
      status: seedCheck === undefined ? 'not checked' : seedCheck.ok ? 'recomputed: domain-separated hash of the commitment CID and the target block' : seedCheck.detail,
    },
    {
      from: 'target',
      to: 'commitment',
      label: 'outcome',
      checks: ['outcome'],
      state: outcomeCheck === undefined ? 'unchecked' : result.checks.some((x) => x.name === 'outcome' && !x.ok) ? 'fail' : 'ok',
      status: outcomeCheck === undefined ? 'not checked' : (result.checks.find((x) => x.name === 'outcome' && !x.ok)?.detail ?? 'recomputed from the seed: the claimed outcome is exactly it'),
    },
  ]

  // chain strip (newest first, as carried)
  const roles = (b: LooseBlock): CarriedBlock['roles'] => {
    const r: ('head' | 'target' | 'after')[] = []
    if (b === head) r.push('head')
    if (b.sequence !== undefined && b.sequence === targetSeq) r.push('target')
    if (b.sequence !== undefined && b.sequence === afterSeq) r.push('after')
    return r
  }
  const strip = blocks.map((b) => ({ sequence: b.sequence, cid: b.cid, intact: b.intact, roles: roles(b) }))

  // commitment time-stamp, when the verifier checked one
  const time = result.checks.find((x) => x.name === 'commitment-time')
  const timeState: State | undefined = time === undefined ? undefined : stateOf(result, ['commitment-time'])
  const timeNode: EvidenceNode | undefined =
    time === undefined || timeState === undefined
      ? undefined
      : { key: 'time', title: w.titles.time, state: timeState, status: time.detail, checks: ['commitment-time'], facts: [] }
  const timeLink: EvidenceLink | undefined =
    timeNode === undefined
      ? undefined
      : { from: 'time', to: 'commitment', label: 'dates', checks: ['commitment-time'], state: timeNode.state, status: timeNode.state === 'ok' ? 'before the target block' : timeNode.state === 'relaxed' ? 'not required by your settings' : 'not shown' }

  return {
    nodes: timeNode === undefined ? [commitmentNode, afterNode, targetNode, headNode] : [timeNode, commitmentNode, afterNode, targetNode, headNode],
    links: timeLink === undefined ? [link1, link2, link3] : [timeLink, link1, link2, link3],
    derivation,
    blocks: strip,
    blockCount: rawBlocks.length,
    hasRecord,
    explain: explainChecks(result, m),
  }
}
