import type { Engine } from '../../exec/createEngine.js'
import type { VerifiedBlock } from '../../exec/fetchVerifiedBlock.js'
import { loadBlock } from '../../exec/loadBlock.js'
import type { Hex } from '../../types/hex.js'
import { quantity } from '../../utils/hex.js'
import { blockRewards } from '../trace/blockRewards.js'

/** The reference's `issuance` object (internalIssuance), in its struct order. */
export type OtsIssuance = { blockReward: Hex; uncleReward: Hex; issuance: Hex }

/**
 * What a block minted, by the chain's rules (the rewards trace_block lists): under proof of work the
 * miner's reward (with 1/32 per uncle) and the uncles' rewards; all zero after the merge, and for the genesis block (not mined).
 */
export async function blockIssuance(engine: Engine, verified: VerifiedBlock): Promise<OtsIssuance> {
  let blockReward = 0n
  let uncleReward = 0n
  // Only a mined block with a difficulty can carry a reward (the others skip loading the block for
  // replay); the genesis block was not mined, and Besu's trace_block of it records no reward.
  if (verified.block.header.difficulty !== 0n && verified.header.number !== 0n) {
    const loaded = await loadBlock(engine, verified.header.hash, verified.header.number)
    for (const reward of await blockRewards(engine, loaded)) {
      const action = reward.action as { rewardType: string; value: Hex }
      if (action.rewardType === 'block') blockReward += BigInt(action.value)
      else uncleReward += BigInt(action.value)
    }
  }
  return {
    blockReward: quantity(blockReward),
    uncleReward: quantity(uncleReward),
    issuance: quantity(blockReward + uncleReward),
  }
}
