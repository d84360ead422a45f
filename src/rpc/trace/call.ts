import { parseBlockParameter } from '../parseBlockParameter.js'
import { parseCallArgs } from '../parseCallArgs.js'
import { optional, required } from '../params.js'
import { parseParityTraceConfig, parseTraceTypes } from './parseTraceTypes.js'
import { traceCalls } from './traceCalls.js'
import { defineMethod } from '../defineMethod.js'

/** trace_call(call, traceTypes, block = latest, traceConfig?) */
export const call = defineMethod({
  name: 'trace_call',
  params: [
    required(parseCallArgs),
    required(parseTraceTypes),
    optional(parseBlockParameter),
    optional(parseParityTraceConfig),
  ],
  async run(engine, [args, types, selector, cfg], context): Promise<unknown> {
    const [result] = await traceCalls(engine, [{ args, types }], selector, cfg, context)
    return result
  },
})
