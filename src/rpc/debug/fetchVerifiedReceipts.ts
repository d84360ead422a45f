import { bytesToHex, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { receiptsRoot } from '../../chain/receiptsRoot.js'
import type { Engine } from '../../exec/createEngine.js'
import { BlockNotFoundError, HeaderVerificationError } from '../../errors/state.js'
import { cacheKeys } from '../../utils/cacheKeys.js'
import { type ReceiptJson, encodeReceipt } from './encodeReceipt.js'
import { splitBorStateSync } from '../../chain/bor/borStateSync.js'

/**
 * A block's receipts, EIP-2718-encoded, from the upstream's receipts encoded here and checked
 * against the verified header's receiptsRoot: eth_getBlockReceipts, or one eth_getTransactionReceipt
 * per transaction where the upstream has no eth_getBlockReceipts. Kept by block hash once verified
 * (`cacheKeys.rawReceipts`, persisted where there is a persistent cache): a block's receipts never change.
 * Receipts a shared tier gives back were checked there against the block's header, as here.
 */
export async function fetchVerifiedReceipts(engine: Engine, verified: VerifiedHeader): Promise<Uint8Array[]> {
  const key = cacheKeys.rawReceipts(verified.hash)
  if (engine.cache.restore) await engine.cache.restore([key])
  const kept = engine.cache.get<Uint8Array[]>(key)
  if (kept) return kept
  let receipts = await engine.upstream
    .request<ReceiptJson[] | null>('eth_getBlockReceipts', [verified.hash])
    .catch(() => null)
  if (!receipts) {
    const json = await engine.upstream.request<{ transactions: string[] } | null>('eth_getBlockByHash', [
      verified.hash,
      false,
    ])
    if (!json) throw new BlockNotFoundError(verified.hash)
    receipts = await Promise.all(
      json.transactions.map((h) => engine.upstream.request<ReceiptJson>('eth_getTransactionReceipt', [h])),
    )
  }
  // A Bor upstream lists the state-sync receipt last: outside the receipts root, left out.
  if (engine.rules.bor)
    receipts = splitBorStateSync(
      receipts,
      (r) => (r as { transactionHash?: string } | null)?.transactionHash,
      verified.number,
      verified.hash,
    ).items
  const encoded = receipts.map(encodeReceipt)
  const root = await receiptsRoot(encoded)
  if (!equalsBytes(root, verified.header.receiptTrie)) {
    throw new HeaderVerificationError(
      `block ${verified.number}: the upstream's receipts hash to another root than the header's receiptsRoot`,
      {
        facts: {
          block: verified,
          expectedRoot: bytesToHex(verified.header.receiptTrie),
          gotRoot: bytesToHex(root),
        },
      },
    )
  }
  engine.cache.set(
    key,
    encoded,
    encoded.reduce((n, b) => n + b.length + 32, 64),
  )
  return encoded
}
