import { rmSync } from 'node:fs'
import { basename } from 'node:path'
import type { TestProject } from 'vitest/node'
import { buildBrowser } from '../../scripts/buildBrowser.js'
import { startDevnet } from '../../src/node/devnet/startDevnet.js'
import { startEdgetrace } from '../../src/node/startEdgetrace.js'
import { TEST_BUNDLE_DIR, TEST_BUNDLE_PATH } from './serveTestBundles.js'

/**
 * For the browser tests: the devnet (a real anvil with the demo corpus) and the Node edgetrace
 * server in front of it, whose answers the browser's must equal. Both on loopback.
 */
export default async function setup(project: TestProject) {
  // The workers the tests start are the bundles users run (scripts/buildBrowser.ts, as `npm run
  // build` makes dist/browser), built here from the current sources (a few seconds) and served as
  // they are (./serveTestBundles.ts). Served by Vite's dev server as modules instead, each worker
  // started loaded the ~600 modules of its graph one request at a time: the browser lane spent most
  // of its CPU there (issue 35).
  rmSync(TEST_BUNDLE_DIR, { recursive: true, force: true })
  // Without source maps (a test's stack traces do not use them; 5 MB each to write).
  const bundles = await buildBrowser({
    outDir: TEST_BUNDLE_DIR,
    only: ['worker', 'serviceWorker'],
    quiet: true,
    sourcemap: false,
  })
  const served = (file: string) => `${TEST_BUNDLE_PATH}${basename(file)}`
  const devnet = await startDevnet()
  const node = await startEdgetrace({
    upstream: devnet.anvil.url,
    port: 0,
    hardfork: 'prague',
    api: BROWSER_TEST_API,
    corsDomains: ['*'],
  })
  // The same server with only eth served: a disabled namespace must be refused the same way.
  const ethOnly = await startEdgetrace({
    upstream: devnet.anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth'],
    corsDomains: ['*'],
  })
  project.provide('browserEnv', {
    nodeEthOnlyUrl: ethOnly.url,
    anvilUrl: devnet.anvil.url,
    nodeUrl: node.url,
    api: BROWSER_TEST_API,
    accounts: devnet.accounts,
    contracts: devnet.contracts,
    transactions: devnet.transactions,
    bundles: { worker: served(bundles.worker), serviceWorker: served(bundles.serviceWorker) },
  })
  return async () => {
    await node.close()
    await ethOnly.close()
    await devnet.stop()
  }
}

const BROWSER_TEST_API = ['eth', 'debug', 'trace', 'txpool', 'web3', 'net', 'vendor', 'ots', 'parity', 'overlay']

export type BrowserEnv = {
  anvilUrl: string
  nodeUrl: string
  nodeEthOnlyUrl: string
  api: string[]
  accounts: `0x${string}`[]
  contracts: Record<string, `0x${string}`>
  transactions: { label: string; hash: `0x${string}`; blockNumber: number; type: number; status: string }[]
  /**
   * The served paths of the edgetrace worker and service worker, built from the current sources
   * (classic scripts: `new Worker(path)`, `register(path, { type: 'classic' })`).
   */
  bundles: { worker: string; serviceWorker: string }
}

declare module 'vitest' {
  export interface ProvidedContext {
    browserEnv: BrowserEnv
  }
}
