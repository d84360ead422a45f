import { optional, required } from '../params.js'
import { parseBool, parseHash } from '../parsers.js'
import { replayFields, withoutTail } from './parityConfigs.js'
import { parseParityTraceConfig, parseTraceTypes } from './parseTraceTypes.js'
import { traceMinedTransaction } from './replayTraces.js'
import { defineMethod } from '../defineMethod.js'

/** trace_replayTransaction(hash, traceTypes, gasBailOut?, traceConfig?) */
export const replayTransaction = defineMethod({
  name: 'trace_replayTransaction',
  params: [required(parseHash), required(parseTraceTypes), optional(parseBool), optional(parseParityTraceConfig)],
  async run(engine, [hash, types, , cfg], context): Promise<unknown> {
    const result = await traceMinedTransaction(
      engine,
      hash,
      replayFields(types, cfg?.includePrecompiles ?? false),
      context,
    )
    if (!result) return null
    return { ...withoutTail(result), transactionHash: hash, vmTrace: result.vmTrace }
  },
})
