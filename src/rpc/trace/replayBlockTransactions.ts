import type { Engine } from '../../exec/createEngine.js'
import type { CallContext } from '../../types/progress.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, parseParams, required } from '../params.js'
import { parseBool } from '../parsers.js'
import { replayFields, withoutTail } from './parityConfigs.js'
import { parseParityTraceConfig, parseTraceTypes } from './parseTraceTypes.js'
import { traceBlockTransactions } from './replayTraces.js'

/** trace_replayBlockTransactions(block, traceTypes, gasBailOut?, traceConfig?) */
export async function replayBlockTransactions(engine: Engine, params: unknown, context: CallContext): Promise<unknown> {
  const [selector, types, , cfg] = parseParams(params, [
    required(parseBlockParameter),
    required(parseTraceTypes),
    optional(parseBool),
    optional(parseParityTraceConfig),
  ])
  const block = await traceBlockTransactions(engine, selector, replayFields(types, cfg?.includePrecompiles ?? false), context)
  if (!block) return []
  return block.traced.map((t) => ({ ...withoutTail(t.result), transactionHash: t.hash, vmTrace: t.result.vmTrace }))
}
