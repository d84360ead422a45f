import { sha256 } from '@noble/hashes/sha2.js'
import type { Hex } from '../../types/hex.js'
import { type DevnetBeacon, createDevnetBeacon } from './createDevnetBeacon.js'
import { followExecutionChain } from './followExecutionChain.js'

export type DevnetBeaconNode = {
  /** The Beacon API's base URL (light-client endpoints, on loopback). */
  url: string
  /** The beacon block root of slot 0 (the execution genesis's beacon block): a checkpoint to start from. */
  checkpoint: Hex
  beacon: DevnetBeacon
  close(): Promise<void>
}

/** How far behind the clock the devnet beacon's genesis is: room for a day of 1-second slots mined at once. */
const CLOCK_LEAD_SECONDS = 86_400

/**
 * A beacon chain following an execution node (the embedded devnet's anvil): slot s's block carries
 * execution block s, so every block the node mines gets a slot; the chain's head is brought up to the
 * node's latest before each Beacon API answer (the newest block attested, signed by the slot after it).
 * Its clock runs a day ahead of the node's first block, with 1-second slots, so whatever the node
 * mined is in the past to a light client reading the wall clock, and a light client refreshes within
 * a second of a new block.
 */
export async function startDevnetBeacon({
  executionUrl,
  port = 0,
  secondsPerSlot = 1,
}: {
  executionUrl: string
  port?: number
  secondsPerSlot?: number
}): Promise<DevnetBeaconNode> {
  let beacon: DevnetBeacon | undefined
  const chain = followExecutionChain(executionUrl, { onReorg: (from) => beacon?.forget(from) })
  await chain.catchUp()
  const genesisTime = Number(chain.payloadHeader(0).timestamp) - CLOCK_LEAD_SECONDS
  // Each devnet is a chain of its own (anvil's genesis carries its start time): so is its beacon chain,
  // so that a pin of an earlier devnet's (a page's, in IndexedDB) is never taken for this one's.
  const genesisValidatorsRoot = sha256(
    Buffer.concat([Buffer.from('edgetrace devnet beacon chain over '), chain.payloadHeader(0).blockHash]),
  )
  const b = createDevnetBeacon({
    genesisTime,
    secondsPerSlot,
    genesisValidatorsRoot,
    executionAt: (slot) => chain.payloadHeader(slot),
  })
  beacon = b
  const sync = async () => {
    b.head = (await chain.catchUp()) + 1
  }
  await sync()
  const served = await b.serve({ port, before: sync })
  return {
    url: served.url,
    checkpoint: `0x${Buffer.from(b.rootAt(0)).toString('hex')}` as Hex,
    beacon: b,
    close: served.close,
  }
}
