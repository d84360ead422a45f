import type { Engine } from '../../exec/createEngine.js'
import { TransactionNotFoundError } from '../../errors/replay.js'
import { ServerRpcError } from '../../errors/rpc.js'
import type { CallContext } from '../../types/progress.js'
import { parseTraceConfig } from '../parseTraceConfig.js'
import { parseHash } from '../parsers.js'
import { optional, parseParams, required } from '../params.js'
import { SILENT_CONTEXT } from '../progress.js'
import { traceOne } from './traceRuns.js'

/** geth's words for a transaction it does not know. */
const notFound = (err: unknown) => (err instanceof TransactionNotFoundError ? new ServerRpcError('transaction not found') : err)

/**
 * debug_traceTransaction(hash, config?): the mined transaction replayed on verified state (its
 * block's earlier transactions first, each checked against its receipt) and traced.
 */
export async function traceTransaction(engine: Engine, params: unknown, context: CallContext = SILENT_CONTEXT): Promise<unknown> {
  const [hash, plan] = parseParams(params, [required(parseHash), optional(parseTraceConfig)])
  return traceOne(engine, plan ?? parseTraceConfig({}), { kind: 'transaction', hash }, { deadline: context.deadline }, notFound)
}
