import type { Engine } from '../../exec/createEngine.js'
import type { CallContext } from '../../types/progress.js'
import { SILENT_CONTEXT } from '../progress.js'
import { optional, parseParams, required } from '../params.js'
import { parseHash } from '../parsers.js'
import { blockFields } from './parityConfigs.js'
import { parseParityTraceConfig } from './parseTraceTypes.js'
import { traceMinedTransaction } from './replayTraces.js'

/** trace_transaction(hash, traceConfig?): the transaction's traces; null when unknown. */
export async function transaction(engine: Engine, params: unknown, context: CallContext = SILENT_CONTEXT): Promise<unknown> {
  const [hash, cfg] = parseParams(params, [required(parseHash), optional(parseParityTraceConfig)])
  const result = await traceMinedTransaction(engine, hash, blockFields(cfg?.includePrecompiles ?? false), context)
  return result ? result.trace : null
}
