import type { Engine } from '../../exec/createEngine.js'
import type { CallContext } from '../../types/progress.js'
import { SILENT_CONTEXT } from '../progress.js'
import { optional, parseParams, required } from '../params.js'
import { parseBool, parseHash } from '../parsers.js'
import { replayFields, withoutTail } from './parityConfigs.js'
import { parseParityTraceConfig, parseTraceTypes } from './parseTraceTypes.js'
import { traceMinedTransaction } from './replayTraces.js'

/** trace_replayTransaction(hash, traceTypes, gasBailOut?, traceConfig?) */
export async function replayTransaction(engine: Engine, params: unknown, context: CallContext = SILENT_CONTEXT): Promise<unknown> {
  const [hash, types, , cfg] = parseParams(params, [
    required(parseHash),
    required(parseTraceTypes),
    optional(parseBool),
    optional(parseParityTraceConfig),
  ])
  const result = await traceMinedTransaction(engine, hash, replayFields(types, cfg?.includePrecompiles ?? false), context)
  if (!result) return null
  return { ...withoutTail(result), transactionHash: hash, vmTrace: result.vmTrace }
}
