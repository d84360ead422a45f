import { optional, required } from '../params.js'
import { parseHash } from '../parsers.js'
import { blockFields } from './parityConfigs.js'
import { parseParityTraceConfig } from './parseTraceTypes.js'
import { traceMinedTransaction } from './replayTraces.js'
import { defineMethod } from '../defineMethod.js'

/** trace_transaction(hash, traceConfig?): the transaction's traces; null when unknown. */
export const transaction = defineMethod({
  name: 'trace_transaction',
  params: [required(parseHash), optional(parseParityTraceConfig)],
  async run(engine, [hash, cfg], context): Promise<unknown> {
    const result = await traceMinedTransaction(engine, hash, blockFields(cfg?.includePrecompiles ?? false), context)
    return result ? result.trace : null
  },
})
