/** A log as the JSON of formatReceipts (eth's log shape, blockTimestamp included). */
export type EthLog = {
  address: string
  topics: string[]
  data: string
  blockNumber: string
  transactionHash: string
  transactionIndex: string
  blockHash: string
  blockTimestamp: string
  logIndex: string
  removed: boolean
}

/**
 * The reference daemon's ErigonLog (fields in its declaration order): eth's log with the block's
 * time last, as `blockTimestamp` (renamed from `timestamp` in 2026-08). `logIndex` may be replaced
 * (erigon_getLatestLogs counts it within the transaction).
 */
export function formatErigonLog(log: EthLog, logIndex: string = log.logIndex): Record<string, unknown> {
  return {
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockNumber: log.blockNumber,
    transactionHash: log.transactionHash,
    transactionIndex: log.transactionIndex,
    blockHash: log.blockHash,
    logIndex,
    removed: log.removed,
    blockTimestamp: log.blockTimestamp,
  }
}
