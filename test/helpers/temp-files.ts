/**
 * A temporary directory for one test file: made in `beforeAll`, removed with its contents in `afterAll`,
 * with numbered files written into it (for the suites that read participants files from disk).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'

export interface TempFiles {
  /** The directory (set once `beforeAll` has run). */
  readonly dir: string
  /** A fresh path in the directory: `<stem><n><ext>`, n counting up across the file's calls. */
  nextPath(stem?: string, ext?: string): string
  /** Writes `contents` to a fresh path (`p<n>.txt` by default) and returns that path. */
  write(contents: string | Uint8Array, stem?: string, ext?: string): Promise<string>
}

/** Registers the directory's `beforeAll`/`afterAll` hooks; `prefix` names it under the system temp directory. */
export function useTempFiles(prefix: string): TempFiles {
  let dir: string | undefined
  let fileNo = 0
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix))
  })
  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  })
  const files: TempFiles = {
    get dir(): string {
      if (dir === undefined) throw new Error('useTempFiles: the directory is made in beforeAll')
      return dir
    },
    nextPath: (stem = 'p', ext = '.txt') => join(files.dir, `${stem}${fileNo++}${ext}`),
    async write(contents, stem, ext) {
      const path = files.nextPath(stem, ext)
      await writeFile(path, contents)
      return path
    },
  }
  return files
}
