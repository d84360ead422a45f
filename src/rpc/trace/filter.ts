import { required } from '../params.js'
import { parseTraceFilter, traceFilter } from './traceFilter.js'
import { defineMethod } from '../defineMethod.js'

/** trace_filter(filter): traces of a block range filtered by address, paginated; streamed. */
export const filter = defineMethod({
  name: 'trace_filter',
  params: [required(parseTraceFilter)],
  async run(engine, [parsed], context): Promise<unknown> {
    return traceFilter(engine, parsed, context)
  },
})
