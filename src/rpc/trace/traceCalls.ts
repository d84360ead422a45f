import { createTxFromRLP } from '@ethereumjs/tx'
import { hexToBytes } from '@ethereumjs/util'
import type { Engine } from '../../exec/createEngine.js'
import { callArgsOfTransaction } from '../../exec/callArgs.js'
import { type TraceAt, runTrace } from '../../exec/runTrace.js'
import type { CallArgs } from '../../exec/types.js'
import type { CallContext } from '../../types/progress.js'
import { SILENT_CONTEXT } from '../progress.js'
import type { ParityTracerConfig, TraceResult, TraceType } from '../../tracing/tracers/parityTracer.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { parseCallArgs } from '../parseCallArgs.js'
import { ParamError } from '../params.js'
import { parseData } from '../parsers.js'
import { parseTraceTypes } from './parseTraceTypes.js'
import { startParityTrace } from './traceSession.js'
import type { ParityTraceConfig } from './parseTraceTypes.js'

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }

/** trace_callMany's first argument: `[[call, traceTypes], …]`. */
export function parseCallList(raw: unknown): { args: CallArgs; types: ReadonlySet<TraceType> }[] {
  if (!Array.isArray(raw)) throw new ParamError('expected array of [callparam, tracetypes]')
  return raw.map((entry, i) => {
    if (!Array.isArray(entry) || entry.length !== 2)
      throw new ParamError(`entry ${i}: expected [callparam, tracetypes]`)
    try {
      return { args: parseCallArgs(entry[0]), types: parseTraceTypes(entry[1]) }
    } catch (err) {
      throw new ParamError(`entry ${i}: ${(err as Error).message}`)
    }
  })
}

/** A signed raw transaction as the call it makes (sender recovered from its signature). */
export function parseRawTransactionCall(raw: unknown): CallArgs {
  const bytes = hexToBytes(parseData(raw))
  let tx
  try {
    tx = createTxFromRLP(bytes)
  } catch (err) {
    throw new ParamError(`not a valid signed transaction: ${(err as Error).message}`)
  }
  if (!tx.isSigned()) throw new ParamError('the transaction is not signed')
  return callArgsOfTransaction(tx)
}

/**
 * Calls traced one after the other on the verified state at the end of `selector`'s block, with
 * that block's header: call n sees what calls 0…n−1 left (trace_callMany; trace_call and
 * trace_rawTransaction are the one-call case). Fees are charged and the sender's nonce advances as
 * in a transaction; the nonce itself is not checked.
 */
export async function traceCalls(
  engine: Engine,
  calls: { args: CallArgs; types: ReadonlySet<TraceType> }[],
  selector: BlockSelector = LATEST,
  config: ParityTraceConfig = { includePrecompiles: false },
  context: CallContext = SILENT_CONTEXT,
  /** trace_callMany: each call's vmTrace idx is prefixed with its index in the list. */
  indexed = false,
): Promise<TraceResult[]> {
  const { includePrecompiles, stateOverrides, blockOverrides } = config
  if (calls.length === 0) return []
  const out: TraceResult[] = []
  const start = (at: TraceAt) => {
    const shape: ParityTracerConfig = {
      types: calls[at.index]!.types,
      includePrecompiles,
      creationMethod: false,
      withBlockFields: false,
      revertData: 'output',
    }
    // The reference daemon's vmTrace idx: each call of a list is prefixed with its index, a lone call not.
    const idx = indexed ? `${at.index}-` : ''
    return startParityTrace(engine, shape, { blockNumber: at.header.number, transactionPosition: 0 }, idx)
  }
  const done = (_at: TraceAt, result: unknown) => {
    out.push(result as TraceResult)
  }
  // The state overrides apply once, before the first call; the block overrides to every call's block.
  const target = {
    kind: 'calls' as const,
    block: selector,
    calls: calls.map(({ args }, i) => ({ args, stateOverrides: i === 0 ? stateOverrides : undefined, blockOverrides })),
  }
  await runTrace(engine, target, { start, done }, { deadline: context.deadline })
  return out
}
