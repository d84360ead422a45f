import type { CallTraceArena } from '../../recorder/types.js'
import type { Hex } from '../../../types/hex.js'
import { bytes, quantity } from '../../../utils/hex.js'

/** One entry of ots_traceTransaction, in the reference daemon's struct order (TraceEntry). */
export type OtsTraceEntry = {
  type: string
  depth: number
  from: Hex
  to: Hex
  /** null where no value moves (STATICCALL, DELEGATECALL): the reference's nil *hexutil.Big. */
  value: Hex | null
  input: Hex
  output: Hex
}

const ZERO_ADDRESS = `0x${'0'.repeat(40)}` as Hex

/**
 * ots_traceTransaction's list from the call-trace arena: every frame in depth-first order (the
 * arena's own order, frames being added as they are entered) with its kind, depth, addresses, value,
 * input and output. As the reference daemon (otterscan_trace_transaction.go): precompile frames are
 * left out; a SELFDESTRUCT's depth is the previous listed entry's depth + 1 and its input and output
 * are empty; a frame that failed without reverting has the empty output the EVM gave it.
 */
export function toOtsTrace(arena: CallTraceArena): OtsTraceEntry[] {
  const out: OtsTraceEntry[] = []
  for (const node of arena.nodes) {
    if (node.precompile) continue
    const moves = node.kind !== 'STATICCALL' && node.kind !== 'DELEGATECALL'
    const selfdestruct = node.kind === 'SELFDESTRUCT'
    out.push({
      type: node.kind,
      depth: selfdestruct ? (out[out.length - 1]?.depth ?? 0) + 1 : node.depth,
      from: node.from,
      to: (node.to ?? node.created ?? ZERO_ADDRESS).toLowerCase() as Hex,
      value: moves ? quantity(node.value ?? 0n) : null,
      input: selfdestruct ? '0x' : bytes(node.input),
      output: selfdestruct ? '0x' : bytes(node.output),
    })
  }
  return out
}
