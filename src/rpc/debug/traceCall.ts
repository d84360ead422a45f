import type { Engine } from '../../exec/createEngine.js'
import { executeCall } from '../../exec/executeCall.js'
import { createExecutionDeadline } from '../../exec/withTimeout.js'
import { loadBlock } from '../../exec/loadBlock.js'
import { prepareCall } from '../../exec/prepareCall.js'
import { replayBlock } from '../../exec/replayBlock.js'
import { MessageRejectedError } from '../../errors/execution.js'
import { ServerRpcError } from '../../errors/rpc.js'
import type { CallContext } from '../../types/progress.js'
import { parseTraceConfig } from '../parseTraceConfig.js'
import { SILENT_CONTEXT } from '../progress.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { parseCallArgs } from '../parseCallArgs.js'
import { optional, parseParams, required } from '../params.js'
import { traceOne } from './traceRuns.js'

/** geth words errors that stop a traced message before it runs as "tracing failed: …". */
export function tracingFailed(err: unknown): unknown {
  return err instanceof MessageRejectedError ? new MessageRejectedError(`tracing failed: ${err.shortMessage}`) : err
}

/**
 * debug_traceCall(call, block = latest, config?): the call traced on the verified state at the end
 * of the block (or before transaction `config.txIndex` of it), with the block's header; geth's
 * stateOverrides and blockOverrides applied; gas defaults to the gas cap; no base fee for a call
 * without fee fields.
 */
export async function traceCall(engine: Engine, params: unknown, context: CallContext = SILENT_CONTEXT): Promise<unknown> {
  const [args, selector, plan] = parseParams(params, [required(parseCallArgs), optional(parseBlockParameter), optional(parseTraceConfig)])
  const config = plan ?? parseTraceConfig({})
  const block = await prepareCall(engine, args, selector ?? { kind: 'tag', tag: 'latest' })
  const position = { blockHash: block.hash, blockNumber: block.number, transactionPosition: 0 }
  return traceOne(config, position, async (session) => {
    let baseState
    // With txIndex, the replay and the call share the request's one --rpc.evmtimeout: the call gets
    // what the replay left, and its state (read through the replay's overlay) stops at that deadline.
    const own = config.txIndex !== undefined && !context.deadline ? createExecutionDeadline(engine.options.evmTimeoutMs) : undefined
    const deadline = config.txIndex !== undefined ? (context.deadline ?? own) : undefined
    try {
      if (config.txIndex !== undefined) {
        const loaded = await loadBlock(engine, block.hash, block.number)
        if (config.txIndex > loaded.block.transactions.length) {
          throw new ServerRpcError(`transaction index ${config.txIndex} out of range (block ${block.number} has ${loaded.block.transactions.length})`)
        }
        baseState = (await replayBlock(engine, loaded, { count: config.txIndex, deadline })).state
      }
      try {
        const out = await executeCall(engine, {
          args,
          block,
          baseState,
          stateOverrides: config.stateOverrides,
          blockOverrides: config.blockOverrides,
          trace: session,
          deadline,
        })
        return { result: out.run, state: out.state }
      } catch (err) {
        throw tracingFailed(err)
      }
    } finally {
      own?.dispose()
    }
  })
}
