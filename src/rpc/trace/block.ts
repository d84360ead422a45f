import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, required } from '../params.js'
import { blockRewards } from './blockRewards.js'
import { blockFields } from './parityConfigs.js'
import { parseParityTraceConfig } from './parseTraceTypes.js'
import { traceBlockTransactions } from './replayTraces.js'
import { defineMethod } from '../defineMethod.js'

/** trace_block(block, traceConfig?): every transaction's traces, then the block's reward entries. */
export const block = defineMethod({
  name: 'trace_block',
  spread: true,
  params: [required(parseBlockParameter), optional(parseParityTraceConfig)],
  async run(engine, [selector, cfg], context): Promise<unknown> {
    const block = await traceBlockTransactions(engine, selector, blockFields(cfg?.includePrecompiles ?? false), context)
    if (!block) return []
    return [...block.traced.flatMap((t) => t.result.trace), ...(await blockRewards(engine, block.loaded))]
  },
})
