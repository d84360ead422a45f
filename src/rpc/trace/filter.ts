import type { Engine } from '../../exec/createEngine.js'
import type { CallContext } from '../../types/progress.js'
import { parseParams, required } from '../params.js'
import { parseTraceFilter, traceFilter } from './traceFilter.js'

/** trace_filter(filter): traces of a block range filtered by address, paginated; streamed. */
export async function filter(engine: Engine, params: unknown, context: CallContext): Promise<unknown> {
  const [parsed] = parseParams(params, [required(parseTraceFilter)])
  return traceFilter(engine, parsed, context)
}
