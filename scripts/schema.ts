/**
 * `npm run schema`: writes the published JSON Schemas (docs/*.schema.json) from the declarations in
 * src/core/schema/. test/core/schema.test.ts fails when a committed file differs from its source.
 */
import { writeFile } from 'node:fs/promises'
import { jsonSchemaFiles } from './json-schemas.js'

for (const { file, text } of jsonSchemaFiles()) {
  await writeFile(new URL(`../docs/${file}`, import.meta.url), text)
  console.log(`wrote docs/${file}`)
}
