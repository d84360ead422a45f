import { bytesToHex } from '@ethereumjs/util'
import { fetchVerifiedBlock } from '../../exec/fetchVerifiedBlock.js'
import type { Hex } from '../../types/hex.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseAddress } from '../parsers.js'
import { parseGoUint } from './parseGoUint.js'
import { firstBlockWhere } from '../../exec/firstBlockWhere.js'

/**
 * ots_getTransactionBySenderAndNonce(address, nonce): the hash of the sender's transaction with that
 * nonce, without an index — the first block after which the sender's verified nonce exceeds it (binary
 * search, one proof per step), then the transaction found in that verified block. null when the
 * nonce was never used (or was consumed without a transaction of the sender's: an EIP-7702
 * authorization).
 */
export const getTransactionBySenderAndNonce = defineMethod({
  name: 'ots_getTransactionBySenderAndNonce',
  params: [required(parseAddress), required(parseGoUint(64))],
  async run(engine, [address, nonce]): Promise<Hex | null> {
    const header = await firstBlockWhere(
      engine,
      async (h) => ((await engine.source.getAccount(h, address))?.nonce ?? 0n) > nonce,
    )
    if (!header) return null
    const { block } = await fetchVerifiedBlock(engine, header)
    const sender = address.toLowerCase()
    const tx = block.transactions.find((t) => t.nonce === nonce && t.getSenderAddress().toString() === sender)
    return tx ? (bytesToHex(tx.hash()) as Hex) : null
  },
})
