import { defineConfig } from 'vitest/config'

// One config for the demo build (index.html + demo/) and for the tests.
// Tests run in Node against real nodes (anvil started by the tests), one file at a time
// per worker; anvil processes are cheap but the machine has two cores.
export default defineConfig({
  build: {
    outDir: 'dist-demo',
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'demo/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
})
