import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import type { Hex } from '../../types/hex.js'
import type { CallContext } from '../../types/progress.js'
import type { RangeWorkers } from '../../types/rangeWorkers.js'
import { streamRange } from '../streamRange.js'
import { type BorSignerBlock, mergeWorkerSigners } from './mergeWorkerSigners.js'

/**
 * The signers of a snapshot walk's headers (the owner's verified headers, oldest first, consecutive)
 * recovered on the range workers in stretches (edgetrace_borSigners, each stretch pinned to the hash
 * of its last header: the worker links the stretch down from that hash), each taken into `signers`
 * in block order as it comes back (mergeWorkerSigners: only for the header whose hash the worker
 * gave). Yields the last block of each stretch taken; stopping early aborts the stretches in
 * flight, as do the request's deadline and its client's going away. A stretch that failed part-way
 * yields what it recovered, then its error (the walk's, as with every range).
 */
export async function* borSignersOnWorkers(
  engine: Engine,
  workers: RangeWorkers,
  headers: readonly VerifiedHeader[],
  signers: Map<Hex, Hex>,
  context?: CallContext,
): AsyncGenerator<bigint> {
  if (headers.length === 0) return
  const from = headers[0]!.number
  const stretches = streamRange({
    workers,
    engine,
    from,
    to: headers.at(-1)!.number,
    request: (first, last) => ({
      method: 'edgetrace_borSigners',
      params: [first, last, headers[Number(BigInt(last) - from)]!.hash],
    }),
    deadline: context?.deadline,
    signal: context?.signal,
  })
  for await (const { result, last } of stretches) {
    mergeWorkerSigners(headers, (result.value() as BorSignerBlock[] | null) ?? [], signers)
    yield last
  }
}
