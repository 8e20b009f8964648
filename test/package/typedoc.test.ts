// The API reference is organized for newcomers: TypeDoc names the package's entry points' modules (one per
// subpath, in package.json's order), and
// inside each module the task categories come in `categoryOrder` (Draw and Verify first, Errors last),
// with every export in a named category (none falls back to TypeDoc's default "Other"). Converts the
// sources with TypeDoc's API and the project's own typedoc.json (no HTML is rendered).
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Application, TSConfigReader, TypeDocReader, type ProjectReflection } from 'typedoc'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
/** Each subpath's module name: `.` is `orbitdraw`, `./kinds` is `orbitdraw/kinds`. */
const MODULES = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports).map((k) => (k === '.' ? 'orbitdraw' : `orbitdraw${k.slice(1)}`))
let project: ProjectReflection
let warnings = false

beforeAll(async () => {
  const app = await Application.bootstrapWithPlugins({ options: join(ROOT, 'typedoc.json'), logLevel: 'Error' }, [new TypeDocReader(), new TSConfigReader()])
  const converted = await app.convert()
  if (converted === undefined) throw new Error('TypeDoc could not convert the project')
  app.validate(converted)
  project = converted
  warnings = app.logger.hasWarnings() || app.logger.hasErrors()
}, 180_000)

function categoriesOf(moduleName: string): string[] {
  const mod = project.children?.find((child) => child.name === moduleName)
  if (mod === undefined) throw new Error(`no module named ${moduleName}`)
  return (mod.categories ?? []).map((category) => category.title)
}

describe('API reference (TypeDoc)', () => {
  it('converts without a warning', () => {
    expect(warnings).toBe(false)
  })

  it('names the modules after the package entry points', () => {
    expect(MODULES.length).toBeGreaterThan(3)
    expect(project.children?.map((child) => child.name)).toEqual([...MODULES].sort())
  })

  it('lists Draw first and Errors last in the root and core modules', () => {
    for (const name of ['orbitdraw', 'orbitdraw/core']) {
      const titles = categoriesOf(name)
      expect(titles[0]).toBe('Draw')
      expect(titles[1]).toBe('Verify')
      expect(titles.at(-1)).toBe('Errors')
    }
  })

  it('puts every export of every module in a named task category', () => {
    for (const name of MODULES) {
      expect(categoriesOf(name), name).not.toContain('Other')
    }
  })

  it('files commit and draw under Draw, verify under Verify, the error classes under Errors', () => {
    const mod = project.children?.find((child) => child.name === 'orbitdraw')
    const inCategory = (title: string): string[] => (mod?.categories?.find((category) => category.title === title)?.children ?? []).map((child) => child.name)
    expect(inCategory('Draw')).toEqual(expect.arrayContaining(['commit', 'draw', 'drawFromBlock', 'prepareDraw', 'planTarget', 'makeReceipts']))
    expect(inCategory('Verify')).toEqual(expect.arrayContaining(['verify', 'describeVerdict', 'failureReason', 'checkReceipt']))
    expect(inCategory('Errors')).toEqual(['OrbitdrawError'])
    const errors = project.children?.find((child) => child.name === 'orbitdraw/errors')
    expect(errors?.categories?.map((category) => category.title)).toEqual(['Errors'])
  })
})
