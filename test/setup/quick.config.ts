import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import { SlowestFilesReporter } from './slowestFilesReporter.js'

// `npm run test:quick`: the unit tests — every src/**/*.test.ts that starts no anvil, devnet,
// edgetrace server, child process or browser (judged by what it imports, so a new unit test joins
// by itself) — and one end-to-end smoke, test/smoke.test.ts (a devnet, edgetrace in front of it,
// traces over HTTP). `npm test` stays the whole suite (vite.config.ts).
const root = resolve(import.meta.dirname, '../..')
const NEEDS_A_NODE = /startAnvil|\/devnet\/startDevnet|withDevnet|startEdgetrace|openChromiumPage|node:child_process/

/** The src unit test files, relative to the repository: no browser test, nothing that starts a node. */
export function quickUnitTests(): string[] {
  return readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts') && !f.endsWith('.browser.test.ts'))
    .map((f) => `src/${f.split('\\').join('/')}`)
    .filter((f) => !NEEDS_A_NODE.test(readFileSync(join(root, f), 'utf8')))
    .sort()
}

export default defineConfig({
  root,
  test: {
    name: 'quick',
    include: [...quickUnitTests(), 'test/smoke.test.ts'],
    setupFiles: ['test/setup/processGuard.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', new SlowestFilesReporter()],
  },
})
