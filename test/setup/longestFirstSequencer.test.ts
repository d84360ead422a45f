import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { TestSpecification, Vitest } from 'vitest/node'
import { FILE_SECONDS_PATH, LongestFirstSequencer, readFileSeconds } from './longestFirstSequencer.js'
import { type FileTime, withFileSeconds } from './slowestFilesReporter.js'

const root = '/repo'

/** A sequencer over a fake vitest: `cached` is its results cache (key → ms), `table` its committed seconds. */
function sequencer(cached: Record<string, number>, table: Record<string, number>) {
  const ctx = {
    config: { root },
    cache: {
      getFileTestResults: (key: string) => (key in cached ? { duration: cached[key]!, failed: false } : undefined),
    },
  }
  const seq = new LongestFirstSequencer(ctx as unknown as Vitest)
  ;(seq as unknown as { seconds: Record<string, number> }).seconds = table
  return seq
}

const spec = (file: string, project = 'node', groupOrder = 0) =>
  ({
    moduleId: `${root}/${file}`,
    project: { name: project, config: { sequence: { groupOrder } } },
  }) as unknown as TestSpecification

const order = async (seq: LongestFirstSequencer, specs: TestSpecification[]) =>
  (await seq.sort(specs)).map((s) => `${s.project.name}:${s.moduleId.slice(root.length + 1)}`)

it('orders files by their cached durations, longest first, over the committed table', async () => {
  const seq = sequencer({ 'node:a.test.ts': 100, 'node:b.test.ts': 5000, 'node:c.test.ts': 900 }, { 'a.test.ts': 60 })
  const files = [spec('a.test.ts'), spec('b.test.ts'), spec('c.test.ts')]
  expect(await order(seq, files)).toEqual(['node:b.test.ts', 'node:c.test.ts', 'node:a.test.ts'])
})

it('takes a file with no cached duration at its committed seconds × 1000, and runs unknown files first', async () => {
  const seq = sequencer({ 'node:a.test.ts': 2500 }, { 'b.test.ts': 3, 'c.test.ts': 2, 'd.test.ts': 0 })
  const files = [spec('d.test.ts'), spec('c.test.ts'), spec('a.test.ts'), spec('new.test.ts'), spec('b.test.ts')]
  expect(await order(seq, files)).toEqual([
    'node:new.test.ts',
    'node:b.test.ts',
    'node:a.test.ts',
    'node:c.test.ts',
    'node:d.test.ts',
  ])
})

it('keeps projects apart, grouped by name, and each project longest first', async () => {
  const seq = sequencer(
    { 'node:a.test.ts': 10, 'browser:x.browser.test.ts': 10 },
    { 'b.test.ts': 5, 'y.browser.test.ts': 1 },
  )
  const files = [
    spec('a.test.ts'),
    spec('x.browser.test.ts', 'browser'),
    spec('b.test.ts'),
    spec('y.browser.test.ts', 'browser'),
  ]
  expect(await order(seq, files)).toEqual([
    'browser:y.browser.test.ts',
    'browser:x.browser.test.ts',
    'node:b.test.ts',
    'node:a.test.ts',
  ])
})

it('puts a lower sequence.groupOrder first, before the project names and the lengths', async () => {
  const seq = sequencer({}, { 'a.test.ts': 1, 'z.test.ts': 99 })
  const files = [spec('z.test.ts', 'alpha', 1), spec('a.test.ts', 'zeta', 0)]
  expect(await order(seq, files)).toEqual(['zeta:a.test.ts', 'alpha:z.test.ts'])
})

it('reads the committed table when constructed', () => {
  const seq = new LongestFirstSequencer({ config: { root }, cache: {} } as unknown as Vitest)
  expect((seq as unknown as { seconds: Record<string, number> }).seconds).toEqual(readFileSeconds())
})

it('readFileSeconds reads a table, and is empty for a missing path or a file that is not JSON', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'edgetrace-file-seconds-'))
  try {
    await writeFile(join(dir, 'table.json'), JSON.stringify({ 'a.test.ts': 1.5, 'b.test.ts': 0.1 }))
    await writeFile(join(dir, 'broken.json'), '{ "a.test.ts": 1.5,')
    expect(readFileSeconds(join(dir, 'table.json'))).toEqual({ 'a.test.ts': 1.5, 'b.test.ts': 0.1 })
    expect(readFileSeconds(join(dir, 'missing.json'))).toEqual({})
    expect(readFileSeconds(join(dir, 'broken.json'))).toEqual({})
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

const time = (file: string, ms: number): FileTime => ({ project: 'node', file, ms, importMs: 0, tests: 1 })

it('withFileSeconds puts a run’s files into the table at 0.1 s, keys sorted, the table itself untouched', () => {
  const table = { 'z.test.ts': 4, 'b.test.ts': 9.9 }
  const merged = withFileSeconds(table, [time('b.test.ts', 1249), time('a.test.ts', 1250), time('c.test.ts', 49)])
  expect(merged).toEqual({ 'a.test.ts': 1.3, 'b.test.ts': 1.2, 'c.test.ts': 0, 'z.test.ts': 4 })
  expect(Object.keys(merged)).toEqual(['a.test.ts', 'b.test.ts', 'c.test.ts', 'z.test.ts'])
  expect(table).toEqual({ 'z.test.ts': 4, 'b.test.ts': 9.9 })
})

it('withFileSeconds leaves out the files that no longer exist', () => {
  const merged = withFileSeconds(
    { 'gone.test.ts': 3, 'kept.test.ts': 2 },
    [time('new.test.ts', 500)],
    (file) => file !== 'gone.test.ts',
  )
  expect(merged).toEqual({ 'kept.test.ts': 2, 'new.test.ts': 0.5 })
})

it('the committed table is as EDGETRACE_FILE_SECONDS=write writes it (sorted keys, 2 spaces, a final newline)', async () => {
  const text = await readFile(FILE_SECONDS_PATH, 'utf8')
  expect(`${JSON.stringify(withFileSeconds(readFileSeconds(), []), null, 2)}\n`).toBe(text)
})
