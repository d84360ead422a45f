import type { Engine } from '../../exec/createEngine.js'
import type { CallContext } from '../../types/progress.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, parseParams, required } from '../params.js'
import { parseBool } from '../parsers.js'
import { replayFields, withoutTail } from './parityConfigs.js'
import { parseParityTraceConfig, parseTraceTypes } from './parseTraceTypes.js'
import { loadTraceBlock, traceBlockTransactions } from './replayTraces.js'

/** trace_replayBlockTransactions(block, traceTypes, gasBailOut?, traceConfig?) */
export async function replayBlockTransactions(engine: Engine, params: unknown, context: CallContext): Promise<unknown> {
  const [selector, types, , cfg] = parseParams(params, [
    required(parseBlockParameter),
    required(parseTraceTypes),
    optional(parseBool),
    optional(parseParityTraceConfig),
  ])
  const loaded = await loadTraceBlock(engine, selector)
  if (!loaded) return []
  const traced = await traceBlockTransactions(engine, loaded, replayFields(types, cfg?.includePrecompiles ?? false), context)
  return traced.map((t) => ({ ...withoutTail(t.result), transactionHash: t.hash, vmTrace: t.result.vmTrace }))
}
