import type { CallContext } from '../../types/progress.js'
import { withSources } from './withSources.js'
import type { Engine } from '../../exec/createEngine.js'
import { type TraceAt, runTrace } from '../../exec/runTrace.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import type { TracePlan } from '../../tracing/tracePlan.js'
import { startTxTrace } from '../../tracing/startTxTrace.js'
import { runWithJsState } from './runWithJsState.js'
import { JsonStream } from '../jsonStream.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { ParamError } from '../params.js'

/** geth's rpc.BlockNumber: a tag or a 0x-prefixed hex number (no decimals, no hashes). */
export function parseBlockNumberStrict(raw: unknown): BlockSelector {
  if (
    typeof raw === 'string' &&
    !raw.startsWith('0x') &&
    !['latest', 'earliest', 'pending', 'safe', 'finalized'].includes(raw)
  ) {
    throw new ParamError('hex string without 0x prefix')
  }
  const selector = parseBlockParameter(raw)
  if (selector.kind === 'hash') throw new ParamError('expected a block number, got a hash')
  return selector
}

/** geth's words for a block it cannot trace. */
function blockError(selector: BlockSelector, err: unknown): unknown {
  if (err instanceof BlockNotFoundError) {
    return new ServerRpcError(
      selector.kind === 'hash'
        ? `block ${selector.hash} not found`
        : `block #${selector.kind === 'number' ? selector.number : selector.tag} not found`,
    )
  }
  return err
}

/**
 * Every transaction of the block replayed on verified state and traced: `[{txHash, result}]`.
 * Struct logs stream out transaction by transaction while the block is replayed.
 */
export async function traceBlock(
  engine: Engine,
  selector: BlockSelector,
  plan: TracePlan,
  call: CallContext,
): Promise<unknown> {
  const target = { kind: 'block' as const, block: selector }
  const options = { deadline: call.deadline, progress: call.progress }
  plan = withSources(engine, plan)
  if (plan.kind !== 'structLogger') {
    let out: { txHash: string; result: unknown }[] = []
    const done = (at: TraceAt, result: unknown) => {
      out.push({ txHash: at.context.transactionHash!, result })
    }
    await runWithJsState(engine, plan, () => {
      out = []
      return runTrace(engine, target, { start: (at) => startTxTrace(plan, at.context), done }, options)
    }).catch((err: unknown) => {
      throw blockError(selector, err)
    })
    return out
  }
  // Each element's opening is held until its struct logs write something: a block whose first
  // transaction fails before any step answers a plain error.
  return new JsonStream(async (write, hold) => {
    let elements = 0
    let failed: { wrote: boolean } | undefined
    try {
      await runTrace(
        engine,
        target,
        {
          start: (at) => {
            hold(`${elements++ === 0 ? '[' : ','}{"txHash":"${at.context.transactionHash}","result":`)
            return startTxTrace(plan, at.context, write)
          },
          done: () => hold('}'),
          failed: (_at, wrote) => {
            failed = { wrote }
          },
        },
        options,
      )
    } catch (err) {
      if (elements > 0) hold(failed ? `${failed.wrote ? '' : 'null'}}]` : ']')
      throw blockError(selector, err)
    }
    hold(elements === 0 ? '[]' : ']')
  })
}
