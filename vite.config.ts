import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'
import { CHROMIUM_ARGS, resolveChromium } from './scripts/resolveChromium.js'
import { browserCommands } from './test/browser/commands.js'
import { serveTestBundles } from './test/browser/serveTestBundles.js'
import { LongestFirstSequencer } from './test/setup/longestFirstSequencer.js'
import { SlowestFilesReporter } from './test/setup/slowestFilesReporter.js'

// One config for the trace explorer page (index.html + demo/; `vite build` writes dist/explorer,
// which the Node server serves on GET /) and for the tests.
// Node tests run against real nodes (anvil started by the tests), one file at a time per worker.
// Two node workers on this two-core machine: three took vitest from 510 s to 429-475 s, but then the
// heavy-trace tests of test/transportBounds.test.ts (50 struct-log traces at once, each within a
// 1 s or 3 s tracer timeout) failed in one rehearsal of three. Each node worker is one process that
// runs its files one after another (isolate: false): the modules a file imports
// (ethereumjs, viem, the daemon) are loaded once per worker, not once per file (~110 s of a run's
// imports), and a file's process guard is taken off at its end (test/setup/processGuard.ts). Files
// start longest first (test/setup/longestFirstSequencer.ts). Browser tests run in headless Chromium
// (CHROMIUM_PATH, else the system's /usr/bin/chromium, else the build the @sparticuz/chromium dev
// dependency ships: scripts/resolveChromium.ts) through playwright, against anvil and a Node
// edgetrace server started by test/browser/globalSetup.ts. Only vitest (which sets VITEST) needs a
// browser: `vite` and `vite build` of the demo do not look for one.
const chromium = process.env.VITEST ? await resolveChromium() : undefined

export default defineConfig({
  // Relative asset URLs: the page works wherever it is served from.
  base: './',
  build: {
    outDir: 'dist/explorer',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2048,
  },
  worker: { format: 'es' },
  optimizeDeps: {
    // Pre-bundled up front, so the first browser test is not reloaded when Vite discovers them.
    include: [
      'comlink',
      'idb-keyval',
      '@ethereumjs/block',
      '@ethereumjs/common',
      '@ethereumjs/evm',
      '@ethereumjs/mpt',
      '@ethereumjs/rlp',
      '@ethereumjs/statemanager',
      '@ethereumjs/tx',
      '@ethereumjs/util',
      '@ethereumjs/vm',
      '@noble/hashes/sha3.js',
      '@noble/curves/secp256k1.js',
      '@noble/curves/nist.js',
      'ses',
      'big-integer',
      'viem',
      'viem/accounts',
      'ethers',
    ],
  },
  server: {
    // The service worker's script lives under /worker/ but controls the whole origin.
    headers: { 'Service-Worker-Allowed': '/' },
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The default reporter, then the slowest 10 files of the run (test/setup/slowestFilesReporter.ts).
    reporters: ['default', new SlowestFilesReporter()],
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'demo/**/*.test.ts'],
          exclude: ['**/*.browser.test.ts', '**/node_modules/**'],
          setupFiles: ['test/setup/processGuard.ts'],
          // The CLIs and worker threads the tests start run from a compiled copy of src/ (not through tsx).
          globalSetup: ['test/setup/compileSources.ts'],
          pool: 'forks',
          maxWorkers: 3,
          isolate: false,
        },
      },
      {
        extends: true,
        // The worker bundles test/browser/globalSetup.ts builds, served as they are.
        plugins: [serveTestBundles()],
        test: {
          name: 'browser',
          include: [
            'src/**/*.browser.test.ts',
            'test/**/*.browser.test.ts',
            'worker/**/*.browser.test.ts',
            'demo/**/*.browser.test.ts',
          ],
          globalSetup: ['test/browser/globalSetup.ts'],
          // The browser files run one at a time (one page: they share IndexedDB, service workers and
          // the devnet), but beside the node project's files rather than after them: the project's
          // maxWorkers equals the node project's, so vitest puts both in one group.
          maxWorkers: 3,
          browser: {
            enabled: true,
            headless: true,
            fileParallelism: false,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                ...(chromium === undefined ? {} : { executablePath: chromium }),
                // performance.memory with real figures and gc() for debug_memStats / the runtime tests.
                args: [...CHROMIUM_ARGS, '--enable-precise-memory-info', '--js-flags=--expose-gc'],
              },
            }),
            instances: [{ browser: 'chromium' }],
            commands: browserCommands,
          },
        },
      },
    ],
  },
})
