import { type BlockHeader, createBlockHeaderFromRPC } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { bytesToHex } from '@ethereumjs/util'
import { HeaderVerificationError } from '../errors/state.js'
import type { ChainRules } from './createChainRules.js'
import type { Hex } from '../types/hex.js'

/** A header whose hash we computed ourselves: keccak256(RLP(header)). */
export type VerifiedHeader = {
  readonly hash: Hex
  readonly number: bigint
  readonly header: BlockHeader
  readonly common: Common
}

/**
 * Builds a header from an upstream's JSON block and checks that it hashes to the hash the upstream
 * claims — and to `expectedHash` when the block was asked for by hash. Fails closed.
 */
export function parseHeader(json: Record<string, unknown>, rules: ChainRules, expectedHash?: string): VerifiedHeader {
  const number = BigInt(json.number as string)
  const claimed = typeof json.hash === 'string' ? json.hash.toLowerCase() : undefined
  const timestamp = BigInt(json.timestamp as string)
  const common = rules.commonFor(number, timestamp)
  let header: BlockHeader
  try {
    header = createBlockHeaderFromRPC(json as never, { common, skipConsensusFormatValidation: true })
  } catch (err) {
    throw new HeaderVerificationError(`block ${number} cannot be decoded under ${common.hardfork()} rules`, {
      cause: err,
      facts: { block: { number, hash: claimed ?? expectedHash?.toLowerCase() ?? 'unknown' } },
    })
  }
  const hash = bytesToHex(header.hash())
  if (claimed !== undefined && claimed !== hash) {
    throw new HeaderVerificationError(`block ${number}: keccak256(RLP(header)) is not the hash the upstream says`, {
      facts: { block: { number, hash: claimed }, expectedHash: claimed, gotHash: hash },
    })
  }
  if (expectedHash !== undefined && expectedHash.toLowerCase() !== hash) {
    throw new HeaderVerificationError(
      `asked for block ${expectedHash}, got a header that hashes to another (block ${number})`,
      {
        facts: { block: { hash: expectedHash.toLowerCase() }, expectedHash: expectedHash.toLowerCase(), gotHash: hash },
      },
    )
  }
  return { hash, number, header, common }
}
