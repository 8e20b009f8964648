/**
 * The tamper table: valid proofs of every kind and the one-field changes that must make `verify` fail
 * with a named check. Used by test/core/verify-tamper-table.test.ts (each change → its check) and
 * test/core/check-names.test.ts (every check name reported is listed in CHECK_NAMES, and every listed
 * name is reported).
 */
import { base64ToBytes, bytesToBase64 } from '../../src/core/bytes.js'
import { blockCid, encodeBlock } from '../../src/core/block.js'
import { commit, type CommitOptions } from '../../src/core/commitment.js'
import { drawFromBlock, type Participants } from '../../src/core/draw.js'
import { type CheckName } from '../../src/core/check-names.js'
import { type Proof } from '../../src/core/proof.js'
import { CID } from 'multiformats/cid'
import { BEACON_NAME, buildChain, fakeCtrng, OLD_BEACON_NAME } from './chain.js'

export const CHAIN = buildChain(12, 'tamper')
export const TARGET = 10
export const AFTER = 7
export const PEOPLE = Array.from({ length: 10 }, (_, i) => `entrant-${i} ${['Ada', 'Émile', '李雷', 'Zoë 🎉'][i % 4]}`)
export const WEIGHTED = PEOPLE.slice(0, 5).map((entry, i) => ({ entry, weight: [1, 5, 2, 9, 3][i]! }))

export type J = any // eslint-disable-line @typescript-eslint/no-explicit-any

export const SECRET = Uint8Array.from({ length: 32 }, (_, i) => 100 + i)

/** A proof; a private (winners-only) one is of a salted commitment made with SECRET. */
export function make(draw: CommitOptions['draw'], participants: Participants | undefined, disclosure: 'full' | 'winners' = 'full', salted = disclosure === 'winners'): J {
  const secret = salted ? { secret: SECRET } : {}
  const { commitment } = commit({ beacon: BEACON_NAME, target: TARGET, after: { sequence: AFTER, block: CHAIN[AFTER]!.cid }, participants, draw, label: `tamper ${draw.kind}`, ...(salted ? { private: { secret: SECRET } } : {}) })
  return JSON.parse(JSON.stringify(drawFromBlock(commitment, participants, CHAIN[TARGET]!, { disclosure, ...secret }) satisfies Proof))
}

export const PROOFS: Record<string, J> = {
  'public pick': make({ kind: 'pick', count: 3 }, PEOPLE),
  'private pick': make({ kind: 'pick', count: 3 }, PEOPLE, 'winners'),
  shuffle: make({ kind: 'shuffle' }, PEOPLE.slice(0, 6)),
  'salted shuffle': make({ kind: 'shuffle' }, PEOPLE.slice(0, 6), 'full', true),
  range: make({ kind: 'range', min: -3n, max: 2n ** 70n, count: 4, distinct: true }, undefined),
  weighted: make({ kind: 'weighted', count: 2 }, WEIGHTED),
}

const ranked = (p: J): J[] => (p.outcome.kind === 'shuffle' ? p.outcome.ranking : p.outcome.winners ?? [])
const otherBlob = (b64: string): string => b64.slice(0, 2) + (b64[2] === 'A' ? 'B' : 'A') + b64.slice(3)
const flipHex = (h: string, at = 0): string => h.slice(0, at) + (h[at] === '0' ? '1' : '0') + h.slice(at + 1)

/** Re-encodes the target block with changed fields and a matching (new) CID: a consistent forgery. */
function forgeBlock(p: J, change: { sequence?: number; ctrng?: string[] }): void {
  const t = CHAIN[TARGET]!
  const bytes = encodeBlock({ previous: t.previous, sequence: change.sequence ?? t.sequence, timestamp: t.timestamp, ctrng: change.ctrng ?? [...t.ctrng] })
  p.chain.blocks[0] = { cid: blockCid(bytes), bytes: bytesToBase64(bytes) }
}

/** A mutation: which proofs it applies to, what it does, and the check that must fail. */
export interface Mutation {
  name: string
  applies: (p: J) => boolean
  mutate: (p: J) => void
  check: CheckName
}

const all = (): boolean => true
const hasRanked = (p: J): boolean => p.outcome.kind !== 'range'
const isFull = (p: J): boolean => p.participants?.disclosure === 'full'
const isPrivate = (p: J): boolean => p.participants?.disclosure === 'winners'
const hasSalts = (p: J): boolean => p.participants?.salts !== undefined
const hasCount = (p: J): boolean => 'count' in p.commitment.draw
const hasParticipants = (p: J): boolean => p.commitment.participants !== undefined

export const MUTATIONS: Mutation[] = [
  // the commitment
  { name: 'commitment.label', applies: all, mutate: (p) => (p.commitment.label += '.'), check: 'commitment-cid' },
  { name: 'commitment.label → non-ASCII look-alike', applies: all, mutate: (p) => (p.commitment.label = p.commitment.label.replace('a', 'а')), check: 'commitment-cid' },
  { name: 'commitment.target + 1', applies: all, mutate: (p) => (p.commitment.target += 1), check: 'commitment-cid' },
  { name: 'commitment.target − 1', applies: all, mutate: (p) => (p.commitment.target -= 1), check: 'commitment-cid' },
  { name: 'commitment.beacon', applies: all, mutate: (p) => (p.commitment.beacon = OLD_BEACON_NAME), check: 'commitment-cid' },
  {
    name: 'commitment.draw.kind',
    applies: all,
    mutate: (p) => (p.commitment.draw = p.commitment.draw.kind === 'shuffle' ? { kind: 'pick', count: 1 } : p.commitment.draw.kind === 'range' ? { kind: 'shuffle' } : { kind: 'shuffle' }),
    check: 'commitment-cid',
  },
  { name: 'commitment.draw.count', applies: hasCount, mutate: (p) => (p.commitment.draw.count -= 1), check: 'commitment-cid' },
  { name: 'commitment.draw.min', applies: (p) => p.commitment.draw.kind === 'range', mutate: (p) => (p.commitment.draw.min = '-4'), check: 'commitment-cid' },
  { name: 'commitment.draw.max', applies: (p) => p.commitment.draw.kind === 'range', mutate: (p) => (p.commitment.draw.max = (2n ** 70n - 1n).toString()), check: 'commitment-cid' },
  { name: 'commitment.draw.distinct', applies: (p) => p.commitment.draw.kind === 'range', mutate: (p) => (p.commitment.draw.distinct = false), check: 'commitment-cid' },
  { name: 'commitment.after.sequence', applies: all, mutate: (p) => (p.commitment.after.sequence -= 1), check: 'commitment-cid' },
  { name: 'commitment.after.block', applies: all, mutate: (p) => (p.commitment.after.block = { '/': CHAIN[AFTER - 1]!.cid }), check: 'commitment-cid' },
  { name: 'commitment.participants.root', applies: hasParticipants, mutate: (p) => (p.commitment.participants.root['/'].bytes = otherBlob(p.commitment.participants.root['/'].bytes)), check: 'commitment-cid' },
  { name: 'commitment.participants.count', applies: hasParticipants, mutate: (p) => (p.commitment.participants.count += 1), check: 'commitment-cid' },
  { name: 'commitment.participants.salted removed', applies: (p) => p.commitment.participants?.salted === true, mutate: (p) => delete p.commitment.participants.salted, check: 'commitment-cid' },
  { name: 'commitment.participants.salted added', applies: (p) => hasParticipants(p) && p.commitment.participants.salted === undefined, mutate: (p) => (p.commitment.participants.salted = true), check: 'commitment-cid' },
  { name: 'commitment.version', applies: all, mutate: (p) => (p.commitment.version = 3), check: 'version' },
  // Version 2 (a mixed draw) is known: a v1 commitment relabelled 2 lacks its drand round.
  { name: 'commitment.version 2 without drand', applies: all, mutate: (p) => (p.commitment.version = 2), check: 'commitment-cid' },
  { name: 'commitment extra field', applies: all, mutate: (p) => (p.commitment.salt = 'x'), check: 'commitment-cid' },
  { name: 'commitment field removed', applies: all, mutate: (p) => delete p.commitment.label, check: 'commitment-cid' },
  { name: 'commitmentCid → another commitment', applies: all, mutate: (p) => (p.commitmentCid = PROOFS[p.commitment.draw.kind === 'shuffle' ? 'range' : 'shuffle'].commitmentCid), check: 'commitment-cid' },
  { name: 'commitmentCid → same digest, raw codec', applies: all, mutate: (p) => (p.commitmentCid = CID.createV1(0x55, CID.parse(p.commitmentCid).multihash).toString()), check: 'commitment-cid' },
  { name: 'commitmentCid → not a CID', applies: all, mutate: (p) => (p.commitmentCid = 'bagaaiera'), check: 'commitment-cid' },
  // the participants
  ...PEOPLE.map<Mutation>((_, i) => ({ name: `participants.entries[${i}]`, applies: (p) => isFull(p) && i < p.participants.entries.length, mutate: (p) => setEntry(p, i), check: 'participants' })),
  { name: 'participants.entries order (0 ⇄ 1)', applies: isFull, mutate: (p) => ([p.participants.entries[0], p.participants.entries[1]] = [p.participants.entries[1], p.participants.entries[0]]), check: 'participants' },
  { name: 'participants.entries order (reversed)', applies: isFull, mutate: (p) => p.participants.entries.reverse(), check: 'participants' },
  { name: 'participants.entries one removed', applies: isFull, mutate: (p) => p.participants.entries.pop(), check: 'participants' },
  { name: 'participants.entries one added', applies: isFull, mutate: (p) => p.participants.entries.push(typeof p.participants.entries[0] === 'string' ? 'newcomer' : { entry: 'newcomer', weight: 1 }), check: 'participants' },
  { name: 'participants.entries[3].weight', applies: (p) => isFull(p) && typeof p.participants.entries[0] !== 'string', mutate: (p) => (p.participants.entries[3].weight += 1), check: 'participants' },
  { name: 'participants removed', applies: hasParticipants, mutate: (p) => delete p.participants, check: 'participants' },
  { name: 'participants added to a range proof', applies: (p) => !hasParticipants(p), mutate: (p) => (p.participants = { disclosure: 'full', entries: ['x'] }), check: 'participants' },
  { name: 'participants.disclosure full → winners (no revealed path)', applies: (p) => p.outcome.kind === 'pick' && isFull(p), mutate: (p) => (p.participants = { disclosure: 'winners', revealed: p.outcome.winners.map((w: J) => ({ index: w.index, entry: w.entry, salt: '00'.repeat(32), path: [] })) }), check: 'participants' },
  { name: 'salts: one changed', applies: hasSalts, mutate: (p) => (p.participants.salts[2] = flipHex(p.participants.salts[2], 9)), check: 'participants' },
  { name: 'salts: two swapped', applies: hasSalts, mutate: (p) => ([p.participants.salts[0], p.participants.salts[1]] = [p.participants.salts[1], p.participants.salts[0]]), check: 'participants' },
  { name: 'salts: removed', applies: hasSalts, mutate: (p) => delete p.participants.salts, check: 'participants' },
  { name: 'salts: one dropped', applies: hasSalts, mutate: (p) => p.participants.salts.pop(), check: 'participants' },
  { name: 'salts: added to a public list', applies: (p) => isFull(p) && !hasSalts(p), mutate: (p) => (p.participants.salts = p.participants.entries.map(() => '00'.repeat(32))), check: 'participants' },
  { name: 'private disclosure on a shuffle', applies: (p) => p.outcome.kind === 'shuffle', mutate: (p) => (p.participants = { disclosure: 'winners', revealed: [] }), check: 'participants' },
  ...[0, 1, 2].flatMap<Mutation>((i) => [
    { name: `revealed[${i}].index`, applies: isPrivate, mutate: (p) => (p.participants.revealed[i].index = (p.participants.revealed[i].index + 1) % 10), check: 'participants' },
    { name: `revealed[${i}].entry`, applies: isPrivate, mutate: (p) => (p.participants.revealed[i].entry += '!'), check: 'participants' },
    { name: `revealed[${i}].salt`, applies: isPrivate, mutate: (p) => (p.participants.revealed[i].salt = flipHex(p.participants.revealed[i].salt, 17)), check: 'participants' },
    { name: `revealed[${i}] repeated in place of the next`, applies: isPrivate, mutate: (p) => (p.participants.revealed[(i + 1) % 3] = structuredClone(p.participants.revealed[i])), check: 'distinct-winners' },
    ...[0, 1, 2, 3].map<Mutation>((j) => ({ name: `revealed[${i}].path[${j}]`, applies: (p) => isPrivate(p) && j < p.participants.revealed[i].path.length, mutate: (p) => (p.participants.revealed[i].path[j] = flipHex(p.participants.revealed[i].path[j], 5)), check: 'participants' })),
    { name: `revealed[${i}].path element removed`, applies: isPrivate, mutate: (p) => p.participants.revealed[i].path.pop(), check: 'participants' },
    { name: `revealed[${i}].path element added`, applies: isPrivate, mutate: (p) => p.participants.revealed[i].path.push('00'.repeat(32)), check: 'participants' },
  ]),
  { name: 'revealed order (0 ⇄ 1)', applies: isPrivate, mutate: (p) => ([p.participants.revealed[0], p.participants.revealed[1]] = [p.participants.revealed[1], p.participants.revealed[0]]), check: 'revealed-winners' },
  { name: 'revealed one removed', applies: isPrivate, mutate: (p) => p.participants.revealed.pop(), check: 'revealed-winners' },
  { name: 'revealed: a non-winner swapped in with a valid path', applies: isPrivate, mutate: (p) => swapInNonWinner(p), check: 'outcome' },
  // the chain
  ...[0, 1, 40, 100, 150, -1].map<Mutation>((at) => ({ name: `block bytes: byte ${at} flipped (decoded, re-encoded)`, applies: all, mutate: (p) => flipBlockByte(p, at), check: 'block-content' })),
  { name: 'block bytes: a newline appended', applies: all, mutate: (p) => (p.chain.blocks[0].bytes = bytesToBase64(new Uint8Array([...base64ToBytes(p.chain.blocks[0].bytes), 10]))), check: 'block-content' },
  { name: 'block cid → another block', applies: all, mutate: (p) => (p.chain.blocks[0].cid = CHAIN[TARGET - 1]!.cid), check: 'block-content' },
  { name: 'block cid → not a CID', applies: all, mutate: (p) => (p.chain.blocks[0].cid = 'bafkreiaaaa'), check: 'block-content' },
  { name: 'block replaced by another block, with its CID', applies: all, mutate: (p) => (p.chain.blocks[0] = { cid: CHAIN[TARGET - 1]!.cid, bytes: bytesToBase64(CHAIN[TARGET - 1]!.bytes) }), check: 'chain-target' },
  { name: 'forged block: one ctrng value changed, CID recomputed', applies: all, mutate: (p) => forgeBlock(p, { ctrng: [CHAIN[TARGET]!.ctrng[0]!, fakeCtrng('forged', 1), CHAIN[TARGET]!.ctrng[2]!] }), check: 'seed' },
  { name: 'forged block: ctrng values reordered, CID recomputed', applies: all, mutate: (p) => forgeBlock(p, { ctrng: [...CHAIN[TARGET]!.ctrng].reverse() }), check: 'seed' },
  { name: 'forged block: other sequence, CID recomputed', applies: all, mutate: (p) => forgeBlock(p, { sequence: TARGET + 1 }), check: 'chain-target' },
  { name: 'forged block: empty ctrng, CID recomputed', applies: all, mutate: (p) => forgeBlock(p, { ctrng: [] }), check: 'randomness' },
  { name: 'chain: an unlinked block put in front', applies: all, mutate: (p) => p.chain.blocks.unshift({ cid: CHAIN[5]!.cid, bytes: bytesToBase64(CHAIN[5]!.bytes) }), check: 'chain-links' },
  { name: 'chain: the after block carried with a wrong link order', applies: all, mutate: (p) => p.chain.blocks.push({ cid: CHAIN[AFTER]!.cid, bytes: bytesToBase64(CHAIN[AFTER]!.bytes) }), check: 'chain-links' },
  { name: 'chain: blocks emptied', applies: all, mutate: (p) => (p.chain.blocks = []), check: 'format' },
  { name: 'chain: garbage IPNS record', applies: all, mutate: (p) => (p.chain.ipnsRecord = bytesToBase64(new Uint8Array([1, 2, 3]))), check: 'ipns-record-signature' },
  // the seed
  { name: 'seed: first digit', applies: all, mutate: (p) => (p.seed = flipHex(p.seed, 0)), check: 'seed' },
  { name: 'seed: last digit', applies: all, mutate: (p) => (p.seed = flipHex(p.seed, 63)), check: 'seed' },
  { name: 'seed: uppercase', applies: all, mutate: (p) => (p.seed = p.seed.toUpperCase()), check: 'format' },
  // the outcome
  ...[0, 1, 2].flatMap<Mutation>((i) => [
    { name: `outcome[${i}].rank`, applies: (p) => hasRanked(p) && i < ranked(p).length, mutate: (p) => (ranked(p)[i].rank += 1), check: 'outcome' },
    { name: `outcome[${i}].index`, applies: (p) => hasRanked(p) && i < ranked(p).length, mutate: (p) => (ranked(p)[i].index = (ranked(p)[i].index + 1) % (p.commitment.participants?.count ?? 1)), check: 'outcome' },
    { name: `outcome[${i}].entry`, applies: (p) => hasRanked(p) && i < ranked(p).length, mutate: (p) => (ranked(p)[i].entry += ' '), check: 'outcome' },
  ]),
  ...[0, 1, 2, 3].map<Mutation>((i) => ({ name: `outcome.values[${i}]`, applies: (p) => p.outcome.kind === 'range', mutate: (p) => (p.outcome.values[i] = (BigInt(p.outcome.values[i]) + 1n).toString()), check: 'outcome' })),
  { name: 'outcome: last shuffle entries swapped', applies: (p) => p.outcome.kind === 'shuffle', mutate: (p) => swapLast(p.outcome.ranking), check: 'outcome' },
  { name: 'outcome: two winners swapped (ranks kept)', applies: (p) => hasRanked(p) && p.outcome.kind !== 'shuffle', mutate: (p) => swapFirst(ranked(p)), check: 'outcome' },
  { name: 'outcome: one winner dropped', applies: hasRanked, mutate: (p) => ranked(p).pop(), check: 'outcome' },
  { name: 'outcome: one value dropped', applies: (p) => p.outcome.kind === 'range', mutate: (p) => p.outcome.values.pop(), check: 'outcome' },
  { name: 'outcome: one value added', applies: (p) => p.outcome.kind === 'range', mutate: (p) => p.outcome.values.push('0'), check: 'outcome' },
  { name: 'outcome.kind', applies: all, mutate: (p) => changeKind(p), check: 'outcome' },
  // the envelope
  { name: 'version 3', applies: all, mutate: (p) => (p.version = 3), check: 'version' },
  { name: 'version 2 without drand', applies: all, mutate: (p) => (p.version = 2), check: 'format' },
  { name: 'version 0', applies: all, mutate: (p) => (p.version = 0), check: 'version' },
  { name: 'version "1"', applies: all, mutate: (p) => (p.version = '1'), check: 'version' },
  { name: 'version removed', applies: all, mutate: (p) => delete p.version, check: 'format' },
  { name: 'type', applies: all, mutate: (p) => (p.type = 'orbitdraw-proof-v2'), check: 'format' },
  { name: 'extra top-level field', applies: all, mutate: (p) => (p.signature = 'trust me'), check: 'format' },
  { name: 'extra field in chain', applies: all, mutate: (p) => (p.chain.head = 1), check: 'format' },
  { name: 'extra field in a block', applies: all, mutate: (p) => (p.chain.blocks[0].sequence = TARGET), check: 'format' },
  { name: 'extra field in the outcome', applies: all, mutate: (p) => (p.outcome.note = 'x'), check: 'format' },
  { name: 'extra field in the participants', applies: hasParticipants, mutate: (p) => (p.participants.note = 'x'), check: 'format' },
  { name: 'extra field in a ranked entry', applies: hasRanked, mutate: (p) => (ranked(p)[0].weight = 1), check: 'format' },
  { name: 'seed removed', applies: all, mutate: (p) => delete p.seed, check: 'format' },
  { name: 'outcome removed', applies: all, mutate: (p) => delete p.outcome, check: 'format' },
  { name: 'block bytes not base64', applies: all, mutate: (p) => (p.chain.blocks[0].bytes += '*'), check: 'format' },
]

function setEntry(p: J, i: number): void {
  const e = p.participants.entries[i]
  if (typeof e === 'string') p.participants.entries[i] = `${e}~`
  else e.entry = `${e.entry}~`
}
function flipBlockByte(p: J, at: number): void {
  const bytes = base64ToBytes(p.chain.blocks[0].bytes)
  const i = at < 0 ? bytes.length + at : at
  bytes[i] = bytes[i]! ^ 0x04
  p.chain.blocks[0].bytes = bytesToBase64(bytes)
}
function swapInNonWinner(p: J): void {
  // the private proof's revealed[0] is replaced by a genuine inclusion proof of a non-winner
  const winners = new Set(p.outcome.winners.map((w: J) => w.index))
  const loser = PEOPLE.findIndex((_, i) => !winners.has(i))
  // (same list and secret, so the same salted tree and root; only the draw count differs)
  const full = drawFromBlock(commit({ beacon: BEACON_NAME, target: TARGET, after: { sequence: AFTER, block: CHAIN[AFTER]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 10 }, label: p.commitment.label, private: { secret: SECRET } }).commitment, PEOPLE, CHAIN[TARGET]!, { disclosure: 'winners', secret: SECRET })
  const rev = full.participants?.disclosure === 'winners' ? full.participants.revealed.find((r) => r.index === loser)! : undefined
  p.participants.revealed[0] = JSON.parse(JSON.stringify(rev))
  p.outcome.winners[0].index = loser
  p.outcome.winners[0].entry = PEOPLE[loser]
}
function swapLast(list: J[]): void {
  const a = list.length - 1
  const b = list.length - 2
  ;[list[a].index, list[b].index, list[a].entry, list[b].entry] = [list[b].index, list[a].index, list[b].entry, list[a].entry]
}
function swapFirst(list: J[]): void {
  ;[list[0].index, list[1].index, list[0].entry, list[1].entry] = [list[1].index, list[0].index, list[1].entry, list[0].entry]
}
function changeKind(p: J): void {
  const o = p.outcome
  if (o.kind === 'shuffle') p.outcome = { kind: 'pick', winners: o.ranking }
  else if (o.kind === 'pick') p.outcome = { kind: 'weighted', winners: o.winners }
  else if (o.kind === 'weighted') p.outcome = { kind: 'pick', winners: o.winners }
  else p.outcome = { kind: 'pick', winners: [] }
}

