import { type OtsTraceEntry, toOtsTrace } from '../../tracing/render/ots/toOtsTrace.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { traceOtsTransaction } from './traceOtsTransaction.js'

/** ots_traceTransaction(hash): the transaction's call frames, from its replay on verified state. */
export const traceTransaction = defineMethod({
  name: 'ots_traceTransaction',
  params: [required(parseHash)],
  run(engine, [hash], context): Promise<OtsTraceEntry[]> {
    return traceOtsTransaction(engine, hash, toOtsTrace, context)
  },
})
