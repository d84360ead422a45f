import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, required } from '../params.js'
import { parseBool } from '../parsers.js'
import { replayFields, withoutTail } from './parityConfigs.js'
import { parseParityTraceConfig, parseTraceTypes } from './parseTraceTypes.js'
import { traceBlockTransactions } from './replayTraces.js'
import { defineMethod } from '../defineMethod.js'

/** trace_replayBlockTransactions(block, traceTypes, gasBailOut?, traceConfig?) */
export const replayBlockTransactions = defineMethod({
  name: 'trace_replayBlockTransactions',
  spread: true,
  params: [
    required(parseBlockParameter),
    required(parseTraceTypes),
    optional(parseBool),
    optional(parseParityTraceConfig),
  ],
  async run(engine, [selector, types, , cfg], context): Promise<unknown> {
    const block = await traceBlockTransactions(
      engine,
      selector,
      replayFields(types, cfg?.includePrecompiles ?? false),
      context,
    )
    if (!block) return []
    return block.traced.map((t) => ({ ...withoutTail(t.result), transactionHash: t.hash, vmTrace: t.result.vmTrace }))
  },
})
