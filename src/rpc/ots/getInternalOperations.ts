import { type OtsInternalOperation, toInternalOperations } from '../../tracing/render/ots/toInternalOperations.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { traceOtsTransaction } from './traceOtsTransaction.js'

/**
 * ots_getInternalOperations(hash): the transaction's inner ether transfers, creations and
 * self-destructs, from its replay on verified state.
 */
export const getInternalOperations = defineMethod({
  name: 'ots_getInternalOperations',
  params: [required(parseHash)],
  run(engine, [hash], context): Promise<OtsInternalOperation[]> {
    return traceOtsTransaction(engine, hash, toInternalOperations, context)
  },
})
