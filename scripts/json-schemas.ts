/**
 * Builds the published JSON Schemas (docs/*.schema.json) from the one declaration of each wire
 * format in src/core/schema/. Used by `npm run schema` (writes them) and by
 * test/core/schema.test.ts (the committed files must equal these).
 *
 * `@valibot/to-json-schema` is a dev dependency: the library and the page only run the shapes.
 */
import { toJsonSchema, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema'
import { BlockShape } from '../src/core/schema/block.js'
import { base64, bytes32, cidText, decimal, hash, index, link } from '../src/core/schema/common.js'
import { CommitmentFileShape } from '../src/core/schema/commitment-file.js'
import { COMMITMENT_SLOT } from '../src/core/schema/commitment.js'
import { rankedListShape as ranked } from '../src/core/kinds/ranked.js'
import { CommitmentShape, ProofShape } from '../src/core/schema/published.js'
import { ReceiptShape } from '../src/core/schema/receipt.js'
import { publishedForm, type Shape } from '../src/core/schema/kit.js'
import { LIMITS } from '../src/core/limits.js'

const BASE = 'https://orbitdraw.dev/schemas/'

/** A size limit in words, from LIMITS (the one source: the descriptions cannot drift from the parsers). */
function bytesText(n: number): string {
  const exact = (unit: number, name: string): string | undefined => (n % unit === 0 ? `${n / unit} ${name}` : undefined)
  return `${n.toLocaleString('en-US')} bytes${(() => {
    const w = exact(1024 * 1024, 'MiB') ?? exact(1024, 'KiB')
    return w === undefined ? '' : ` (${w})`
  })()}`
}

interface Document {
  readonly file: string
  readonly id: string
  readonly title: string
  readonly description: string
  readonly shape: Shape
  readonly commitment: boolean
}

const DOCUMENTS: readonly Document[] = [
  {
    file: 'proof.schema.json',
    id: 'proof-v1.json',
    title: 'orbitdraw proof bundle, protocol version 1',
    description: `The shape of a proof file. A document that matches this schema is well-formed; only verify() (docs/spec.md, 'What verify checks') decides whether it proves anything. Unknown fields are not allowed at any level. Rules a JSON Schema cannot express are still enforced by the parser: no duplicate keys anywhere, strict UTF-8, numbers written as plain integers, the embedded commitment written compactly at most ${bytesText(LIMITS.maxCommitmentBytes)} (maxCommitmentBytes), the proof at most ${bytesText(LIMITS.maxProofBytes)} (maxProofBytes).`,
    shape: ProofShape,
    commitment: true,
  },
  {
    file: 'commitment.schema.json',
    id: 'commitment-v1.json',
    title: 'orbitdraw commitment (DAG-JSON form), protocol version 1',
    description: `The shape of a commitment in its DAG-JSON form. Rules a JSON Schema cannot express are still enforced by the parser: canonical DAG-JSON (docs/spec.md, 'The commitment'), no duplicate keys, at most ${bytesText(LIMITS.maxCommitmentBytes)} (maxCommitmentBytes), the target after after.sequence, the label at most 1024 UTF-8 bytes, the beacon a libp2p-key CID, the draw's count and bounds against the participants.`,
    shape: CommitmentShape,
    commitment: false,
  },
  {
    file: 'commitment-file.schema.json',
    id: 'commitment-file-v1.json',
    title: 'orbitdraw commitment file, protocol version 1',
    description:
      "The file orbitdraw commit writes: the commitment, its CID and its RFC 3161 time-stamp tokens. Rules a JSON Schema cannot express are still enforced by the parser: no duplicate keys, strict UTF-8, the cid equal to the commitment's CID.",
    shape: CommitmentFileShape,
    commitment: true,
  },
  {
    file: 'receipt.schema.json',
    id: 'receipt-v1.json',
    title: "orbitdraw participant's receipt, protocol version 1",
    description: `A participant's receipt for a private (salted) list (docs/spec.md, 'Receipts'). Matching it means well-formed; checkReceipt decides whether it proves anything. Rules a JSON Schema cannot express are still enforced by the parser: no duplicate keys, strict UTF-8, at most ${bytesText(LIMITS.maxReceiptBytes)} (maxReceiptBytes).`,
    shape: ReceiptShape,
    commitment: true,
  },
  {
    file: 'block.schema.json',
    id: 'block-v1.json',
    title: 'Orbitport beacon block content',
    description:
      'The JSON content of a beacon block, as published (Go encoding/json). Unknown fields are tolerated. Rules a JSON Schema cannot express are still enforced by the parser, after the bytes were checked against the CID: strict UTF-8, no duplicate keys, previous empty or absent exactly for sequence 0, previous a sha2-256 CID.',
    shape: BlockShape,
    commitment: false,
  },
]

/** Shared pieces, published once under `$defs`. */
const DEFINITIONS = { cidString: cidText, base64, decimal, hash, index, link, bytes32, ranked } as const

/** The declared forms being converted (see `overrideSchema`). */
const converting = new Set<Shape>()
/**
 * The declared forms converted, each once: a declared form's conversion converts every definition
 * again, and so every other declared form in them (without this, a cost exponential in their number).
 */
const converted = new Map<Shape, JsonSchema>()

function convert(doc: Document): JsonSchema {
  converted.clear()
  const config: ConversionConfig = {
    target: 'draft-2020-12',
    // Parsing-only guards (not an array, no holes, which union branch) have no JSON Schema form;
    // the shapes they guard say the same in JSON Schema terms. The raw transforms are the tight
    // loops over a large array's items (published through `publishedForm`, below).
    ignoreActions: ['check', 'raw_transform'],
    typeMode: 'output',
    // A document's commitment slot (the parser only requires an object there) is published as the
    // full commitment shape.
    definitions: doc.commitment ? { ...DEFINITIONS, commitment: CommitmentShape, commitmentSlot: COMMITMENT_SLOT } : DEFINITIONS,
    overrideRef: ({ referenceId }) => (referenceId === 'commitmentSlot' ? '#/$defs/commitment' : undefined),
    // A piece that runs otherwise than it is declared (src/core/schema/kit.ts: a large array's head,
    // `arrayHead`, checks its items in one loop; `anyObject` passes the object on) is published as
    // its declared form (`publishedForm`): the same `items`, `maxItems` and shared `$defs`.
    // The declared form is converted with the same definitions (its shared pieces become `$ref`s);
    // that conversion converts every definition again, whose own `$defs` are dropped: a piece met
    // again while its own declared form is being converted is left empty there.
    overrideSchema: ({ valibotSchema }) => {
      const declared = publishedForm(valibotSchema)
      if (declared === undefined) return undefined
      // A shared piece (e.g. `decimal` for a bigint read from it) is referred to, as where it is used as is.
      const shared = Object.entries(config.definitions ?? {}).find(([, s]) => s === declared)?.[0]
      if (shared !== undefined) return { $ref: `#/$defs/${shared}` }
      if (converting.has(declared)) return {}
      const done = converted.get(declared)
      if (done !== undefined) return done
      converting.add(declared)
      try {
        const { $schema: _s, $defs: _d, ...inner } = toJsonSchema(declared, config) as JsonSchema & { $defs?: unknown }
        converted.set(declared, inner)
        return inner
      } finally {
        converting.delete(declared)
      }
    },
  }
  const { $schema, $defs, ...body } = toJsonSchema(doc.shape, config) as JsonSchema & { $defs?: Record<string, JsonSchema> }
  return { $schema, $id: BASE + doc.id, title: doc.title, ...body, description: doc.description, ...(usedDefs(body, $defs ?? {})) }
}

/** Keeps only the `$defs` a document refers to (directly or through another definition). */
function usedDefs(body: unknown, defs: Record<string, JsonSchema>): { $defs?: Record<string, JsonSchema> } {
  const used = new Set<string>()
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(visit)
    else if (x !== null && typeof x === 'object') {
      for (const [k, value] of Object.entries(x)) {
        if (k === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
          const name = value.slice('#/$defs/'.length)
          if (!used.has(name)) {
            used.add(name)
            visit(defs[name])
          }
        } else visit(value)
      }
    }
  }
  visit(body)
  if (used.size === 0) return {}
  return { $defs: Object.fromEntries(Object.keys(defs).filter((k) => used.has(k)).map((k) => [k, defs[k]!])) }
}

/** Every published schema: file name (under docs/) and its text (2-space JSON, trailing newline). */
export function jsonSchemaFiles(): { file: string; text: string }[] {
  return DOCUMENTS.map((doc) => ({ file: doc.file, text: `${JSON.stringify(convert(doc), null, 2)}\n` }))
}
