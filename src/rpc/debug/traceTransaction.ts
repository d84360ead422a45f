import { TransactionNotFoundError } from '../../errors/replay.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { parseTraceConfig } from '../parseTraceConfig.js'
import { parseHash } from '../parsers.js'
import { optional, required } from '../params.js'
import { traceOne } from './traceRuns.js'
import { defineMethod } from '../defineMethod.js'

/** geth's words for a transaction it does not know. */
const notFound = (err: unknown) =>
  err instanceof TransactionNotFoundError ? new ServerRpcError('transaction not found') : err

/**
 * debug_traceTransaction(hash, config?): the mined transaction replayed on verified state (its
 * block's earlier transactions first, each checked against its receipt) and traced.
 */
export const traceTransaction = defineMethod({
  name: 'debug_traceTransaction',
  params: [required(parseHash), optional(parseTraceConfig)],
  async run(engine, [hash, plan], context): Promise<unknown> {
    return traceOne(
      engine,
      plan ?? parseTraceConfig({}),
      { kind: 'transaction', hash },
      { deadline: context.deadline },
      notFound,
    )
  },
})
