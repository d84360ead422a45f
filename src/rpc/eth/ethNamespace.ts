import { defineNamespace } from '../defineNamespace.js'
import { passThroughParams } from '../passThroughParams.js'
import { baseFee } from './baseFee.js'
import { blobBaseFee } from './blobBaseFee.js'
import { call } from './call.js'
import { chainId } from './chainId.js'
import { config } from './config.js'
import { createAccessList } from './createAccessList.js'
import { estimateGas } from './estimateGas.js'
import { feeHistory } from './feeHistory.js'
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

/** Subscriptions need a push channel to the upstream that edgetrace does not keep. */

/**
 * The eth namespace: eth_call, eth_estimateGas, eth_createAccessList and eth_simulateV1 computed locally on
 * verified state, eth_chainId and eth_config from the chain's rules, reads of state, blocks, transactions and
 * receipts answered from verified data (with `--unverified`, passed through as they were sent); every
 * other eth_* method — what no proof covers — passed through to the upstream as it is.
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
    passThroughWhenUnverified(getBalance),
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
    subscribe,
    unsubscribe,
  ],
  fallback: async (engine, method, params) => {
    return engine.upstream.request(method, passThroughParams(params))
  },
})
