import type { Engine } from '../../exec/createEngine.js'
import { executeCall } from '../../exec/executeCall.js'
import { loadBlock } from '../../exec/loadBlock.js'
import { replayBlock } from '../../exec/replayBlock.js'
import type { CallArgs } from '../../exec/types.js'
import type { BlockOverrides } from '../../types/overrides.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { parseTraceConfig } from '../parseTraceConfig.js'
import { type TxTraceSession, startTxTrace } from '../../tracing/startTxTrace.js'
import { JsonStream } from '../jsonStream.js'
import { parseBlockField } from '../parseBlockParameter.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { parseCallArgs } from '../parseCallArgs.js'
import { ParamError, optional, parseParams, required } from '../params.js'
import { parseAddress, parseObject, parseQuantity, parseUint64 } from '../parsers.js'
import { tracingFailed } from './traceCall.js'

type Bundle = { transactions: CallArgs[]; blockOverride: BlockOverrides }

/** Erigon's bundle: `{transactions: [call…], blockOverride?: {blockNumber, coinbase, timestamp, gasLimit, baseFee}}`. */
function parseBundles(raw: unknown): Bundle[] {
  if (!Array.isArray(raw)) throw new ParamError('expected an array of bundles')
  return raw.map((b, i) => {
    const o = parseObject(b, `bundle ${i}`)
    if (o.transactions != null && !Array.isArray(o.transactions)) throw new ParamError(`bundle ${i}: transactions must be an array`)
    const transactions = ((o.transactions as unknown[] | undefined) ?? []).map((t, j) => {
      try {
        const args = parseCallArgs(t)
        return args.gas === 0n ? { ...args, gas: undefined } : args
      } catch (err) {
        throw new ParamError(`bundle ${i} transaction ${j}: ${(err as Error).message}`)
      }
    })
    const blockOverride: BlockOverrides = {}
    if (o.blockOverride != null) {
      const bo = parseObject(o.blockOverride, `bundle ${i} blockOverride`)
      if (bo.blockNumber != null) blockOverride.number = parseQuantity(bo.blockNumber)
      if (bo.timestamp != null) blockOverride.time = parseUint64(bo.timestamp)
      if (bo.gasLimit != null) blockOverride.gasLimit = parseUint64(bo.gasLimit)
      if (bo.coinbase != null) blockOverride.feeRecipient = parseAddress(bo.coinbase)
      if (bo.baseFee != null) blockOverride.baseFeePerGas = parseQuantity(bo.baseFee)
    }
    return { transactions, blockOverride }
  })
}

type SimulateContext = { block: BlockSelector; transactionIndex: number }

function parseSimulateContext(raw: unknown): SimulateContext {
  const o = parseObject(raw, 'a simulation context')
  if (o.blockNumber == null) throw new ParamError('simulateContext.blockNumber is required')
  const block = parseBlockField('blockNumber', o.blockNumber)
  let transactionIndex = -1
  if (o.transactionIndex != null) {
    const t = o.transactionIndex
    transactionIndex = typeof t === 'number' ? t : typeof t === 'string' ? Number(parseQuantity(t)) : NaN
    if (!Number.isInteger(transactionIndex) || transactionIndex < -1) throw new ParamError('simulateContext.transactionIndex must be an integer ≥ -1')
  }
  return { block, transactionIndex }
}

/**
 * debug_traceCallMany(bundles, simulateContext, config?) as Erigon serves it: the state after the
 * first `transactionIndex` transactions of the block (−1: all of them), config.stateOverrides on
 * top, then each bundle's calls in order on the same state; a bundle's blockOverride applies to it,
 * and after each bundle the block number and time advance by one. `[[result per call] per bundle]`.
 */
export async function traceCallMany(engine: Engine, params: unknown): Promise<unknown> {
  const [bundles, simulation, plan] = parseParams(params, [required(parseBundles), required(parseSimulateContext), optional(parseTraceConfig)])
  const config = plan ?? parseTraceConfig({})
  if (bundles.every((b) => b.transactions.length === 0)) throw new ServerRpcError('empty bundles')
  const header = await engine.headers.resolve(simulation.block)
  const loaded = await loadBlock(engine, header.hash, header.number)
  const count = simulation.transactionIndex === -1 ? loaded.block.transactions.length : Math.min(simulation.transactionIndex, loaded.block.transactions.length)
  const { state } = await replayBlock(engine, loaded, { count })

  // Brackets and separators are held until a call's result (or struct logs) is written: a failure
  // of the first call answers a plain error.
  return new JsonStream(async (write, hold) => {
    let session: TxTraceSession | undefined
    let overridesApplied = false
    let number = header.number
    let time = header.header.timestamp
    let open = 0
    try {
      hold('[')
      open = 1
      for (const [b, bundle] of bundles.entries()) {
        hold(b === 0 ? '[' : ',[')
        open = 2
        const overrides: BlockOverrides = { number, time, ...bundle.blockOverride }
        number = overrides.number!
        time = overrides.time!
        for (const [t, args] of bundle.transactions.entries()) {
          if (t > 0) hold(',')
          const context = { blockHash: header.hash, blockNumber: number, transactionPosition: t }
          session = startTxTrace(config, context, config.kind === 'structLogger' ? write : undefined)
          let out
          try {
            out = await executeCall(engine, {
              args,
              block: header,
              baseState: state,
              stateOverrides: overridesApplied ? undefined : config.stateOverrides,
              blockOverrides: overrides,
              trace: session,
            })
          } catch (err) {
            throw tracingFailed(err)
          }
          overridesApplied = true
          const value = await session.finish(out.run, out.state)
          if (config.kind === 'native') await write(JSON.stringify(value ?? null))
          session = undefined
        }
        hold(']')
        open = 1
        number += 1n
        time += 1n
      }
      hold(']')
      open = 0
    } catch (err) {
      if (open > 0) {
        if (session) hold((await session.abort()) ? '' : 'null')
        hold(open === 2 ? ']]' : ']')
      }
      throw err
    }
  })
}
