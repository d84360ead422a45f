import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect, it } from 'vitest'
import quick, { quickUnitTests } from './setup/quick.config.js'

const repo = resolve(import.meta.dirname, '..')

it('npm run test:quick runs the src unit tests that start no node or browser, and the one end-to-end smoke', () => {
  const pkg = JSON.parse(readFileSync(resolve(repo, 'package.json'), 'utf8'))
  expect(pkg.scripts['test:quick']).toBe('vitest run --config test/setup/quick.config.ts')
  // npm test stays the whole suite: scripts/test.ts runs the lint, then vitest run (and tsc beside it).
  expect(pkg.scripts.test).toBe('tsx scripts/test.ts')
  const script = readFileSync(resolve(repo, 'scripts/test.ts'), 'utf8')
  expect(script).toContain("bin('vitest', 'vitest.mjs'), 'run'")
  expect(script).toContain("'--noEmit'")

  const units = quickUnitTests()
  expect(units).toContain('src/errors/toRpcError.test.ts')
  expect(units).toContain('src/chain/bor/borSeal.test.ts')
  // Those start anvil: left to npm test.
  for (const f of [
    'src/node/devnet/startAnvil.test.ts',
    'src/upstream/createUpstream.test.ts',
    'src/state/createPrefetch.test.ts',
  ]) {
    expect(units).not.toContain(f)
  }
  expect(units.filter((f) => f.endsWith('.browser.test.ts') || !f.startsWith('src/'))).toEqual([])
  expect(units.length).toBeGreaterThan(40)
  expect((quick as { test: { include: string[] } }).test.include).toEqual([...units, 'test/smoke.test.ts'])
})
