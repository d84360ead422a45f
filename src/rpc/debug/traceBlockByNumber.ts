import { parseTraceConfig } from '../parseTraceConfig.js'
import { optional, required } from '../params.js'
import { parseBlockNumberStrict, traceBlock } from './traceBlock.js'
import { defineMethod } from '../defineMethod.js'

/** debug_traceBlockByNumber(number | tag, config?) */
export const traceBlockByNumber = defineMethod({
  name: 'debug_traceBlockByNumber',
  spread: true,
  params: [required(parseBlockNumberStrict), optional(parseTraceConfig)],
  async run(engine, [selector, plan], context): Promise<unknown> {
    return traceBlock(engine, selector, plan ?? parseTraceConfig({}), context)
  },
})
