import { bytesToHex } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { OverlayStateManager } from '../../state/createOverlayStateManager.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import type { Deadline } from '../../types/deadline.js'
import type { Hex } from '../../types/hex.js'
import type { Engine } from '../createEngine.js'
import type { SimulateBlockOverrides } from '../simulateBlocks.js'
import { stateBefore } from '../stateBefore.js'

/** Where a preview positioned in a block runs (options.transactionIndex). */
export type PositionedBase = {
  /** The block named: the preview's calls take its place. */
  block: VerifiedHeader
  /** Its parent, the simulation's base. */
  parent: VerifiedHeader
  /** The parent's state with the block's first `transactionIndex` transactions replayed (checked against their receipts). */
  state: OverlayStateManager
  /** The calls' block as the named one: its number, time, gas limit, fee recipient and randomness. */
  overrides: SimulateBlockOverrides
}

/**
 * The state a mined transaction at `transactionIndex` of the block saw, as debug_traceCallMany's
 * StateContext positions it (stateBefore: the parent's verified state, the block's system calls and
 * its first `transactionIndex` transactions replayed; past the block's end a TransactionIndexError),
 * and the block's own header fields for the calls' block — so that a preview of that transaction
 * runs where it ran.
 */
export async function positionedBase(
  engine: Engine,
  selector: BlockSelector,
  transactionIndex: number,
  deadline: Deadline | undefined,
): Promise<PositionedBase> {
  const block = await engine.headers.resolve(selector)
  const state = await stateBefore(engine, block, transactionIndex, { deadline })
  const { header } = block
  const parent = state.block
  return {
    block,
    parent,
    state,
    overrides: {
      number: block.number,
      // A simulated block's time is after its parent's (geth's rule); a block mined in the same second
      // as its parent (anvil does) is given one second more.
      time: header.timestamp > parent.header.timestamp ? header.timestamp : parent.header.timestamp + 1n,
      gasLimit: header.gasLimit,
      feeRecipient: bytesToHex(header.coinbase.bytes) as Hex,
      prevRandao: bytesToHex(header.mixHash) as Hex,
    },
  }
}
