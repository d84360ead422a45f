import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, required } from '../params.js'
import { parseParityTraceConfig } from './parseTraceTypes.js'
import { parseCallList, traceCalls } from './traceCalls.js'
import { defineMethod } from '../defineMethod.js'

/** trace_callMany([[call, traceTypes], …], block = latest, traceConfig?) */
export const callMany = defineMethod({
  name: 'trace_callMany',
  params: [required(parseCallList), optional(parseBlockParameter), optional(parseParityTraceConfig)],
  async run(engine, [calls, selector, cfg], context): Promise<unknown> {
    return traceCalls(engine, calls, selector, cfg, context, true)
  },
})
