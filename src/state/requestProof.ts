import type { VerifiedHeader } from '../chain/parseHeader.js'
import { BaseError } from '../errors/base.js'
import { UpstreamRpcError } from '../errors/upstream.js'
import type { Upstream } from '../upstream/types.js'
import { pinBlock } from './pinBlock.js'
import type { Hex } from '../types/hex.js'

/** How upstreams without the method word it when they do not answer -32601. */
const NOT_SERVED = /not (exist|available|supported)/i

/**
 * Asks the upstream for the proof of an account and of some of its slots at the block. An upstream
 * that does not serve eth_getProof gets an error that says what to do about it.
 */
export function requestProof(
  upstream: Upstream,
  block: VerifiedHeader,
  address: Hex,
  slots: readonly Hex[],
): Promise<unknown> {
  return upstream.request('eth_getProof', [address, slots, pinBlock(block)]).catch((err: unknown) => {
    if (err instanceof UpstreamRpcError && (err.code === -32601 || NOT_SERVED.test(err.shortMessage))) {
      throw new BaseError(
        'the upstream does not serve eth_getProof, so state cannot be verified: start edgetrace with --unverified to read state without proofs',
        { cause: err },
      )
    }
    throw err
  })
}
