import { optional, required } from '../params.js'
import { parseParityTraceConfig, parseTraceTypes } from './parseTraceTypes.js'
import { parseRawTransactionCall, traceCalls } from './traceCalls.js'
import { defineMethod } from '../defineMethod.js'

/** trace_rawTransaction(rawTx, traceTypes, traceConfig?): a signed transaction traced on the latest state. */
export const rawTransaction = defineMethod({
  name: 'trace_rawTransaction',
  params: [required(parseRawTransactionCall), required(parseTraceTypes), optional(parseParityTraceConfig)],
  async run(engine, [args, types, cfg], context): Promise<unknown> {
    const [result] = await traceCalls(engine, [{ args, types }], undefined, cfg, context)
    return result
  },
})
