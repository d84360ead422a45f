import { defineNamespace } from '../defineNamespace.js'
import { blockNumber } from './blockNumber.js'
import { cacheCheck } from './cacheCheck.js'
import { forks } from './forks.js'
import { getBalanceChangesInBlock } from './getBalanceChangesInBlock.js'
import { getBlockByTimestamp } from './getBlockByTimestamp.js'
import { getBlockReceiptsByBlockHash } from './getBlockReceiptsByBlockHash.js'
import { getHeaderByHash } from './getHeaderByHash.js'
import { getHeaderByNumber } from './getHeaderByNumber.js'
import { getLatestLogs } from './getLatestLogs.js'
import { getLogs } from './getLogs.js'
import { getLogsByHash } from './getLogsByHash.js'
import { nodeInfo } from './nodeInfo.js'

/**
 * The vendor namespace: the reference daemon's own methods, under its own names (`erigon_*`, so its
 * clients call them unchanged; `--http.api` takes `vendor` or `erigon`), answered from verified
 * headers, blocks, receipts and state.
 */
export const vendorNamespace = defineNamespace({
  name: 'vendor',
  summary:
    "the reference daemon's own extensions (erigon_*: headers, logs, block by timestamp, balance changes, node info); also called erigon",
  prefix: 'erigon',
  methods: [
    forks,
    blockNumber,
    getHeaderByNumber,
    getHeaderByHash,
    getBlockByTimestamp,
    getBalanceChangesInBlock,
    getLogsByHash,
    getLogs,
    getLatestLogs,
    getBlockReceiptsByBlockHash,
    nodeInfo,
    cacheCheck,
  ],
})
