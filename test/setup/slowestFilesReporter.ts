import { existsSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { FILE_SECONDS_PATH, readFileSeconds } from './longestFirstSequencer.js'

/** One test file's time: importing it (with what it imports), its setup files, then its tests and hooks. */
export type FileTime = { project: string; file: string; ms: number; importMs: number; tests: number }

/** The `count` slowest test files of a run, slowest first. */
export function slowestFiles(modules: ReadonlyArray<TestModule>, count = 10): FileTime[] {
  return modules
    .map((m) => {
      const d = m.diagnostic()
      // A browser file's prepare and collect times include its wait for the one browser page the
      // browser project's files take in turn (import reads ~190 s for a 30 ms file): not its own.
      const queued = m.project.config.browser?.enabled === true
      const importMs =
        d.environmentSetupDuration + d.setupDuration + (queued ? 0 : d.prepareDuration + d.collectDuration)
      return {
        project: m.project.name,
        file: m.relativeModuleId,
        ms: importMs + d.duration,
        importMs,
        tests: [...m.children.allTests()].length,
      }
    })
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
}

/** The lines the reporter prints: a heading, then one line per file (seconds, import share, tests, project, path). */
export function formatSlowestFiles(files: FileTime[]): string {
  if (files.length === 0) return ''
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`
  const lines = files.map(
    (f) =>
      `  ${s(f.ms).padStart(8)}  (import ${s(f.importMs).padStart(7)})  ${String(f.tests).padStart(4)} tests  ${f.project.padEnd(8)} ${f.file}`,
  )
  return [`Slowest ${files.length} test files (import + setup + tests and hooks):`, ...lines].join('\n')
}

/** The repository whose test/setup/fileSeconds.json this is. */
const REPOSITORY = resolve(import.meta.dirname, '../..')

/**
 * The committed table of file times (test/setup/fileSeconds.json) with this run's files' times put
 * in, and without the files `exists` no longer finds (renamed or deleted).
 */
export function withFileSeconds(
  table: Record<string, number>,
  files: FileTime[],
  exists: (file: string) => boolean = () => true,
): Record<string, number> {
  const merged = { ...table }
  for (const f of files) merged[f.file] = Math.round(f.ms / 100) / 10
  return Object.fromEntries(
    Object.entries(merged)
      .filter(([file]) => exists(file))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  )
}

/**
 * A vitest reporter beside the default one: at the end of every run it prints the slowest 10 test
 * files, so where the suite's time goes is seen on each run (vite.config.ts adds it). With
 * EDGETRACE_FILE_SECONDS=write it also puts every file's time into test/setup/fileSeconds.json, the
 * table LongestFirstSequencer orders a fresh clone's run by: after a run of this repository's own
 * tests that passed (not a vitest run some test starts in a folder of its own, nor a failed one).
 */
export class SlowestFilesReporter implements Reporter {
  constructor(
    private readonly count = 10,
    private readonly write: (text: string) => void = (text) => process.stdout.write(text),
  ) {}

  private root: string | undefined

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason): void {
    if (process.env.EDGETRACE_FILE_SECONDS === 'write' && this.root === REPOSITORY && reason === 'passed') {
      const files = slowestFiles(modules, modules.length)
      const table = withFileSeconds(readFileSeconds(), files, (file) => existsSync(join(REPOSITORY, file)))
      writeFileSync(FILE_SECONDS_PATH, `${JSON.stringify(table, null, 2)}\n`)
    }
    const text = formatSlowestFiles(slowestFiles(modules, this.count))
    if (text !== '') this.write(`\n${text}\n`)
  }
}
