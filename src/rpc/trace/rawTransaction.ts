import type { Engine } from '../../exec/createEngine.js'
import type { CallContext } from '../../types/progress.js'
import { SILENT_CONTEXT } from '../progress.js'
import { optional, parseParams, required } from '../params.js'
import { parseParityTraceConfig, parseTraceTypes } from './parseTraceTypes.js'
import { parseRawTransactionCall, traceCalls } from './traceCalls.js'

/** trace_rawTransaction(rawTx, traceTypes, traceConfig?): a signed transaction traced on the latest state. */
export async function rawTransaction(engine: Engine, params: unknown, context: CallContext = SILENT_CONTEXT): Promise<unknown> {
  const [args, types, cfg] = parseParams(params, [required(parseRawTransactionCall), required(parseTraceTypes), optional(parseParityTraceConfig)])
  const [result] = await traceCalls(engine, [{ args, types }], undefined, cfg?.includePrecompiles ?? false, context)
  return result
}
