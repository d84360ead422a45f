import { type TypedTransaction, createTxFromRPC } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import { UpstreamUnavailableError } from '../../errors/upstream.js'
import { withoutBlobSidecar } from '../../exec/fetchVerifiedBlock.js'
import { locateTransaction } from '../../exec/locateTransaction.js'
import type { Hex } from '../../types/hex.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { borStateSyncTransaction } from './formatBlock.js'
import { formatTransaction } from './formatTransaction.js'
import { transactionMismatch } from './transactionMismatch.js'
import { verifiedBlockAt } from './verifiedBlockAt.js'

/** A block number and time past any fork: the rules a pending transaction is decoded under. */
const FAR = BigInt(Number.MAX_SAFE_INTEGER)

type Claimed = { blockHash?: string | null; transactionIndex?: string | null } & Record<string, unknown>

/**
 * eth_getTransactionByHash(hash): a mined transaction is taken from its verified block at the index
 * the upstream claims, and must hash to `hash` there. A pending one (no block) can only be decoded
 * and re-hashed: its fields then are what hashes to `hash` and its sender is recovered from its
 * signature — that it is pending at all is the upstream's word. null when the upstream knows none.
 */
export const getTransactionByHash = defineMethod({
  name: 'eth_getTransactionByHash',
  params: [required(parseHash)],
  async run(engine, [hash]) {
    let claimed: Claimed | null
    try {
      claimed = await engine.upstream.request<Claimed | null>('eth_getTransactionByHash', [hash])
    } catch (err) {
      // Offline (a browser without its upstream): where the transaction is, if a trace or receipt
      // remembered it; the transaction itself then comes from its cached, verified block.
      if (!(err instanceof UpstreamUnavailableError)) throw err
      const at = await locateTransaction(engine, hash)
      if (!at) throw err
      claimed = { blockHash: at.blockHash, transactionIndex: `0x${at.index.toString(16)}` }
    }
    if (!claimed) return null
    if (!claimed.blockHash || claimed.transactionIndex == null) {
      // Decoded under the chain's newest rules: a pending transaction is for the next block.
      const common = engine.rules.commonFor(FAR, FAR)
      let tx: TypedTransaction
      try {
        tx = await createTxFromRPC(withoutBlobSidecar(claimed) as never, { common })
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err)
        throw transactionMismatch(
          `pending transaction ${hash}: the upstream's transaction cannot be decoded (${reason})`,
          {},
        )
      }
      const got = bytesToHex(tx.hash())
      if (got !== hash)
        throw transactionMismatch(`pending transaction ${hash}: the upstream's transaction hashes to ${got}`, {
          expectedHash: hash,
          gotHash: got,
        })
      return formatTransaction(tx, undefined)
    }
    const index = Number(BigInt(claimed.transactionIndex))
    const verified = await verifiedBlockAt(engine, {
      kind: 'hash',
      hash: claimed.blockHash.toLowerCase() as Hex,
      requireCanonical: false,
    })
    if (!verified) return null
    const { block, header } = verified
    // A Bor block's state-sync transaction, listed by the upstream after the block's own.
    if (verified.stateSync === hash && index === block.transactions.length)
      return borStateSyncTransaction(hash, header.hash, block.header, index)
    const tx = block.transactions[index]
    if (!tx || bytesToHex(tx.hash()) !== hash) {
      throw transactionMismatch(`transaction ${hash} is not at index ${index}, where the upstream says it is`, {
        block: header,
        expectedHash: hash,
        ...(tx ? { gotHash: bytesToHex(tx.hash()) } : {}),
      })
    }
    return formatTransaction(tx, {
      blockHash: header.hash,
      blockNumber: header.number,
      blockTimestamp: block.header.timestamp,
      index,
      baseFee: block.header.baseFeePerGas,
    })
  },
})
