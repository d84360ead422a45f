import type { Devnet } from './devnet/startDevnet.js'

/** What the explorer page is told of the server's chain (GET /explorer.json). */
export type ExplorerInfo = {
  devnet: boolean
  /** The devnet's execution node: the in-browser daemon's node URL, prefilled. */
  upstream?: string
  /** The devnet's beacon node (`--devnet.beacon`): the in-browser daemon's beacon node, prefilled. */
  beacon?: string
  /** The devnet beacon chain's first root (made anew each start): where the page's daemon starts when it pinned an earlier devnet's. */
  beaconCheckpoint?: string
  hardfork?: string | undefined
  accounts?: string[]
  contracts?: Record<string, string>
  transactions?: Devnet['transactions']
}

/** The explorer page's info for a server on the embedded `devnet` (its node, beacon node and names), or on any other chain. */
export function devnetExplorerInfo(devnet: Devnet | undefined, hardfork: string | undefined): ExplorerInfo {
  if (!devnet) return { devnet: false, hardfork }
  return {
    devnet: true,
    upstream: devnet.anvil.url,
    ...(devnet.beacon ? { beacon: devnet.beacon.url, beaconCheckpoint: devnet.beacon.checkpoint } : {}),
    hardfork,
    accounts: devnet.accounts.slice(0, 3),
    contracts: devnet.contracts,
    transactions: devnet.transactions,
  }
}
