import { bytesToHex } from '@ethereumjs/util'
import { HeaderVerificationError } from '../errors/state.js'
import type { VerifiedHeader } from './parseHeader.js'

/**
 * Checks that `headers` (oldest first) are one chain: each the parent of the next by number and by
 * the hash the child names. The first break, from the newest down, is a HeaderVerificationError
 * naming the block and both hashes.
 */
export function checkParentLinks(headers: readonly VerifiedHeader[]): void {
  for (let i = headers.length - 2; i >= 0; i--) {
    const child = headers[i + 1]!
    const parent = headers[i]!
    const parentHash = bytesToHex(child.header.parentHash)
    if (parent.number !== child.number - 1n || parent.hash !== parentHash)
      throw new HeaderVerificationError(
        `block ${child.number - 1n}: the upstream's block ${parent.number} is not the parent of block ${child.number}`,
        {
          facts: {
            block: { number: child.number - 1n, hash: parentHash },
            expectedHash: parentHash,
            gotHash: parent.hash,
          },
        },
      )
  }
}
