import { RLP } from '@ethereumjs/rlp'
import { bigIntToBytes, hexToBytes } from '@ethereumjs/util'
import type { Hex } from '../../types/hex.js'

/** A receipt as JSON-RPC gives it: what its encoding needs (pre-Byzantium ones have `root`, not `status`). */
export type ReceiptJson = {
  type?: Hex | undefined
  status?: Hex | undefined
  root?: Hex | null | undefined
  cumulativeGasUsed: Hex
  logsBloom: Hex
  logs: { address: Hex; topics: Hex[]; data: Hex }[]
}

/** One receipt, EIP-2718-encoded: type ‖ RLP([status or post-state root, cumulative gas, bloom, logs]). */
export function encodeReceipt(r: ReceiptJson): Uint8Array {
  const logs = r.logs.map((l) => [hexToBytes(l.address), l.topics.map((t) => hexToBytes(t)), hexToBytes(l.data)])
  const outcome =
    r.root !== undefined && r.root !== null
      ? hexToBytes(r.root)
      : BigInt(r.status!) === 0n
        ? new Uint8Array(0)
        : Uint8Array.of(1)
  const body = RLP.encode([outcome, bigIntToBytes(BigInt(r.cumulativeGasUsed)), hexToBytes(r.logsBloom), logs])
  const type = Number(r.type ?? 0)
  return type === 0 ? body : Uint8Array.of(type, ...body)
}
