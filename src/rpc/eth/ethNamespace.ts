import { defineNamespace } from '../defineNamespace.js'
import { forwardUnverified } from '../forwardUnverified.js'
import { baseFee } from './baseFee.js'
import { blobBaseFee } from './blobBaseFee.js'
import { blockNumber } from './blockNumber.js'
import { call } from './call.js'
import { capabilities } from './capabilities.js'
import { chainId } from './chainId.js'
import { config } from './config.js'
import { createAccessList } from './createAccessList.js'
import { estimateGas } from './estimateGas.js'
import { feeHistory } from './feeHistory.js'
import { getFilterChanges } from './filters/getFilterChanges.js'
import { getFilterLogs } from './filters/getFilterLogs.js'
import { newBlockFilter } from './filters/newBlockFilter.js'
import { newFilter } from './filters/newFilter.js'
import { newPendingTransactionFilter } from './filters/newPendingTransactionFilter.js'
import { uninstallFilter } from './filters/uninstallFilter.js'
import { getAccount } from './getAccount.js'
import { getAccountInfo } from './getAccountInfo.js'
import { getBalance } from './getBalance.js'
import { getTransactionByHash } from './getTransactionByHash.js'
import { getTransactionReceipt } from './getTransactionReceipt.js'
import { getBlockReceipts } from './getBlockReceipts.js'
import { getBlockByHash } from './getBlockByHash.js'
import { getBlockByNumber } from './getBlockByNumber.js'
import { getBlockTransactionCountByHash } from './getBlockTransactionCountByHash.js'
import { getBlockTransactionCountByNumber } from './getBlockTransactionCountByNumber.js'
import { getTransactionByBlockHashAndIndex } from './getTransactionByBlockHashAndIndex.js'
import { getTransactionByBlockNumberAndIndex } from './getTransactionByBlockNumberAndIndex.js'
import { getUncleByBlockHashAndIndex } from './getUncleByBlockHashAndIndex.js'
import { getUncleByBlockNumberAndIndex } from './getUncleByBlockNumberAndIndex.js'
import { getUncleCountByBlockHash } from './getUncleCountByBlockHash.js'
import { getUncleCountByBlockNumber } from './getUncleCountByBlockNumber.js'
import { getCode } from './getCode.js'
import { getLogs } from './getLogs.js'
import { getProof } from './getProof.js'
import { getStorageAt } from './getStorageAt.js'
import { getStorageValues } from './getStorageValues.js'
import { getTransactionCount } from './getTransactionCount.js'
import { passThroughWhenUnverified } from './passThroughWhenUnverified.js'
import { sendRawTransaction } from './sendRawTransaction.js'
import { simulateV1 } from './simulateV1.js'
import { subscribe } from './subscriptions/subscribe.js'
import { unsubscribe } from './subscriptions/unsubscribe.js'

/**
 * Methods whose answer carries no chain state a proof could cover, forwarded to the upstream as they
 * are (docs/methods.md "Methods forwarded unverified" says why, one by one): fee suggestions, the upstream's
 * sync status, its mining and protocol view, and what its own keys do (accounts, signing, sending).
 */
export const ETH_FORWARDED = [
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_syncing',
  'eth_protocolVersion',
  'eth_mining',
  'eth_hashrate',
  'eth_coinbase',
  'eth_accounts',
  'eth_sign',
  'eth_signTransaction',
  'eth_sendTransaction',
] as const

/**
 * The eth namespace: eth_call, eth_estimateGas, eth_createAccessList and eth_simulateV1 computed locally on
 * verified state, eth_chainId and eth_config from the chain's rules, reads of state, blocks, transactions and
 * receipts answered from verified data (with `--unverified`, passed through as they were sent), filters and
 * subscriptions fed from verified heads, logs and the pool; the few methods that carry no chain state
 * (ETH_FORWARDED) forwarded as they are. Any other eth_* method does not exist (-32601): nothing is
 * passed through unverified by default.
 */
export const ethNamespace = defineNamespace({
  name: 'eth',
  summary:
    'the standard API: blocks, receipts, logs, balances; eth_call, estimateGas and simulateV1 run here on verified state',
  methods: [
    chainId,
    config,
    call,
    estimateGas,
    createAccessList,
    simulateV1,
    sendRawTransaction,
    passThroughWhenUnverified(blockNumber),
    passThroughWhenUnverified(getBalance),
    passThroughWhenUnverified(getAccount),
    passThroughWhenUnverified(getAccountInfo),
    passThroughWhenUnverified(getTransactionCount),
    passThroughWhenUnverified(getCode),
    passThroughWhenUnverified(getStorageAt),
    passThroughWhenUnverified(getStorageValues),
    passThroughWhenUnverified(getProof),
    passThroughWhenUnverified(getTransactionByHash),
    passThroughWhenUnverified(getTransactionReceipt),
    passThroughWhenUnverified(getBlockReceipts),
    passThroughWhenUnverified(getBlockByHash),
    passThroughWhenUnverified(getBlockByNumber),
    passThroughWhenUnverified(getBlockTransactionCountByHash),
    passThroughWhenUnverified(getBlockTransactionCountByNumber),
    passThroughWhenUnverified(getTransactionByBlockHashAndIndex),
    passThroughWhenUnverified(getTransactionByBlockNumberAndIndex),
    passThroughWhenUnverified(getUncleByBlockHashAndIndex),
    passThroughWhenUnverified(getUncleByBlockNumberAndIndex),
    passThroughWhenUnverified(getUncleCountByBlockHash),
    passThroughWhenUnverified(getUncleCountByBlockNumber),
    passThroughWhenUnverified(getLogs),
    passThroughWhenUnverified(feeHistory),
    passThroughWhenUnverified(blobBaseFee),
    passThroughWhenUnverified(baseFee),
    capabilities,
    subscribe,
    unsubscribe,
    newFilter,
    newBlockFilter,
    newPendingTransactionFilter,
    getFilterChanges,
    getFilterLogs,
    uninstallFilter,
    ...ETH_FORWARDED.map(forwardUnverified),
  ],
})
