import type { VerifiedHeader } from '../chain/parseHeader.js'

/**
 * The block parameter of every state read: the block's hash (EIP-1898), never its number or a tag,
 * so a reorg at the upstream cannot make it answer for another block than the verified one.
 */
export function pinBlock(block: VerifiedHeader) {
  return { blockHash: block.hash }
}
