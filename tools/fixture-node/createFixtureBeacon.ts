import { createBlockHeader } from '@ethereumjs/block'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { type DevnetBeacon, createDevnetBeacon } from '../../src/node/devnet/createDevnetBeacon.js'
import { executionPayloadHeaderOf } from '../../src/node/devnet/executionPayloadHeaderOf.js'
import type { FixtureChain } from './createFixtureChain.js'
import { blockJson } from './toRpcJson.js'

export type FixtureBeaconOptions = {
  /** Slots the beacon chain has at least: the execution chain is extended by empty blocks to give them (default 96: past one sync-committee period, so the committee rotates and finality moves on). */
  slots?: number | undefined
  /** Seconds per slot (default 1: a block mined shows within a second to a light client on the wall clock). */
  secondsPerSlot?: number | undefined
}

export type FixtureBeacon = {
  /** The made-up beacon chain: its `lie` switch, roots by slot. */
  readonly beacon: DevnetBeacon
  /** The execution block number slot 0 carries (the chain's first post-merge block). */
  readonly firstBlock: bigint
  /** The beacon block root of slot 0: a checkpoint to start a light client from. */
  readonly checkpoint: string
  /** Empty blocks mined on the execution chain to give the beacon chain its slots. */
  readonly minedBlocks: number
  /** The execution side lies too: the beacon chain's head block answered as another one, self-consistent, its hash recomputed. */
  lieAboutHead: boolean
  /** Brings the beacon head to the execution chain's head (before each Beacon API answer). */
  sync(): void
  /** A JSON-RPC block answer as the execution side gives it (forged when it lies about the head). */
  blockAnswer(block: Record<string, unknown>): Record<string, unknown>
}

/** How far behind the clock the beacon genesis is: blocks mined in a burst are still in the past. */
const CLOCK_LEAD_SECONDS = 86_400

/**
 * A beacon chain over a fixture node's own execution chain: slot s carries block firstBlock + s (the
 * first post-merge block at slot 0), its payload header built from the real block; a sync committee
 * of generated keys; finality and committee rotation as the chain grows. The execution chain is
 * extended with empty blocks to `slots` first. Its lies are the beacon chain's switches and
 * `lieAboutHead`: the execution side then answers the head block (by tag, number or hash) with a
 * forged one — one field changed and its hash recomputed — that only a light client can tell.
 */
export async function createFixtureBeacon(
  chain: FixtureChain,
  { slots = 96, secondsPerSlot = 1 }: FixtureBeaconOptions = {},
): Promise<FixtureBeacon> {
  let firstBlock: bigint | undefined
  for (let n = chain.genesis.block.header.number; n <= chain.head().block.header.number; n++)
    if (chain.byNumber(n)?.block.header.difficulty === 0n) {
      firstBlock = n
      break
    }
  if (firstBlock === undefined) {
    if (chain.head().block.common.gteHardfork('paris') === false)
      throw new Error('a beacon chain needs a post-merge execution chain: this one is before the merge at its head')
    firstBlock = chain.head().block.header.number + 1n
  }
  let minedBlocks = 0
  while (chain.head().block.header.number - firstBlock + 1n < BigInt(slots)) {
    await chain.mineBlock({ timestamp: chain.head().block.header.timestamp + 12n }, [])
    minedBlocks++
  }
  const first = firstBlock
  const headSlot = () => Number(chain.head().block.header.number - first) + 1
  const beacon = createDevnetBeacon({
    genesisTime: Math.floor(Date.now() / 1000) - headSlot() * secondsPerSlot - CLOCK_LEAD_SECONDS,
    secondsPerSlot,
    executionAt: (slot) => {
      const block = chain.byNumber(first + BigInt(slot))
      if (!block) throw new Error(`slot ${slot}: no execution block ${first + BigInt(slot)} yet`)
      return executionPayloadHeaderOf(blockJson(block, false))
    },
  })
  const sync = () => {
    beacon.head = headSlot()
  }
  sync()
  const fixture: FixtureBeacon = {
    beacon,
    firstBlock: first,
    checkpoint: bytesToHex(beacon.rootAt(0)),
    minedBlocks,
    lieAboutHead: false,
    sync,
    blockAnswer(block) {
      sync()
      const head = chain.byNumber(first + BigInt(beacon.head - 1))
      if (!fixture.lieAboutHead || !head || block.hash !== head.hash) return block
      const stateRoot = `0x${'ab'.repeat(32)}` as `0x${string}`
      const forged = createBlockHeader(
        { ...head.block.header.toJSON(), stateRoot: hexToBytes(stateRoot) },
        { common: head.block.common, skipConsensusFormatValidation: true },
      )
      return { ...block, stateRoot, hash: bytesToHex(forged.hash()) }
    },
  }
  return fixture
}
