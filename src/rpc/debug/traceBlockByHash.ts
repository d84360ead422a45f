import { parseTraceConfig } from '../parseTraceConfig.js'
import { parseHash } from '../parsers.js'
import { optional, required } from '../params.js'
import { traceBlock } from './traceBlock.js'
import { defineMethod } from '../defineMethod.js'

/** debug_traceBlockByHash(hash, config?) */
export const traceBlockByHash = defineMethod({
  name: 'debug_traceBlockByHash',
  spread: true,
  params: [required(parseHash), optional(parseTraceConfig)],
  async run(engine, [hash, plan], context): Promise<unknown> {
    return traceBlock(engine, { kind: 'hash', hash, requireCanonical: false }, plan ?? parseTraceConfig({}), context)
  },
})
