import { bytesToHex } from '@ethereumjs/util'
import { MAX_CHECKPOINT_LENGTH, borRootHash } from '../../chain/bor/borRootHash.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { parseJsonInteger } from '../debug/accountAt.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { borHeaderAt } from './borHeaderAt.js'

const UINT64 = 2n ** 64n

/**
 * sidechain_getRootHash(start, end): the checkpoint root hash of blocks start…end (bare JSON numbers,
 * as Go's uint64 arguments), hex without 0x, from verified headers. The reference's checks in its
 * order, with uint64 arithmetic (start > end + 1 wraps to a length past the limit).
 */
export const getRootHash = defineMethod({
  name: 'sidechain_getRootHash',
  params: [required(parseJsonInteger), required(parseJsonInteger)],
  async run(engine, [startNumber, endNumber]) {
    const start = BigInt(startNumber)
    const end = BigInt(endNumber)
    const length = (((end - start + 1n) % UINT64) + UINT64) % UINT64
    if (length > BigInt(MAX_CHECKPOINT_LENGTH)) {
      throw new ServerRpcError(
        `Start: ${start} and end block: ${end} exceed max allowed checkpoint length: ${MAX_CHECKPOINT_LENGTH}`,
      )
    }
    const head = await borHeaderAt(engine, { kind: 'tag', tag: 'latest' })
    if (start > end || end > head.number) {
      throw new ServerRpcError(`Invalid parameters start: ${start} and end block: ${end} params`)
    }
    const headers = await Promise.all(
      Array.from({ length: Number(length) }, (_, i) =>
        borHeaderAt(engine, { kind: 'number', number: start + BigInt(i) }),
      ),
    )
    return bytesToHex(
      borRootHash(
        headers.map(({ header }) => ({
          number: header.number,
          timestamp: header.timestamp,
          transactionsTrie: header.transactionsTrie,
          receiptTrie: header.receiptTrie,
        })),
      ),
    ).slice(2)
  },
})
