import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** Where the committed file times live: test file (relative to the repository) → seconds. */
export const FILE_SECONDS_PATH = new URL('./fileSeconds.json', import.meta.url)

/** The committed file times (an empty table when the file is missing or unreadable; entries that are no number left out). */
export function readFileSeconds(path: URL | string = FILE_SECONDS_PATH): Record<string, number> {
  try {
    const table = JSON.parse(readFileSync(path, 'utf8')) as unknown
    if (!table || typeof table !== 'object' || Array.isArray(table)) return {}
    // Only finite numbers of seconds: anything else would make the order NaN's.
    return Object.fromEntries(
      Object.entries(table).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])),
    )
  } catch {
    return {}
  }
}

/**
 * The order of a test run's files: each project's files longest first, so that on a 2-core machine
 * no long file starts last and runs alone while the other worker idles (with two workers, a 90 s file
 * picked last adds up to 90 s to the run). A file's length is its time in this machine's last run
 * (vitest's results cache) or, where there is none — a fresh clone, as in CI — its time in the
 * committed table test/setup/fileSeconds.json (refresh it with `EDGETRACE_FILE_SECONDS=write npm
 * test`: the SlowestFilesReporter writes it). A file in neither runs first, as vitest runs new files.
 */
export class LongestFirstSequencer extends BaseSequencer {
  private readonly seconds = readFileSeconds()

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root
    const length = (spec: TestSpecification): number => {
      const file = relative(root, spec.moduleId).split('\\').join('/')
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)
      if (cached !== undefined) return cached.duration
      const seconds = this.seconds[file]
      return seconds === undefined ? Number.POSITIVE_INFINITY : seconds * 1000
    }
    const lengths = new Map(files.map((spec) => [spec, length(spec)]))
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder
      if (group !== 0) return group
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1
      const la = lengths.get(a)!
      const lb = lengths.get(b)!
      return la === lb ? 0 : la < lb ? 1 : -1
    })
  }
}
