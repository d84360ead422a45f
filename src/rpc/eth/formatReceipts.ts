import { GAS_PER_BLOB } from '../../utils/gasPerBlob.js'
import type { Block } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import { isBlob4844Tx } from '@ethereumjs/tx'
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, generateAddress } from '@ethereumjs/util'
import type { Hex } from '../../types/hex.js'
import { goMapOrder } from '../../utils/goMapOrder.js'
import { quantity } from '../../utils/hex.js'
import { effectiveGasPrice } from './formatTransaction.js'

type DecodedReceipt = {
  /** Pre-Byzantium: the post-state root; otherwise undefined. */
  root: Uint8Array | undefined
  status: bigint
  cumulativeGasUsed: bigint
  logsBloom: Uint8Array
  logs: [Uint8Array, Uint8Array[], Uint8Array][]
}

/** An EIP-2718 receipt back into its fields (type ‖ RLP([status or root, cumulative gas, bloom, logs])). */
function decodeReceipt(encoded: Uint8Array): DecodedReceipt {
  const body = encoded[0]! < 0x7f ? encoded.subarray(1) : encoded
  const [outcome, cumulative, bloom, logs] = RLP.decode(body) as unknown as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
    [Uint8Array, Uint8Array[], Uint8Array][],
  ]
  const isRoot = outcome.length === 32
  return {
    root: isRoot ? outcome : undefined,
    status: isRoot ? 1n : bytesToBigInt(outcome),
    cumulativeGasUsed: bytesToBigInt(cumulative),
    logsBloom: bloom,
    logs,
  }
}

/**
 * A verified block's receipts in geth's shape (MarshalReceipt), from its verified receipts
 * (status, cumulative gas, bloom and logs, committed to by receiptsRoot) and its verified
 * transactions (hash, sender, recipient, type, fees): gas used is the difference of cumulative gas,
 * a creation's contract address is derived from sender and nonce, log indexes count over the block.
 * A receipt is a map in geth and the reference daemon, so its keys are sorted.
 */
export function formatReceipts(block: Block, encoded: readonly Uint8Array[]): Record<string, unknown>[] {
  const blockHash = bytesToHex(block.hash()) as Hex
  const blockNumber = quantity(block.header.number)
  const blockTimestamp = quantity(block.header.timestamp)
  const baseFee = block.header.baseFeePerGas
  let previousGas = 0n
  let logIndex = 0
  return block.transactions.map((tx, i) => {
    const receipt = decodeReceipt(encoded[i]!)
    const transactionHash = bytesToHex(tx.hash()) as Hex
    const transactionIndex = quantity(i)
    const from = tx.getSenderAddress()
    const out: Record<string, unknown> = {
      blockHash,
      blockNumber,
      transactionHash,
      transactionIndex,
      from: from.toString(),
      to: tx.to?.toString() ?? null,
      gasUsed: quantity(receipt.cumulativeGasUsed - previousGas),
      cumulativeGasUsed: quantity(receipt.cumulativeGasUsed),
      contractAddress:
        tx.to === undefined ? bytesToHex(generateAddress(from.bytes, bigIntToUnpaddedBytes(tx.nonce))) : null,
      logs: receipt.logs.map(([address, topics, data]) => ({
        address: bytesToHex(address),
        topics: topics.map((t) => bytesToHex(t)),
        data: bytesToHex(data),
        blockNumber,
        transactionHash,
        transactionIndex,
        blockHash,
        blockTimestamp,
        logIndex: quantity(logIndex++),
        removed: false,
      })),
      logsBloom: bytesToHex(receipt.logsBloom),
      type: quantity(tx.type),
      effectiveGasPrice: quantity(effectiveGasPrice(tx, baseFee)),
    }
    if (receipt.root !== undefined) out.root = bytesToHex(receipt.root)
    else out.status = quantity(receipt.status)
    if (isBlob4844Tx(tx)) {
      out.blobGasUsed = quantity(GAS_PER_BLOB * BigInt(tx.blobVersionedHashes.length))
      out.blobGasPrice = quantity(block.header.getBlobGasPrice())
    }
    previousGas = receipt.cumulativeGasUsed
    return goMapOrder(out)
  })
}
