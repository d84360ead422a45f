import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { BUILD_OUTPUTS, distIsFresh } from './src/distIsFresh.js'

// test/published.test.ts packs the project's dist/ as it is only when it is fresh (CI, after `npm ci`
// built it); a working tree edited since its last build is built in a staging folder instead.
const root = mkdtempSync(join(tmpdir(), 'edgetrace-fresh-dist-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

function write(file: string, at: number) {
  const path = join(root, file)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, '')
  utimesSync(path, at, at)
}

const OUTPUTS = BUILD_OUTPUTS

it('dist/ is fresh when every build step wrote its output after the last source change', () => {
  write('src/node/index.ts', 1_000)
  write('worker/edgetrace.worker.ts', 1_000)
  write('demo/main.ts', 1_000)
  expect(distIsFresh(root)).toBe(false) // nothing built
  for (const file of OUTPUTS.slice(1)) write(file, 2_000)
  expect(distIsFresh(root)).toBe(false) // one step's output missing
  write(OUTPUTS[0] as string, 2_000)
  expect(distIsFresh(root)).toBe(true)
  // A source edited since (deep in a folder), or the explorer's page: stale.
  write('src/rpc/eth/call.ts', 3_000)
  expect(distIsFresh(root)).toBe(false)
  for (const file of OUTPUTS) write(file, 4_000)
  expect(distIsFresh(root)).toBe(true)
  write('demo/views/callTree.ts', 5_000)
  expect(distIsFresh(root)).toBe(false)
  // node_modules under a source folder does not count.
  for (const file of OUTPUTS) write(file, 6_000)
  write('src/node_modules/x/index.js', 7_000)
  expect(distIsFresh(root)).toBe(true)
})
