import type { CallKind } from '../../hooks.js'
import type { CallTraceArena } from '../../recorder/types.js'
import type { Hex } from '../../../types/hex.js'
import { quantity } from '../../../utils/hex.js'

/** The reference daemon's OperationType: what an internal operation did. */
export const OTS_OPERATION = { transfer: 0, selfdestruct: 1, create: 2, create2: 3 } as const

/** One entry of ots_getInternalOperations, in the reference's struct order (InternalOperation). */
export type OtsInternalOperation = { type: number; from: Hex; to: Hex; value: Hex }

/** The frame kinds that are an operation whatever their value. */
const BY_KIND: Partial<Record<CallKind, number>> = {
  CREATE: OTS_OPERATION.create,
  CREATE2: OTS_OPERATION.create2,
  SELFDESTRUCT: OTS_OPERATION.selfdestruct,
}

const ZERO_ADDRESS = `0x${'0'.repeat(40)}` as Hex

/**
 * ots_getInternalOperations' list from the call-trace arena: the inner frames (never the top one)
 * that move ether or make or end a contract — a CALL with a non-zero value, CREATE, CREATE2 and
 * SELFDESTRUCT — in the order they were entered, as the reference's operations tracer
 * (otterscan_trace_operations.go) records them on entry: frames that later fail or revert included,
 * calls to precompiles too, CALLCODE and DELEGATECALL never.
 */
export function toInternalOperations(arena: CallTraceArena): OtsInternalOperation[] {
  const out: OtsInternalOperation[] = []
  for (const node of arena.nodes) {
    if (node.parent === undefined) continue
    const value = node.value ?? 0n
    const type = node.kind === 'CALL' ? (value !== 0n ? OTS_OPERATION.transfer : undefined) : BY_KIND[node.kind]
    if (type === undefined) continue
    const to = (node.to ?? node.created ?? ZERO_ADDRESS).toLowerCase() as Hex
    out.push({ type, from: node.from, to, value: quantity(value) })
  }
  return out
}
