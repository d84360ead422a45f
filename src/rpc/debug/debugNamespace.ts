import { defineNamespace } from '../defineNamespace.js'
import { accountAt } from './accountAt.js'
import { accountRange } from './accountRange.js'
import { freeOSMemory } from './freeOSMemory.js'
import { gcStats } from './gcStats.js'
import { getBadBlocks } from './getBadBlocks.js'
import { getModifiedAccountsByHash } from './getModifiedAccountsByHash.js'
import { getModifiedAccountsByNumber } from './getModifiedAccountsByNumber.js'
import { getRawBlock } from './getRawBlock.js'
import { getRawHeader } from './getRawHeader.js'
import { getRawReceipts } from './getRawReceipts.js'
import { getRawTransaction } from './getRawTransaction.js'
import { memStats } from './memStats.js'
import { observeGc } from './runtimeStats.js'
import { setGCPercent } from './setGCPercent.js'
import { setMemoryLimit } from './setMemoryLimit.js'
import { storageRangeAt } from './storageRangeAt.js'
import { traceBlockByHash } from './traceBlockByHash.js'
import { traceBlockByNumber } from './traceBlockByNumber.js'
import { traceCall } from './traceCall.js'
import { traceCallMany } from './traceCallMany.js'
import { traceTransaction } from './traceTransaction.js'

/** The debug namespace: geth's tracing and state methods, computed locally on verified state. */
export const debugNamespace = defineNamespace({
  name: 'debug',
  summary: "geth's tracers: debug_traceTransaction/Call/Block with structLogs, callTracer, prestateTracer, 4byte…",
  methods: [
    traceCall,
    traceTransaction,
    traceBlockByNumber,
    traceBlockByHash,
    traceCallMany,
    setMemoryLimit,
    setGCPercent,
    freeOSMemory,
    memStats,
    gcStats,
    accountAt,
    storageRangeAt,
    accountRange,
    getModifiedAccountsByNumber,
    getModifiedAccountsByHash,
    getBadBlocks,
    getRawHeader,
    getRawBlock,
    getRawReceipts,
    getRawTransaction,
  ],
  // debug_gcStats counts the collections from the moment the namespace is served.
  serve: () => observeGc(),
})
