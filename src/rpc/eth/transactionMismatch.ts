import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { quantity } from '../../utils/hex.js'

/**
 * A transaction the upstream placed or described that the verified data does not back: -32000
 * `transaction does not verify: …`, its `data` in the shape of every verification failure (block,
 * expected and computed hash, as far as known). Never a result.
 */
export function transactionMismatch(
  what: string,
  facts: { block?: VerifiedHeader | undefined; expectedHash?: string; gotHash?: string },
): ServerRpcError {
  const { block, ...hashes } = facts
  const where = block ? `block ${block.number} ${block.hash}: ` : ''
  return new ServerRpcError(`transaction does not verify: ${where}${what}`, {
    data: { ...(block ? { block: { number: quantity(block.number), hash: block.hash } } : {}), ...hashes },
  })
}
