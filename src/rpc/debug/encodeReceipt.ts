import { RLP } from '@ethereumjs/rlp'
import { bigIntToBytes, hexToBytes } from '@ethereumjs/util'
import type { Hex } from '../../types/hex.js'

/** One receipt, EIP-2718-encoded: type ‖ RLP([status or post-state root, cumulative gas, bloom, logs]). */
export function encodeReceipt(r: Record<string, any>): Uint8Array {
  const logs = (r.logs as Record<string, any>[]).map((l) => [hexToBytes(l.address), (l.topics as string[]).map((t) => hexToBytes(t as Hex)), hexToBytes(l.data)])
  const outcome = r.root !== undefined && r.root !== null ? hexToBytes(r.root) : BigInt(r.status) === 0n ? new Uint8Array(0) : Uint8Array.of(1)
  const body = RLP.encode([outcome, bigIntToBytes(BigInt(r.cumulativeGasUsed)), hexToBytes(r.logsBloom), logs])
  const type = Number(r.type ?? 0)
  return type === 0 ? body : Uint8Array.of(type, ...body)
}
