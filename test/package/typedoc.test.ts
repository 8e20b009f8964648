// The API reference is organized for newcomers: TypeDoc names the three entry points' modules, and
// inside each module the task categories come in `categoryOrder` (Draw and Verify first, Errors last),
// with every export in a named category (none falls back to TypeDoc's default "Other"). Converts the
// sources with TypeDoc's API and the project's own typedoc.json (no HTML is rendered).
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Application, TSConfigReader, TypeDocReader, type ProjectReflection } from 'typedoc'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
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
    expect(project.children?.map((child) => child.name)).toEqual(['orbitdraw', 'orbitdraw/core', 'orbitdraw/emulator', 'orbitdraw/node'])
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
    for (const name of ['orbitdraw', 'orbitdraw/core', 'orbitdraw/emulator', 'orbitdraw/node']) {
      expect(categoriesOf(name), name).not.toContain('Other')
    }
  })

  it('files commit and draw under Draw, verify under Verify, the error classes under Errors', () => {
    const mod = project.children?.find((child) => child.name === 'orbitdraw')
    const inCategory = (title: string): string[] => (mod?.categories?.find((category) => category.title === title)?.children ?? []).map((child) => child.name)
    expect(inCategory('Draw')).toEqual(expect.arrayContaining(['commit', 'draw', 'drawFromBlock', 'prepareDraw', 'planTarget', 'makeReceipts']))
    expect(inCategory('Verify')).toEqual(expect.arrayContaining(['verify', 'describeVerdict', 'failureReason', 'checkReceipt', 'ORBITPORT_BEACONS', 'checkCommitmentTime']))
    expect(inCategory('Errors')).toEqual(expect.arrayContaining(['OrbitdrawError', 'ParseError', 'NetError', 'OrbitportError', 'BeaconError']))
  })
})
