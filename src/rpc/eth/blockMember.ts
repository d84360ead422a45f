import { bytesToHex } from '@ethereumjs/util'
import type { Engine } from '../../exec/createEngine.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import type { Hex } from '../../types/hex.js'
import { formatUncle } from './formatBlock.js'
import { formatTransaction } from './formatTransaction.js'
import { verifiedBlockAt } from './verifiedBlockAt.js'

/** The verified block's transaction at `index` in geth's shape; null when the block or the index is not there. */
export async function transactionAt(engine: Engine, selector: BlockSelector, index: number) {
  const verified = await verifiedBlockAt(engine, selector)
  const tx = verified?.block.transactions[index]
  if (!verified || !tx) return null
  const { block } = verified
  const place = {
    blockHash: bytesToHex(block.hash()) as Hex,
    blockNumber: block.header.number,
    blockTimestamp: block.header.timestamp,
    index,
    baseFee: block.header.baseFeePerGas,
  }
  return formatTransaction(tx, place)
}

/** The verified block's uncle at `index` (its hash checked through sha3Uncles); null when there is none. */
export async function uncleAt(engine: Engine, selector: BlockSelector, index: number) {
  const uncle = (await verifiedBlockAt(engine, selector))?.block.uncleHeaders[index]
  return uncle ? formatUncle(uncle) : null
}

export const byHash = (hash: Hex): BlockSelector => ({ kind: 'hash', hash, requireCanonical: false })
