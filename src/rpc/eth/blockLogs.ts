import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { fetchVerifiedBlock } from '../../exec/fetchVerifiedBlock.js'
import { fetchVerifiedReceipts } from '../debug/fetchVerifiedReceipts.js'
import { formatReceipts } from './formatReceipts.js'
import type { LogFilter } from './parseLogFilter.js'
import { bloomMayMatch } from './matchLogFilter.js'

/** A log as eth_getLogs and the logs subscription give it. */
export type BlockLog = { address: string; topics: string[] } & Record<string, unknown>

/**
 * Every log of a block, from its receipts verified against `receiptsRoot` (its transactions against
 * `transactionsRoot`) — or none read at all when its bloom rules out every filter given.
 */
export async function blockLogs(
  engine: Engine,
  header: VerifiedHeader,
  filters: readonly LogFilter[],
): Promise<BlockLog[]> {
  if (!filters.some((filter) => bloomMayMatch(header.header.logsBloom, filter))) return []
  const [verified, receipts] = await Promise.all([
    fetchVerifiedBlock(engine, header),
    fetchVerifiedReceipts(engine, header),
  ])
  return formatReceipts(verified.block, receipts).flatMap((r) => r.logs as BlockLog[])
}
