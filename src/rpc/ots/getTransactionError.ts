import { toTransactionError } from '../../tracing/render/ots/toTransactionError.js'
import type { Hex } from '../../types/hex.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { traceOtsTransaction } from './traceOtsTransaction.js'

/**
 * ots_getTransactionError(hash): the revert data of a reverted transaction, `0x` otherwise — from its
 * replay on verified state (the upstream's receipts say whether it failed, not with what).
 */
export const getTransactionError = defineMethod({
  name: 'ots_getTransactionError',
  params: [required(parseHash)],
  run(engine, [hash], context): Promise<Hex> {
    return traceOtsTransaction(engine, hash, toTransactionError, context)
  },
})
