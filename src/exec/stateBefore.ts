import { TransactionIndexError } from '../errors/replay.js'
import type { OverlayStateManager } from '../state/createOverlayStateManager.js'
import type { Deadline } from '../types/deadline.js'
import type { Engine } from './createEngine.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { loadBlock } from './loadBlock.js'
import { replayBlock } from './replayBlock.js'

export type StateBeforeOptions = {
  /** A transaction index past the block's end: an error (default), or the state after all of them. */
  pastEnd?: 'error' | 'all'
  /** The request's one deadline (see replayBlock). */
  deadline?: Deadline | undefined
}

/**
 * The verified state before transaction `index` of a block (loaded and checked here) (as that transaction sees it): the
 * parent's state with the block's first `index` transactions replayed, each checked against its
 * receipt. 'all': after every transaction of the block.
 */
export async function stateBefore(
  engine: Engine,
  block: VerifiedHeader,
  index: number | 'all',
  { pastEnd = 'error', deadline }: StateBeforeOptions = {},
): Promise<OverlayStateManager> {
  const loaded = await loadBlock(engine, block.hash, block.number)
  const length = loaded.block.transactions.length
  if (index !== 'all' && index > length && pastEnd === 'error')
    throw new TransactionIndexError(index, loaded.header.number, length)
  const count = index === 'all' ? length : Math.min(index, length)
  return (await replayBlock(engine, loaded, { count, deadline })).state
}
