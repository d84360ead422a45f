import { type TracedCall, runTrace } from '../../exec/runTrace.js'
import { withSources } from './withSources.js'
import type { CallArgs } from '../../exec/types.js'
import type { BlockOverrides } from '../../types/overrides.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { parseTraceConfig } from '../parseTraceConfig.js'
import { startTxTrace } from '../../tracing/startTxTrace.js'
import { JsonStream } from '../jsonStream.js'
import { parseBlockField } from '../parseBlockParameter.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { parseCallArgs } from '../parseCallArgs.js'
import { ParamError, optional, required } from '../params.js'
import { parseAddress, parseObject, parseQuantity, parseUint64 } from '../parsers.js'
import { tracingFailed } from './traceCall.js'
import { runWithJsState } from './runWithJsState.js'
import type { FlatTraceContext } from '../../tracing/render/toFlatTraces.js'
import { defineMethod } from '../defineMethod.js'

type Bundle = { transactions: CallArgs[]; blockOverride: BlockOverrides }

/** Erigon's bundle: `{transactions: [call…], blockOverride?: {blockNumber, coinbase, timestamp, gasLimit, baseFee}}`. */
function parseBundles(raw: unknown): Bundle[] {
  if (!Array.isArray(raw)) throw new ParamError('expected an array of bundles')
  return raw.map((b, i) => {
    const o = parseObject(b, `bundle ${i}`)
    if (o.transactions != null && !Array.isArray(o.transactions))
      throw new ParamError(`bundle ${i}: transactions must be an array`)
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
    if (!Number.isInteger(transactionIndex) || transactionIndex < -1)
      throw new ParamError('simulateContext.transactionIndex must be an integer ≥ -1')
  }
  return { block, transactionIndex }
}

/**
 * debug_traceCallMany(bundles, simulateContext, config?) as Erigon serves it: the state after the
 * first `transactionIndex` transactions of the block (−1: all of them), config.stateOverrides on
 * top, then each bundle's calls in order on the same state; a bundle's blockOverride applies to it,
 * and after each bundle the block number and time advance by one. `[[result per call] per bundle]`.
 */
export const traceCallMany = defineMethod({
  name: 'debug_traceCallMany',
  params: [required(parseBundles), required(parseSimulateContext), optional(parseTraceConfig)],
  async run(engine, [bundles, simulation, plan], context): Promise<unknown> {
    const config = withSources(engine, plan ?? parseTraceConfig({}))
    if (bundles.every((b) => b.transactions.length === 0)) throw new ServerRpcError('empty bundles')
    const header = await engine.headers.resolve(simulation.block)

    // The bundles as one list of calls: each with its bundle's block (number and time advance by one
    // after each bundle, a bundle's blockOverride on top) and its position in the bundle.
    const calls: (TracedCall & { bundle: number; position: number })[] = []
    let number = header.number
    let time = header.header.timestamp
    for (const [b, bundle] of bundles.entries()) {
      const blockOverrides: BlockOverrides = { number, time, ...bundle.blockOverride }
      for (const [t, args] of bundle.transactions.entries()) {
        const stateOverrides = calls.length === 0 ? config.stateOverrides : undefined
        calls.push({ args, stateOverrides, blockOverrides, bundle: b, position: t })
      }
      number = blockOverrides.number! + 1n
      time = blockOverrides.time! + 1n
    }
    const before = {
      count: simulation.transactionIndex === -1 ? ('all' as const) : simulation.transactionIndex,
      pastEnd: 'all' as const,
    }
    const target = {
      kind: 'calls' as const,
      block: { kind: 'hash' as const, hash: header.hash, requireCanonical: false },
      calls,
      before,
    }

    const positionOf = (at: { index: number; context: FlatTraceContext }) => {
      const call = calls[at.index]!
      return { ...at.context, blockNumber: call.blockOverrides!.number!, transactionPosition: call.position }
    }

    // A JavaScript tracer's results are kept until the run ends: one whose db missed state is run
    // again once that is loaded (runWithJsState), so nothing of a run can be written before it.
    if (config.kind === 'js') {
      let results: unknown[][] = []
      await runWithJsState(engine, config, () => {
        results = bundles.map(() => [])
        return runTrace(
          engine,
          target,
          {
            start: (at) => startTxTrace(config, positionOf(at)),
            done: (at, value) => {
              results[calls[at.index]!.bundle]!.push(value ?? null)
            },
          },
          { deadline: context.deadline },
        )
      }).catch((err: unknown) => {
        throw tracingFailed(err)
      })
      return results
    }

    // Brackets and separators are held until a call's result (or struct logs) is written: a failure
    // of the first call answers a plain error.
    return new JsonStream(async (write, hold) => {
      let opened = -1 // the bundle whose array is open
      let failed: { wrote: boolean } | undefined
      const openBundle = (b: number) => {
        for (let k = opened; k < b; k++) {
          if (k >= 0) hold(']')
          hold(k + 1 === 0 ? '[' : ',[')
        }
        opened = b
      }
      hold('[')
      try {
        await runTrace(
          engine,
          target,
          {
            start: (at) => {
              const call = calls[at.index]!
              openBundle(call.bundle)
              if (call.position > 0) hold(',')
              return startTxTrace(config, positionOf(at), config.kind === 'structLogger' ? write : undefined)
            },
            done: async (_at, value) => {
              if (config.kind !== 'structLogger') await write(JSON.stringify(value ?? null))
            },
            failed: (_at, wrote) => {
              failed = { wrote }
            },
          },
          { deadline: context.deadline },
        )
      } catch (err) {
        if (failed) hold(failed.wrote ? '' : 'null')
        hold(opened >= 0 ? ']]' : ']')
        throw tracingFailed(err)
      }
      openBundle(bundles.length - 1)
      hold(']]')
    })
  },
})
