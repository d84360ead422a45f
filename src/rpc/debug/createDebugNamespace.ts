import type { Engine } from '../../exec/createEngine.js'
import type { RpcNamespace } from '../createRpcHandler.js'
import { accountAt } from './accountAt.js'
import { accountRange } from './accountRange.js'
import { getModifiedAccountsByHash, getModifiedAccountsByNumber } from './getModifiedAccounts.js'
import { getBadBlocks } from './getBadBlocks.js'
import { getRawBlock, getRawHeader, getRawReceipts, getRawTransaction } from './getRaw.js'
import { createRuntimeControls } from './runtimeControls.js'
import { storageRangeAt } from './storageRangeAt.js'
import { traceBlockByHash, traceBlockByNumber } from './traceBlock.js'
import { traceCall } from './traceCall.js'
import { traceCallMany } from './traceCallMany.js'
import { traceTransaction } from './traceTransaction.js'

/** The debug namespace (served when `debug` is in --http.api): geth's tracing methods, computed locally. */
export function createDebugNamespace(engine: Engine): RpcNamespace {
  return {
    name: 'debug',
    methods: {
      debug_traceCall: (params, context) => traceCall(engine, params, context),
      debug_traceTransaction: (params) => traceTransaction(engine, params),
      debug_traceBlockByNumber: (params, context) => traceBlockByNumber(engine, params, context),
      debug_traceBlockByHash: (params, context) => traceBlockByHash(engine, params, context),
      debug_traceCallMany: (params) => traceCallMany(engine, params),
      ...createRuntimeControls(engine),
      debug_accountAt: (params) => accountAt(engine, params),
      debug_storageRangeAt: (params) => storageRangeAt(engine, params),
      debug_accountRange: (params) => accountRange(engine, params),
      debug_getModifiedAccountsByNumber: (params) => getModifiedAccountsByNumber(engine, params),
      debug_getModifiedAccountsByHash: (params) => getModifiedAccountsByHash(engine, params),
      debug_getBadBlocks: (params) => getBadBlocks(engine, params),
      debug_getRawHeader: (params) => getRawHeader(engine, params),
      debug_getRawBlock: (params) => getRawBlock(engine, params),
      debug_getRawReceipts: (params) => getRawReceipts(engine, params),
      debug_getRawTransaction: (params) => getRawTransaction(engine, params),
    },
  }
}
