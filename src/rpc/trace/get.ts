import { ParamError, required } from '../params.js'
import { parseHash, parseQuantity } from '../parsers.js'
import { blockFields } from './parityConfigs.js'
import { traceMinedTransaction } from './replayTraces.js'
import { defineMethod } from '../defineMethod.js'

const parseIndices = (raw: unknown) => {
  if (!Array.isArray(raw)) throw new ParamError('expected an array of hex indices')
  return raw.map((v) => Number(parseQuantity(v)))
}

/**
 * trace_get(hash, indices): the transaction's trace whose traceAddress is `indices` ([] is the top
 * call), as OpenEthereum and Besu answer; null when there is none.
 */
export const get = defineMethod({
  name: 'trace_get',
  params: [required(parseHash), required(parseIndices)],
  async run(engine, [hash, indices], context): Promise<unknown> {
    const result = await traceMinedTransaction(engine, hash, blockFields(false), context)
    const path = JSON.stringify(indices)
    return result?.trace.find((t) => JSON.stringify((t as { traceAddress: number[] }).traceAddress) === path) ?? null
  },
})
