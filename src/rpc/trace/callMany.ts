import type { Engine } from '../../exec/createEngine.js'
import type { CallContext } from '../../types/progress.js'
import { SILENT_CONTEXT } from '../progress.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, parseParams, required } from '../params.js'
import { parseParityTraceConfig } from './parseTraceTypes.js'
import { parseCallList, traceCalls } from './traceCalls.js'

/** trace_callMany([[call, traceTypes], …], block = latest, traceConfig?) */
export async function callMany(engine: Engine, params: unknown, context: CallContext = SILENT_CONTEXT): Promise<unknown> {
  const [calls, selector, cfg] = parseParams(params, [required(parseCallList), optional(parseBlockParameter), optional(parseParityTraceConfig)])
  return traceCalls(engine, calls, selector, cfg?.includePrecompiles ?? false, context)
}
