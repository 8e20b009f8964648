// Each error class's codes are one const list (src/core/error-codes.ts for the core's classes, beside
// the classes for the edges'), and the class's `code` has the list's union type. The types refuse an
// unlisted code where the compiler can see it; this test also scans src/ for every code thrown as a
// literal (`new XError('CODE'`, an edge class's `super('CODE'`) and finds it in its class's list, and
// finds every listed code thrown somewhere (no stale entries).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { DRAND_ERROR_CODES } from '../../src/drand/errors.js'
import { BEACON_ERROR_CODES } from '../../src/beacon/errors.js'
import { INFEASIBLE_QUOTAS_ERROR_CODES, INTEGRITY_ERROR_CODES, INVALID_INPUT_ERROR_CODES, LIMIT_EXCEEDED_ERROR_CODES, MISMATCH_ERROR_CODES, PARSE_ERROR_CODES, UNSUPPORTED_VERSION_ERROR_CODES } from '../../src/core/error-codes.js'
import { NET_ERROR_CODES } from '../../src/net/errors.js'
import { ORBITPORT_ERROR_CODES } from '../../src/rest/errors.js'
import { TIMESTAMP_FAILURE_CODES } from '../../src/timestamp/errors.js'
import { BEACON_INPUT_ERROR_CODES } from '../../src/beacon/errors.js'
import { CLI_INPUT_ERROR_CODES } from '../../src/cli/input-errors.js'
import { DRAND_INPUT_ERROR_CODES } from '../../src/drand/errors.js'
import { EMULATOR_INPUT_ERROR_CODES } from '../../src/emulator/errors.js'
import { ORBITPORT_INPUT_ERROR_CODES } from '../../src/rest/errors.js'
import { SORTITION_INPUT_ERROR_CODES } from '../../src/sortition/errors.js'
import { VERIFIER_INPUT_ERROR_CODES } from '../../src/verifier/input-errors.js'
import { NODE_INPUT_ERROR_CODES } from '../../src/node/errors.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : []
  })
}
const FILES = sources(join(ROOT, 'src')).map((path) => ({ file: relative(ROOT, path), text: readFileSync(path, 'utf8') }))

// The codes of InvalidInputError that only an edge throws, by the folder of src/ that may throw them (the
// command also throws the sortition readers' file codes and the beacon client's UNAUTHENTICATED_HEAD).
const EDGE_INPUT_CODES: Record<string, readonly string[]> = {
  beacon: BEACON_INPUT_ERROR_CODES,
  rest: ORBITPORT_INPUT_ERROR_CODES,
  sortition: SORTITION_INPUT_ERROR_CODES,
  emulator: EMULATOR_INPUT_ERROR_CODES,
  cli: [...CLI_INPUT_ERROR_CODES, ...SORTITION_INPUT_ERROR_CODES, ...BEACON_INPUT_ERROR_CODES],
  verifier: VERIFIER_INPUT_ERROR_CODES,
  drand: DRAND_INPUT_ERROR_CODES,
  node: NODE_INPUT_ERROR_CODES,
}
const folderOf = (file: string): string => file.split('/')[1]!

// A class → its codes. Subclasses that fix no codes of their own share their base's list.
const LISTS: Record<string, readonly string[]> = {
  InvalidInputError: [...INVALID_INPUT_ERROR_CODES, ...INFEASIBLE_QUOTAS_ERROR_CODES],
  InfeasibleQuotasError: INFEASIBLE_QUOTAS_ERROR_CODES,
  ParseError: [...PARSE_ERROR_CODES, ...INVALID_INPUT_ERROR_CODES],
  IntegrityError: INTEGRITY_ERROR_CODES,
  MismatchError: MISMATCH_ERROR_CODES,
  LimitExceededError: LIMIT_EXCEEDED_ERROR_CODES,
  UnsupportedVersionError: UNSUPPORTED_VERSION_ERROR_CODES,
  BeaconError: BEACON_ERROR_CODES,
  OrbitportError: ORBITPORT_ERROR_CODES,
  DrandError: DRAND_ERROR_CODES,
}
// Files whose classes all extend one edge base class: their `super('CODE'` calls use that base's list.
const EDGE_FILES: Record<string, string> = { 'src/beacon/errors.ts': 'BeaconError', 'src/rest/errors.ts': 'OrbitportError' }

interface Thrown {
  readonly cls: string
  readonly code: string
  readonly where: string
}

function thrown(): Thrown[] {
  const out: Thrown[] = []
  for (const { file, text } of FILES) {
    for (const m of text.matchAll(/new (\w+Error)\(\s*'([A-Z][A-Z0-9_]*)'/g)) out.push({ cls: m[1]!, code: m[2]!, where: file })
    const base = EDGE_FILES[file]
    if (base === undefined) continue
    for (const m of text.matchAll(/super\(\s*((?:[^,'()]*\?\s*)?'[A-Z][A-Z0-9_]*'(?:\s*:\s*'[A-Z][A-Z0-9_]*')?)/g)) {
      for (const c of m[1]!.matchAll(/'([A-Z][A-Z0-9_]*)'/g)) out.push({ cls: base, code: c[1]!, where: file })
    }
  }
  return out
}

describe('error codes', () => {
  const all = thrown()

  it('finds the codes thrown in src/ (the scan works)', () => {
    expect(all.length).toBeGreaterThan(200)
    expect(all).toContainEqual({ cls: 'ParseError', code: 'DUPLICATE_KEY', where: 'src/core/json.ts' })
    expect(all).toContainEqual({ cls: 'BeaconError', code: 'GATEWAY_NOT_FOUND', where: 'src/beacon/errors.ts' })
    expect(all).toContainEqual({ cls: 'InfeasibleQuotasError', code: 'NO_VALID_PANEL', where: 'src/core/sortition/round.ts' })
  })

  it('every code thrown is in its class\'s list', () => {
    const unknownClass = all.filter((t) => LISTS[t.cls] === undefined && t.cls !== 'OrbitdrawError')
    expect(unknownClass, 'a class with literal codes but no list').toEqual([])
    // An InvalidInputError code is in the core's list or in the list of the edge whose file throws it.
    const listed = (t: Thrown): boolean => LISTS[t.cls]!.includes(t.code) || (t.cls === 'InvalidInputError' && (EDGE_INPUT_CODES[folderOf(t.where)] ?? []).includes(t.code))
    const unlisted = all.filter((t) => LISTS[t.cls] !== undefined && !listed(t))
    expect(unlisted).toEqual([])
  })

  it('the core\'s list holds only codes the core throws; each edge\'s codes are thrown by that edge and by no core module', () => {
    // A code in a core module, thrown as a literal or built from one (`PANEL_SIZE` and the like).
    const inCore = (code: string): boolean => FILES.some(({ file, text }) => file.startsWith('src/core/') && file !== 'src/core/error-codes.ts' && text.includes(`'${code}'`))
    expect(INVALID_INPUT_ERROR_CODES.filter((c) => !inCore(c))).toEqual([])
    const lists = { BEACON_INPUT_ERROR_CODES, ORBITPORT_INPUT_ERROR_CODES, SORTITION_INPUT_ERROR_CODES, EMULATOR_INPUT_ERROR_CODES, CLI_INPUT_ERROR_CODES, VERIFIER_INPUT_ERROR_CODES, DRAND_INPUT_ERROR_CODES, NODE_INPUT_ERROR_CODES }
    for (const [name, list] of Object.entries(lists)) {
      expect([...list], name).toEqual([...new Set(list)].sort())
      for (const code of list) {
        expect(inCore(code), `${name}: ${code} is thrown by the core`).toBe(false)
        expect(INVALID_INPUT_ERROR_CODES as readonly string[], `${name}: ${code} is also in the core's list`).not.toContain(code)
        expect(all.some((t) => t.code === code), `${name}: ${code} is never thrown`).toBe(true)
      }
    }
  })

  it('every listed code is thrown somewhere in src/ (no stale entry)', () => {
    const listFiles = new Set(['src/core/error-codes.ts', 'src/beacon/errors.ts', 'src/rest/errors.ts'])
    const mentioned = (code: string): boolean =>
      FILES.some(({ file, text }) => {
        if (!text.includes(`'${code}'`)) return false
        // In a list file, a code counts only when used outside its list (in a throw or a super call).
        if (!listFiles.has(file)) return true
        return text.split(`'${code}'`).length - 1 > 1
      })
    const lists = { INVALID_INPUT_ERROR_CODES, PARSE_ERROR_CODES, INTEGRITY_ERROR_CODES, MISMATCH_ERROR_CODES, LIMIT_EXCEEDED_ERROR_CODES, UNSUPPORTED_VERSION_ERROR_CODES, INFEASIBLE_QUOTAS_ERROR_CODES, BEACON_ERROR_CODES, ORBITPORT_ERROR_CODES, TIMESTAMP_FAILURE_CODES }
    const stale = Object.entries(lists).flatMap(([name, list]) => list.filter((code) => !mentioned(code)).map((code) => `${name}: ${code}`))
    expect(stale).toEqual([])
  })

  it('each list is sorted and without duplicates (the merge of two branches is one line each)', () => {
    for (const list of [INVALID_INPUT_ERROR_CODES, PARSE_ERROR_CODES, INTEGRITY_ERROR_CODES, MISMATCH_ERROR_CODES, LIMIT_EXCEEDED_ERROR_CODES, UNSUPPORTED_VERSION_ERROR_CODES, INFEASIBLE_QUOTAS_ERROR_CODES, BEACON_ERROR_CODES, ORBITPORT_ERROR_CODES]) {
      expect([...list]).toEqual([...new Set(list)].sort())
    }
  })

  it('the network family\'s codes are one per kind and edge', () => {
    const codes = Object.values(NET_ERROR_CODES).flatMap((byEdge) => Object.values(byEdge))
    for (const code of codes) expect(code).toMatch(/^[A-Z][A-Z_]+$/)
    expect(TIMESTAMP_FAILURE_CODES).toEqual(expect.arrayContaining([NET_ERROR_CODES.network.timestamp, NET_ERROR_CODES.timeout.timestamp, NET_ERROR_CODES.aborted.timestamp]))
  })
})
