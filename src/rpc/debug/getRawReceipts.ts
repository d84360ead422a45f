import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, equalsBytes } from '@ethereumjs/util'
import { ServerRpcError } from '../../errors/rpc.js'
import { HeaderVerificationError } from '../../errors/state.js'
import { required } from '../params.js'
import { cacheKeys } from '../../utils/cacheKeys.js'
import { parseBlockNumberOrHashStrict, rawBlockHeader, where } from './rawBlockHeader.js'
import { type ReceiptJson, encodeReceipt } from './encodeReceipt.js'
import { defineMethod } from '../defineMethod.js'

/**
 * debug_getRawReceipts(block): the block's receipts, EIP-2718-encoded, from the upstream's receipts
 * encoded here and checked against the verified header's receiptsRoot.
 */
export const getRawReceipts = defineMethod({
  name: 'debug_getRawReceipts',
  params: [required(parseBlockNumberOrHashStrict)],
  async run(engine, [selector]): Promise<string[]> {
    const verified = await rawBlockHeader(engine, selector, 'block')
    // Verified receipts are kept by block hash (also in the persistent cache, where there is one).
    const key = cacheKeys.rawReceipts(verified.hash)
    if (engine.cache.restore) await engine.cache.restore([key])
    const kept = engine.cache.get<Uint8Array[]>(key)
    if (kept) return kept.map((b) => bytesToHex(b))
    let receipts = await engine.upstream
      .request<ReceiptJson[] | null>('eth_getBlockReceipts', [verified.hash])
      .catch(() => null)
    if (!receipts) {
      const json = await engine.upstream.request<{ transactions: string[] } | null>('eth_getBlockByHash', [
        verified.hash,
        false,
      ])
      if (!json) throw new ServerRpcError(`block #${where(selector)} not found`)
      receipts = await Promise.all(
        json.transactions.map((h) => engine.upstream.request<ReceiptJson>('eth_getTransactionReceipt', [h])),
      )
    }
    const encoded = receipts.map(encodeReceipt)
    const trie = new MerklePatriciaTrie()
    for (const [i, bytes] of encoded.entries()) await trie.put(RLP.encode(i), bytes)
    if (!equalsBytes(trie.root(), verified.header.receiptTrie)) {
      throw new HeaderVerificationError(
        `block ${verified.number} ${verified.hash}: the upstream's receipts hash to ${bytesToHex(trie.root())}, not to the header's receiptsRoot ${bytesToHex(verified.header.receiptTrie)}`,
        {
          facts: {
            block: verified,
            expectedRoot: bytesToHex(verified.header.receiptTrie),
            gotRoot: bytesToHex(trie.root()),
          },
        },
      )
    }
    engine.cache.set(
      key,
      encoded,
      encoded.reduce((n, b) => n + b.length + 32, 64),
    )
    return encoded.map((b) => bytesToHex(b))
  },
})
