import type { Engine } from '../../exec/createEngine.js'
import { executeCall } from '../../exec/executeCall.js'
import { loadBlock } from '../../exec/loadBlock.js'
import { prepareCall } from '../../exec/prepareCall.js'
import { replayBlock } from '../../exec/replayBlock.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { parseTraceConfig } from '../parseTraceConfig.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { parseCallArgs } from '../parseCallArgs.js'
import { optional, parseParams, required } from '../params.js'
import { traceOne } from './traceRuns.js'

/** geth words errors that stop a traced message before it runs as "tracing failed: …". */
export function tracingFailed(err: unknown): unknown {
  if (
    err instanceof ServerRpcError && err.code === -32000 && err.shortMessage !== 'execution timeout' &&
    !err.shortMessage.startsWith('execution aborted')
  ) {
    return new ServerRpcError(`tracing failed: ${err.shortMessage}`)
  }
  return err
}

/**
 * debug_traceCall(call, block = latest, config?): the call traced on the verified state at the end
 * of the block (or before transaction `config.txIndex` of it), with the block's header; geth's
 * stateOverrides and blockOverrides applied; gas defaults to the gas cap; no base fee for a call
 * without fee fields.
 */
export async function traceCall(engine: Engine, params: unknown): Promise<unknown> {
  const [args, selector, plan] = parseParams(params, [required(parseCallArgs), optional(parseBlockParameter), optional(parseTraceConfig)])
  const config = plan ?? parseTraceConfig({})
  const block = await prepareCall(engine, args, selector ?? { kind: 'tag', tag: 'latest' })
  const context = { blockHash: block.hash, blockNumber: block.number, transactionPosition: 0 }
  return traceOne(config, context, async (session) => {
    let baseState
    if (config.txIndex !== undefined) {
      const loaded = await loadBlock(engine, block.hash, block.number)
      if (config.txIndex > loaded.block.transactions.length) {
        throw new ServerRpcError(`transaction index ${config.txIndex} out of range (block ${block.number} has ${loaded.block.transactions.length})`)
      }
      baseState = (await replayBlock(engine, loaded, { count: config.txIndex })).state
    }
    try {
      const out = await executeCall(engine, {
        args,
        block,
        baseState,
        stateOverrides: config.stateOverrides,
        blockOverrides: config.blockOverrides,
        trace: session,
      })
      return { result: out.run, state: out.state }
    } catch (err) {
      throw tracingFailed(err)
    }
  })
}
