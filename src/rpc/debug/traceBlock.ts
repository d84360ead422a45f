import { SILENT_CONTEXT } from '../progress.js'
import type { CallContext } from '../../types/progress.js'
import type { Engine } from '../../exec/createEngine.js'
import { type LoadedBlock, loadBlock } from '../../exec/loadBlock.js'
import { replayBlock } from '../../exec/replayBlock.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import { parseTraceConfig } from '../parseTraceConfig.js'
import type { TracePlan } from '../../tracing/tracePlan.js'
import { type TxTraceSession, startTxTrace } from '../../tracing/startTxTrace.js'
import { JsonStream } from '../jsonStream.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { parseHash } from '../parsers.js'
import { ParamError, optional, parseParams, required } from '../params.js'

/** geth's rpc.BlockNumber: a tag or a 0x-prefixed hex number (no decimals, no hashes). */
function parseBlockNumberStrict(raw: unknown): BlockSelector {
  if (typeof raw === 'string' && !raw.startsWith('0x') && !['latest', 'earliest', 'pending', 'safe', 'finalized'].includes(raw)) {
    throw new ParamError('hex string without 0x prefix')
  }
  const selector = parseBlockParameter(raw)
  if (selector.kind === 'hash') throw new ParamError('expected a block number, got a hash')
  return selector
}

/** debug_traceBlockByNumber(number | tag, config?) */
export async function traceBlockByNumber(engine: Engine, params: unknown, context: CallContext = SILENT_CONTEXT): Promise<unknown> {
  const [selector, plan] = parseParams(params, [required(parseBlockNumberStrict), optional(parseTraceConfig)])
  return traceBlock(engine, selector, plan ?? parseTraceConfig({}), context)
}

/** debug_traceBlockByHash(hash, config?) */
export async function traceBlockByHash(engine: Engine, params: unknown, context: CallContext = SILENT_CONTEXT): Promise<unknown> {
  const [hash, plan] = parseParams(params, [required(parseHash), optional(parseTraceConfig)])
  return traceBlock(engine, { kind: 'hash', hash, requireCanonical: false }, plan ?? parseTraceConfig({}), context)
}

async function load(engine: Engine, selector: BlockSelector): Promise<LoadedBlock> {
  try {
    const header = await engine.headers.resolve(selector)
    if (header.number === 0n) throw new ServerRpcError('genesis is not traceable')
    return await loadBlock(engine, header.hash, header.number)
  } catch (err) {
    if (err instanceof BlockNotFoundError) {
      throw new ServerRpcError(selector.kind === 'hash' ? `block ${selector.hash} not found` : `block #${selector.kind === 'number' ? selector.number : selector.tag} not found`)
    }
    throw err
  }
}

/**
 * Every transaction of the block replayed on verified state and traced: `[{txHash, result}]`.
 * Struct logs stream out transaction by transaction while the block is replayed.
 */
async function traceBlock(engine: Engine, selector: BlockSelector, plan: TracePlan, call: CallContext): Promise<unknown> {
  const loaded = await load(engine, selector)
  const txHash = (i: number) => loaded.receipts[i]!.transactionHash
  const context = (i: number) => ({
    blockHash: loaded.header.hash,
    blockNumber: loaded.header.number,
    transactionHash: txHash(i),
    transactionPosition: i,
  })
  if (plan.kind === 'native') {
    const out: { txHash: string; result: unknown }[] = []
    let session: TxTraceSession | undefined
    await replayBlock(engine, loaded, {
      tracer: {
        begin: (i) => (session = startTxTrace(plan, context(i))),
        end: async (i, result, state) => {
          out.push({ txHash: txHash(i), result: await session!.finish(result, state) })
        },
      },
      progress: call.progress,
    })
    return out
  }
  // Each element's opening is held until its struct logs write something: a block whose first
  // transaction fails before any step answers a plain error.
  return new JsonStream(async (write, hold) => {
    let elements = 0
    let session: TxTraceSession | undefined
    try {
      await replayBlock(engine, loaded, {
        tracer: {
          begin: (i) => {
            hold(`${elements++ === 0 ? '[' : ','}{"txHash":"${txHash(i)}","result":`)
            session = startTxTrace(plan, context(i), write)
            return session
          },
          end: async (_i, result, state) => {
            await session!.finish(result, state)
            session = undefined
            hold('}')
          },
        },
        progress: call.progress,
      })
    } catch (err) {
      if (elements > 0) {
        const wrote = session ? await session.abort() : true
        hold(session ? `${wrote ? '' : 'null'}}]` : ']')
      }
      throw err
    }
    hold(elements === 0 ? '[]' : ']')
  })
}
