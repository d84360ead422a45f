import type { Engine } from '../../exec/createEngine.js'
import type { RpcNamespace } from '../createRpcHandler.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { parseHash, parseQuantity } from '../parsers.js'
import { ParamError, optional, parseParams, required } from '../params.js'
import type { TraceResult } from '../../tracing/tracers/parityTracer.js'
import { blockRewards } from './blockRewards.js'
import { parseParityTraceConfig, parseTraceTypes } from './parseTraceTypes.js'
import { loadTraceBlock, traceBlockTransactions, traceMinedTransaction } from './replayTraces.js'
import { parseCallList, parseRawTransactionCall, traceCalls } from './traceCalls.js'
import { parseTraceFilter, traceFilter } from './traceFilter.js'
import { parseCallArgs } from '../parseCallArgs.js'

const parseBool = (raw: unknown) => {
  if (typeof raw !== 'boolean') throw new ParamError('expected a boolean')
  return raw
}
const parseIndices = (raw: unknown) => {
  if (!Array.isArray(raw)) throw new ParamError('expected an array of hex indices')
  return raw.map((v) => Number(parseQuantity(v)))
}

/** A TraceResult's fields before `transactionHash`, in order (vmTrace goes after it). */
function withoutTail({ vmTrace: _, ...rest }: TraceResult): Omit<TraceResult, 'vmTrace'> {
  return rest
}

/**
 * The trace namespace (served when `trace` is in --http.api): Parity/OpenEthereum-style traces
 * computed locally on verified state, in the shapes of the recorded outputs of OpenEthereum/Besu.
 */
export function createTraceNamespace(engine: Engine): RpcNamespace {
  const blockFields = (includePrecompiles: boolean) => ({
    types: new Set(['trace'] as const),
    includePrecompiles,
    creationMethod: true,
    withBlockFields: true,
    revertData: 'revertReason' as const,
  })
  return {
    name: 'trace',
    methods: {
      /** trace_transaction(hash, traceConfig?): the transaction's traces; null when unknown. */
      trace_transaction: async (params) => {
        const [hash, cfg] = parseParams(params, [required(parseHash), optional(parseParityTraceConfig)])
        const result = await traceMinedTransaction(engine, hash, blockFields(cfg?.includePrecompiles ?? false))
        return result ? result.trace : null
      },
      /**
       * trace_get(hash, indices): the transaction's trace whose traceAddress is `indices` ([] is
       * the top call), as OpenEthereum and Besu answer; null when there is none.
       */
      trace_get: async (params) => {
        const [hash, indices] = parseParams(params, [required(parseHash), required(parseIndices)])
        const result = await traceMinedTransaction(engine, hash, blockFields(false))
        const path = JSON.stringify(indices)
        return result?.trace.find((t) => JSON.stringify((t as { traceAddress: number[] }).traceAddress) === path) ?? null
      },
      /** trace_block(block): every transaction's traces, then the block's reward entries. */
      trace_block: async (params, context) => {
        const [selector, cfg] = parseParams(params, [required(parseBlockParameter), optional(parseParityTraceConfig)])
        const loaded = await loadTraceBlock(engine, selector)
        if (!loaded) return []
        const traced = await traceBlockTransactions(engine, loaded, blockFields(cfg?.includePrecompiles ?? false), context)
        return [...traced.flatMap((t) => t.result.trace), ...(await blockRewards(engine, loaded))]
      },
      /** trace_call(call, traceTypes, block = latest, traceConfig?) */
      trace_call: async (params) => {
        const [args, types, selector, cfg] = parseParams(params, [required(parseCallArgs), required(parseTraceTypes), optional(parseBlockParameter), optional(parseParityTraceConfig)])
        const [result] = await traceCalls(engine, [{ args, types }], selector, cfg?.includePrecompiles ?? false)
        return result
      },
      /** trace_callMany([[call, traceTypes], …], block = latest, traceConfig?) */
      trace_callMany: async (params) => {
        const [calls, selector, cfg] = parseParams(params, [required(parseCallList), optional(parseBlockParameter), optional(parseParityTraceConfig)])
        return traceCalls(engine, calls, selector, cfg?.includePrecompiles ?? false)
      },
      /** trace_rawTransaction(rawTx, traceTypes, traceConfig?): a signed transaction traced on the latest state. */
      trace_rawTransaction: async (params) => {
        const [args, types, cfg] = parseParams(params, [required(parseRawTransactionCall), required(parseTraceTypes), optional(parseParityTraceConfig)])
        const [result] = await traceCalls(engine, [{ args, types }], undefined, cfg?.includePrecompiles ?? false)
        return result
      },
      /** trace_filter(filter): traces of a block range filtered by address, paginated; streamed. */
      trace_filter: async (params, context) => {
        const [filter] = parseParams(params, [required(parseTraceFilter)])
        return traceFilter(engine, filter, context)
      },
      /** trace_replayTransaction(hash, traceTypes, gasBailOut?, traceConfig?) */
      trace_replayTransaction: async (params) => {
        const [hash, types, , cfg] = parseParams(params, [required(parseHash), required(parseTraceTypes), optional(parseBool), optional(parseParityTraceConfig)])
        const config = { types, includePrecompiles: cfg?.includePrecompiles ?? false, creationMethod: true, withBlockFields: false, revertData: 'revertReason' as const }
        const result = await traceMinedTransaction(engine, hash, config)
        if (!result) return null
        return { ...withoutTail(result), transactionHash: hash, vmTrace: result.vmTrace }
      },
      /** trace_replayBlockTransactions(block, traceTypes, gasBailOut?, traceConfig?) */
      trace_replayBlockTransactions: async (params, context) => {
        const [selector, types, , cfg] = parseParams(params, [required(parseBlockParameter), required(parseTraceTypes), optional(parseBool), optional(parseParityTraceConfig)])
        const loaded = await loadTraceBlock(engine, selector)
        if (!loaded) return []
        const config = { types, includePrecompiles: cfg?.includePrecompiles ?? false, creationMethod: true, withBlockFields: false, revertData: 'revertReason' as const }
        const traced = await traceBlockTransactions(engine, loaded, config, context)
        return traced.map((t) => ({ ...withoutTail(t.result), transactionHash: t.hash, vmTrace: t.result.vmTrace }))
      },
    },
  }
}
