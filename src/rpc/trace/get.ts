import type { Engine } from '../../exec/createEngine.js'
import type { CallContext } from '../../types/progress.js'
import { SILENT_CONTEXT } from '../progress.js'
import { ParamError, parseParams, required } from '../params.js'
import { parseHash, parseQuantity } from '../parsers.js'
import { blockFields } from './parityConfigs.js'
import { traceMinedTransaction } from './replayTraces.js'

const parseIndices = (raw: unknown) => {
  if (!Array.isArray(raw)) throw new ParamError('expected an array of hex indices')
  return raw.map((v) => Number(parseQuantity(v)))
}

/**
 * trace_get(hash, indices): the transaction's trace whose traceAddress is `indices` ([] is the top
 * call), as OpenEthereum and Besu answer; null when there is none.
 */
export async function get(engine: Engine, params: unknown, context: CallContext = SILENT_CONTEXT): Promise<unknown> {
  const [hash, indices] = parseParams(params, [required(parseHash), required(parseIndices)])
  const result = await traceMinedTransaction(engine, hash, blockFields(false), context)
  const path = JSON.stringify(indices)
  return result?.trace.find((t) => JSON.stringify((t as { traceAddress: number[] }).traceAddress) === path) ?? null
}
