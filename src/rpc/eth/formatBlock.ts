import type { Block, BlockHeader } from '@ethereumjs/block'
import { createBlock } from '@ethereumjs/block'
import { bytesToHex } from '@ethereumjs/util'
import type { Hex } from '../../types/hex.js'
import { goMapOrder } from '../../utils/goMapOrder.js'
import { quantity } from '../../utils/hex.js'
import { formatTransaction } from './formatTransaction.js'

const hex = (b: Uint8Array) => bytesToHex(b) as Hex

/**
 * A header in geth's RPCMarshalHeader shape: the fields of the fork it is of, nothing else (in
 * declaration order; a block puts them in Go's map order).
 */
export function formatHeader(header: BlockHeader): Record<string, unknown> {
  const out: Record<string, unknown> = {
    number: quantity(header.number),
    hash: hex(header.hash()),
    parentHash: hex(header.parentHash),
    nonce: hex(header.nonce),
    mixHash: hex(header.mixHash),
    sha3Uncles: hex(header.uncleHash),
    logsBloom: hex(header.logsBloom),
    stateRoot: hex(header.stateRoot),
    miner: header.coinbase.toString(),
    difficulty: quantity(header.difficulty),
    extraData: hex(header.extraData),
    gasLimit: quantity(header.gasLimit),
    gasUsed: quantity(header.gasUsed),
    timestamp: quantity(header.timestamp),
    transactionsRoot: hex(header.transactionsTrie),
    receiptsRoot: hex(header.receiptTrie),
  }
  if (header.baseFeePerGas !== undefined) out.baseFeePerGas = quantity(header.baseFeePerGas)
  if (header.withdrawalsRoot !== undefined) out.withdrawalsRoot = hex(header.withdrawalsRoot)
  if (header.blobGasUsed !== undefined) out.blobGasUsed = quantity(header.blobGasUsed)
  if (header.excessBlobGas !== undefined) out.excessBlobGas = quantity(header.excessBlobGas)
  if (header.parentBeaconBlockRoot !== undefined) out.parentBeaconBlockRoot = hex(header.parentBeaconBlockRoot)
  if (header.requestsHash !== undefined) out.requestsHash = hex(header.requestsHash)
  return out
}

/**
 * A block in geth's RPCMarshalBlock shape, from a verified block: the header's fields, `size` (its
 * RLP's length), the uncles' hashes, the transactions (their hashes, or whole with `fullTx`) and,
 * from Shanghai on, the withdrawals. A map in geth and the reference daemon, so its keys are sorted.
 */
export function formatBlock(block: Block, fullTx: boolean, stateSync?: Hex): Record<string, unknown> {
  const blockHash = hex(block.hash())
  const baseFee = block.header.baseFeePerGas
  const out = formatHeader(block.header)
  out.size = quantity(block.serialize().length)
  out.uncles = block.uncleHeaders.map((u) => hex(u.hash()))
  out.transactions = block.transactions.map((tx, index) =>
    fullTx
      ? formatTransaction(tx, {
          blockHash,
          blockNumber: block.header.number,
          blockTimestamp: block.header.timestamp,
          index,
          baseFee,
        })
      : hex(tx.hash()),
  )
  if (stateSync) {
    const transactions = out.transactions as unknown[]
    transactions.push(
      fullTx ? borStateSyncTransaction(stateSync, blockHash, block.header, transactions.length) : stateSync,
    )
  }
  if (block.withdrawals !== undefined) out.withdrawals = block.withdrawals.map((w) => w.toJSON())
  return goMapOrder(out)
}

/**
 * A Bor block's state-sync transaction as bor's RPC lists it after the block's own: an empty legacy
 * transaction (no sender, no recipient, no signature, no chain id) under the hash derived from the block.
 */
export function borStateSyncTransaction(hash: Hex, blockHash: Hex, header: BlockHeader, index: number) {
  return {
    blockHash,
    blockNumber: quantity(header.number),
    blockTimestamp: quantity(header.timestamp),
    from: `0x${'0'.repeat(40)}`,
    gas: '0x0',
    gasPrice: '0x0',
    hash,
    input: '0x',
    nonce: '0x0',
    to: null,
    transactionIndex: quantity(index),
    value: '0x0',
    type: '0x0',
    v: '0x0',
    r: '0x0',
    s: '0x0',
  }
}

/** An uncle as geth answers eth_getUncleBy…: a block of that header alone (no transactions, no uncles). */
export function formatUncle(uncle: BlockHeader): Record<string, unknown> {
  const out = formatHeader(uncle)
  out.size = quantity(createBlock({ header: uncle }, { common: uncle.common }).serialize().length)
  out.uncles = []
  out.transactions = []
  return goMapOrder(out)
}
