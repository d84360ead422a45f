import type { Engine } from '../../exec/createEngine.js'
import type { CallContext } from '../../types/progress.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, parseParams, required } from '../params.js'
import { blockRewards } from './blockRewards.js'
import { blockFields } from './parityConfigs.js'
import { parseParityTraceConfig } from './parseTraceTypes.js'
import { traceBlockTransactions } from './replayTraces.js'

/** trace_block(block, traceConfig?): every transaction's traces, then the block's reward entries. */
export async function block(engine: Engine, params: unknown, context: CallContext): Promise<unknown> {
  const [selector, cfg] = parseParams(params, [required(parseBlockParameter), optional(parseParityTraceConfig)])
  const block = await traceBlockTransactions(engine, selector, blockFields(cfg?.includePrecompiles ?? false), context)
  if (!block) return []
  return [...block.traced.flatMap((t) => t.result.trace), ...(await blockRewards(engine, block.loaded))]
}
