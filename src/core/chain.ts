/**
 * Chain checks: from the beacon's signed head down to the committed target block.
 *
 * A proof carries `chain.blocks` newest first: `blocks[0]` is the head named by the IPNS record's
 * value, each next block is the `previous` of the one before, down to the committed target and
 * optionally further down to the commitment's `after` block. {@link checkChain} checks the links by
 * hash and, when a record is carried, that the beacon's key signed the head.
 *
 * Pure: no clock (pass `now` to report record expiry), no network.
 *
 * @module
 */
import type { BeaconBlock } from './block.js'
import { sameContent } from './block.js'
import { check, notCheckedCheck, uncheckableCheck, type Check } from './check.js'
import type { OrbitdrawError } from './errors.js'
import { InvalidInputError } from './errors.js'
import { parseIpnsName } from './ipns/name.js'
import type { IpnsRecordInfo } from './ipns/record.js'

/**
 * Input of {@link checkChain}.
 * @category Verify
 */
export interface ChainCheckInput {
  /** The committed beacon name (`k2k4r8…` or `k51…`). */
  readonly beacon: string
  /** The committed target sequence. */
  readonly target: number
  /** The latest block seen when committing (from the commitment). */
  readonly after: { readonly sequence: number; readonly block: string }
  /** The carried blocks, newest first, already CID-checked and parsed. */
  readonly blocks: readonly BeaconBlock[]
  /** The carried IPNS record (marshalled protobuf), if any. */
  readonly ipnsRecord?: Uint8Array | undefined
  /** "Now", only to report whether the record has expired (expiry never fails a proof). */
  readonly now?: Date | undefined
}

/**
 * Result of {@link checkChain}.
 * @category Verify
 */
export interface ChainCheckResult {
  /** Named checks, in order: `chain-links`, `chain-target`, `after-block`, then the `ipns-record-*` checks. */
  readonly checks: Check[]
  /** True when a record is carried and every check passed: the beacon's key vouches for the target. */
  readonly authenticated: boolean
  /** Remarks that are not failures (integrity only, record expiry, extra blocks...). */
  readonly notes: string[]
  /** The committed target block, when `chain-target` passed: the chain's links prove it descends from the head. */
  readonly target?: BeaconBlock
}

/**
 * Checks the carried chain against the commitment and, when present, the beacon's IPNS record.
 * Never throws on bad data: every problem is a failed check whose detail says what broke.
 *
 * Order: `chain-links` (each block's `previous` is the next block's CID, sequences decrease by 1),
 * `chain-target` (the chain contains the committed target sequence), `after-block` (if the chain
 * reaches `after.sequence`, that block is the committed one), then with a record:
 * `ipns-record-signature` (V2 signature by the record's key), `ipns-record-name` (the key hashes to
 * the committed beacon name), `ipns-record-value` (value = `/ipfs/<blocks[0].cid>`, by multihash).
 * @category Verify
 */
export async function checkChain(input: ChainCheckInput): Promise<ChainCheckResult> {
  if (input === null || typeof input !== 'object' || !Array.isArray(input.blocks)) {
    throw new InvalidInputError('INVALID_CHAIN_INPUT', 'checkChain needs { beacon, target, after, blocks }', 'pass the parsed proof chain')
  }
  const { blocks, target, after } = input
  const checks: Check[] = []
  const notes: string[] = []

  // chain-links
  let linksOk = blocks.length > 0
  let linkDetail = blocks.length === 0 ? 'the chain carries no blocks' : ''
  for (let i = 0; linksOk && i + 1 < blocks.length; i++) {
    const child = blocks[i]!
    const parent = blocks[i + 1]!
    if (child.previous === null) {
      linksOk = false
      linkDetail = `blocks[${i}] (sequence ${child.sequence}) is a genesis block with no previous link, but blocks[${i + 1}] follows it`
    } else if (!safeSame(child.previous, parent.cid)) {
      linksOk = false
      linkDetail = `blocks[${i}] (sequence ${child.sequence}) links to previous ${child.previous}, but blocks[${i + 1}] is ${parent.cid}`
    } else if (parent.sequence !== child.sequence - 1) {
      linksOk = false
      linkDetail = `blocks[${i + 1}] has sequence ${parent.sequence}, expected ${child.sequence - 1} (one less than blocks[${i}])`
    }
  }
  if (linksOk) {
    const head = blocks[0]!
    const last = blocks[blocks.length - 1]!
    linkDetail = blocks.length === 1 ? `one block (sequence ${head.sequence}); no links to check` : `${blocks.length} blocks linked by hash from sequence ${head.sequence} down to ${last.sequence}`
  }
  checks.push(check('chain-links', linksOk, linkDetail))

  // chain-target
  const head = blocks[0]
  const targetIndex = head === undefined ? -1 : head.sequence - target
  const targetBlock = targetIndex >= 0 ? blocks[targetIndex] : undefined
  let targetOk = false
  let targetDetail: string
  if (head === undefined) targetDetail = 'the chain carries no blocks, so it cannot reach the target'
  else if (head.sequence < target) targetDetail = `the chain's newest block has sequence ${head.sequence}, before the committed target ${target}`
  else if (targetBlock === undefined) targetDetail = `the chain stops at sequence ${blocks[blocks.length - 1]!.sequence} and never reaches the committed target ${target}`
  else if (targetBlock.sequence !== target) targetDetail = `blocks[${targetIndex}] has sequence ${targetBlock.sequence}, not the committed target ${target} (the chain is not contiguous)`
  else if (!linksOk) targetDetail = `blocks[${targetIndex}] has the target sequence ${target}, but the chain's links are broken, so it is not proven to descend from the head`
  else {
    targetOk = true
    targetDetail = targetIndex === 0 ? `blocks[0] is the target block ${target} (${targetBlock.cid})` : `the chain reaches the target block ${target} (${targetBlock.cid}) ${targetIndex} block(s) below the head`
  }
  checks.push(check('chain-target', targetOk, targetDetail))

  // after-block
  let afterOk = true
  let afterNotChecked = false
  let afterDetail: string
  const last = blocks[blocks.length - 1]
  if (!(Number.isSafeInteger(after?.sequence) && typeof after?.block === 'string')) {
    afterOk = false
    afterDetail = 'the commitment has no valid "after" block'
  } else if (after.sequence >= target) {
    afterOk = false
    afterDetail = `the commitment's after block ${after.sequence} is not before the target ${target}`
  } else if (head === undefined || last === undefined || last.sequence > after.sequence || head.sequence < after.sequence) {
    afterNotChecked = true
    afterDetail = `not checked: the chain does not carry block ${after.sequence} (the latest block seen at commit time)`
  } else {
    const b = blocks[head.sequence - after.sequence]
    if (b === undefined || b.sequence !== after.sequence) {
      afterOk = false
      afterDetail = `the chain has no block with sequence ${after.sequence} at the expected position`
    } else if (!safeSame(b.cid, after.block)) {
      afterOk = false
      afterDetail = `the chain's block ${after.sequence} is ${b.cid}, but the commitment says the latest block seen was ${after.block}`
    } else if (!linksOk) {
      afterOk = false
      afterDetail = `block ${after.sequence} matches the commitment, but the chain's links are broken`
    } else {
      afterDetail = `the chain's block ${after.sequence} is the commitment's after block ${b.cid}: the commitment was made after it`
    }
  }
  checks.push(afterNotChecked ? notCheckedCheck('after-block', afterDetail) : check('after-block', afterOk, afterDetail))

  if (last !== undefined && linksOk) {
    const lowest = Math.min(target, Number.isSafeInteger(after?.sequence) ? after.sequence : target)
    if (last.sequence < lowest) notes.push(`the chain carries ${lowest - last.sequence} block(s) below sequence ${lowest} that no check needs`)
  }

  // IPNS record
  if (input.ipnsRecord === undefined) {
    notes.push('the proof carries no IPNS record: the block is checked for integrity (its bytes hash to its CID) but nothing shows the beacon published it')
    return { checks, authenticated: false, notes, ...(targetOk ? { target: targetBlock! } : {}) }
  }
  const recordChecks = await checkRecord(input.ipnsRecord, input.beacon, head, input.now, notes)
  checks.push(...recordChecks)
  const authenticated = checks.every((c) => c.ok)
  if (!authenticated) notes.push('the chain is not authenticated: see the failed checks')
  return { checks, authenticated, notes, ...(targetOk ? { target: targetBlock! } : {}) }
}

async function checkRecord(bytes: Uint8Array, beacon: string, head: BeaconBlock | undefined, now: Date | undefined, notes: string[]): Promise<Check[]> {
  // The record decoder and the signature code (DAG-CBOR, RSA) load only for a proof that carries a
  // record, and Ed25519 (@noble/curves) only for an Ed25519 key: a CLI verify of an unsigned proof pays
  // for none of them, one of an RSA-signed proof not for Ed25519 (docs/performance.md, Start-up).
  const { checkRecordSignature, parseIpnsRecord, recordKeyForNameAsync } = await import('./ipns/record.js')
  let record: IpnsRecordInfo
  try {
    record = parseIpnsRecord(bytes)
  } catch (err) {
    const why = `the IPNS record does not parse: ${describeError(err)}`
    return [check('ipns-record-signature', false, why), check('ipns-record-name', false, why), check('ipns-record-value', false, why)]
  }
  let name
  try {
    name = parseIpnsName(beacon)
  } catch (err) {
    const why = `the committed beacon name is invalid: ${describeError(err)}`
    return [check('ipns-record-signature', false, why), check('ipns-record-name', false, why), valueCheck(record, head)]
  }
  let keyResult
  try {
    keyResult = await recordKeyForNameAsync(record, name)
  } catch (err) {
    const why = `the record's key is unusable: ${describeError(err)}`
    return [check('ipns-record-signature', false, why), check('ipns-record-name', false, why), valueCheck(record, head)]
  }
  let sigCheck: Check
  if (keyResult.key === undefined) {
    sigCheck = check('ipns-record-signature', false, keyResult.detail)
  } else {
    let ok: boolean
    let uncheckable: string | undefined
    try {
      ok = await checkRecordSignature(record, keyResult.key)
    } catch (err) {
      ok = false
      uncheckable = describeError(err)
    }
    let expiry = `valid until ${record.validity}`
    if (now !== undefined) {
      if (now.getTime() > record.validUntil.getTime()) {
        expiry = `expired at ${record.validity} (checked at ${now.toISOString()}); expiry does not affect a historical proof`
        notes.push(`the IPNS record expired at ${record.validity}; its signature still proves the beacon published the head`)
      } else {
        expiry = `valid until ${record.validity} (checked at ${now.toISOString()})`
      }
    }
    sigCheck =
      uncheckable !== undefined
        ? uncheckableCheck('ipns-record-signature', `could not be checked on this host: ${uncheckable}`)
        : check(
            'ipns-record-signature',
            ok,
            ok
              ? `V2 signature by the ${keyResult.key.type} key verifies over record sequence ${record.sequence}; ${expiry}`
              : `V2 signature does not verify with the ${keyResult.key.type} key from the ${keyResult.source === 'record' ? "record's pubKey" : 'name'}: the record was forged or altered`,
          )
  }
  const nameCheck = check('ipns-record-name', keyResult.matchesName, keyResult.matchesName ? `${keyResult.detail} (the committed beacon)` : keyResult.detail)
  return [sigCheck, nameCheck, valueCheck(record, head)]
}

function valueCheck(record: IpnsRecordInfo, head: BeaconBlock | undefined): Check {
  if (head === undefined) return check('ipns-record-value', false, `the record names ${record.value} but the chain carries no blocks`)
  if (record.valueCid === undefined) return check('ipns-record-value', false, `the record's value ${JSON.stringify(record.value.slice(0, 100))} is not an /ipfs/<cid> path`)
  if (record.value.slice('/ipfs/'.length).includes('/')) return check('ipns-record-value', false, `the record's value ${record.value} is a path inside a CID, not a block`)
  const ok = safeSame(record.valueCid, head.cid)
  return check(
    'ipns-record-value',
    ok,
    ok ? `the record's value ${record.value} is the chain's first block (sequence ${head.sequence})` : `the record's value ${record.value} is not the chain's first block ${head.cid} (sequence ${head.sequence})`,
  )
}

function safeSame(a: string, b: string): boolean {
  try {
    return sameContent(a, b)
  } catch {
    return false
  }
}

function describeError(err: unknown): string {
  if (err !== null && typeof err === 'object' && 'detail' in err) return (err as OrbitdrawError).detail
  return err instanceof Error ? err.message : String(err)
}

/**
 * Checks one link: `parent` is the block `child.previous` names, one sequence lower. Used by the
 * beacon client while walking; returns a description of the problem, or `undefined` when linked.
 */
export function linkProblem(child: BeaconBlock, parent: BeaconBlock): string | undefined {
  if (child.previous === null) return `block ${child.sequence} (${child.cid}) is a genesis block and has no previous`
  if (!safeSame(child.previous, parent.cid)) return `block ${child.sequence} links to ${child.previous}, not to ${parent.cid}`
  if (parent.sequence !== child.sequence - 1) return `block ${child.sequence}'s previous ${parent.cid} has sequence ${parent.sequence}, expected ${child.sequence - 1}`
  return undefined
}
