import type { TestProject } from 'vitest/node'
import { startDevnet } from '../../src/node/devnet/startDevnet.js'
import { startEdgetrace } from '../../src/node/startEdgetrace.js'

/**
 * For the browser tests: the devnet (a real anvil with the demo corpus) and the Node edgetrace
 * server in front of it, whose answers the browser's must equal. Both on loopback.
 */
export default async function setup(project: TestProject) {
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
}

declare module 'vitest' {
  export interface ProvidedContext {
    browserEnv: BrowserEnv
  }
}
