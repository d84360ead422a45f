import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Hex } from '../../types/hex.js'
import type { Engine } from '../createEngine.js'
import type { PoolEnvironment } from './createTxPool.js'

/**
 * The head's verdicts for the pool: the next block's base fee and blob base fee (from the verified
 * header), its gas limit, and every sender's nonce and balance proven at the head — asked for in
 * one round trip for all senders not cached yet.
 */
export async function poolEnvironment(
  engine: Engine,
  head: VerifiedHeader,
  senders: readonly Hex[],
): Promise<PoolEnvironment> {
  const header = head.header
  const next = engine.rules.commonFor(head.number + 1n, header.timestamp + 1n)
  const baseFee = next.isActivatedEIP(1559) ? (header.baseFeePerGas === undefined ? 0n : header.calcNextBaseFee()) : 0n
  let blobBaseFee = 0n
  if (next.isActivatedEIP(4844)) {
    try {
      blobBaseFee = header.excessBlobGas === undefined ? 1n : header.calcNextBlobGasPrice(next)
    } catch {
      blobBaseFee = 1n
    }
  }
  await engine.source.prefetch(
    head,
    senders.map((address) => ({ address, storageKeys: [] })),
  )
  const accounts = new Map<Hex, { nonce: bigint; balance: bigint }>()
  await Promise.all(
    senders.map(async (sender) => {
      const account = await engine.source.getAccount(head, sender)
      accounts.set(sender, { nonce: account?.nonce ?? 0n, balance: account?.balance ?? 0n })
    }),
  )
  return { baseFee, blobBaseFee, gasLimit: header.gasLimit, accounts }
}
