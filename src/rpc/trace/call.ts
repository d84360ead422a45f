import type { Engine } from '../../exec/createEngine.js'
import type { CallContext } from '../../types/progress.js'
import { SILENT_CONTEXT } from '../progress.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { parseCallArgs } from '../parseCallArgs.js'
import { optional, parseParams, required } from '../params.js'
import { parseParityTraceConfig, parseTraceTypes } from './parseTraceTypes.js'
import { traceCalls } from './traceCalls.js'

/** trace_call(call, traceTypes, block = latest, traceConfig?) */
export async function call(engine: Engine, params: unknown, context: CallContext = SILENT_CONTEXT): Promise<unknown> {
  const [args, types, selector, cfg] = parseParams(params, [
    required(parseCallArgs),
    required(parseTraceTypes),
    optional(parseBlockParameter),
    optional(parseParityTraceConfig),
  ])
  const [result] = await traceCalls(engine, [{ args, types }], selector, cfg?.includePrecompiles ?? false, context)
  return result
}
