import { ServerRpcError } from '../../errors/rpc.js'
import type { Hex } from '../../types/hex.js'

/**
 * One block of a stretch whose signer a range worker recovered (edgetrace_borSigners): its number,
 * the hash of the verified header the worker recovered it from, and the signer — null where the
 * seal does not recover (the owner then recovers it itself, and meets the error in its own words).
 */
export type BorSignerBlock = { number: Hex; hash: Hex; signer: Hex | null }

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/
const HASH = /^0x[0-9a-f]{64}$/
const ADDRESS = /^0x[0-9a-f]{40}$/

/**
 * Takes a worker's signers of a snapshot walk's stretch into `into` (block hash → signer), for
 * applyBorHeaders: `headers` are the owner's own verified headers the walk applies (oldest first,
 * consecutive), which it linked itself. Each block the worker answers must be one of them, by number
 * and by hash — else an error naming the block, and nothing of that answer is taken — so a signer is
 * only ever used for the header whose hash the worker gave. A block without a signer is left out: the
 * owner recovers it.
 */
export function mergeWorkerSigners(
  headers: readonly { number: bigint; hash: Hex }[],
  blocks: readonly BorSignerBlock[],
  into: Map<Hex, Hex>,
): void {
  const first = headers[0]?.number ?? 0n
  const taken: [Hex, Hex][] = []
  for (const block of blocks) {
    if (
      typeof block?.number !== 'string' ||
      !QUANTITY.test(block.number) ||
      typeof block.hash !== 'string' ||
      !HASH.test(block.hash) ||
      (block.signer !== null && (typeof block.signer !== 'string' || !ADDRESS.test(block.signer)))
    )
      throw new ServerRpcError(`a worker's signers of a Bor snapshot walk are malformed: ${JSON.stringify(block)}`)
    const number = BigInt(block.number)
    const header = number >= first ? headers[Number(number - first)] : undefined
    if (!header)
      throw new ServerRpcError(
        `block ${number}: a worker recovered its signer for a Bor snapshot walk that applies blocks ${first} to ${first + BigInt(headers.length) - 1n} only`,
      )
    if (header.hash !== block.hash)
      throw new ServerRpcError(
        `block ${number} is ${header.hash} but the worker that recovered its signer for a Bor snapshot walk had ${block.hash}: ` +
          "the worker's answer is refused",
      )
    if (block.signer !== null) taken.push([header.hash, block.signer])
  }
  for (const [hash, signer] of taken) into.set(hash, signer)
}
