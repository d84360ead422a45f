import { BaseError, type BaseErrorParameters } from './base.js'

export type StateLocation = {
  /** Block number (when known) and hash the state was read at. */
  block: { number?: bigint | undefined; hash: string }
  address?: string | undefined
  slot?: string | undefined
}

function where({ block, address, slot }: StateLocation): string[] {
  const lines = [`block ${block.number !== undefined ? `${block.number} ` : ''}${block.hash}`]
  if (address) lines.push(`address ${address}`)
  if (slot) lines.push(`slot ${slot}`)
  return lines
}

/** An account or storage proof from the upstream does not verify against the block. Never a result. */
export class ProofVerificationError extends BaseError {
  override name = 'ProofVerificationError'
  constructor(what: string, location: StateLocation, args: BaseErrorParameters = {}) {
    super(`state does not verify: ${what}`, { ...args, metaMessages: where(location) })
  }
}

/** An enumerated range from the upstream (storage or accounts) disagrees with verified state. Never a result. */
export class RangeVerificationError extends BaseError {
  override name = 'RangeVerificationError'
  constructor(message: string, args: BaseErrorParameters = {}) {
    super(`state does not verify: ${message}`, args)
  }
}

/** Code returned by the upstream does not hash to the account's codeHash. */
export class CodeHashMismatchError extends BaseError {
  override name = 'CodeHashMismatchError'
  constructor(location: StateLocation, expected: string, actual: string) {
    super('state does not verify: code does not match the account codeHash', {
      metaMessages: [...where(location), `codeHash ${expected}`, `keccak256(code) ${actual}`],
    })
  }
}

/** A header from the upstream does not hash to the block hash it claims (or was asked for). */
export class HeaderVerificationError extends BaseError {
  override name = 'HeaderVerificationError'
  constructor(what: string, args: BaseErrorParameters = {}) {
    super(`header does not verify: ${what}`, args)
  }
}

/** The block asked for does not exist at the upstream. */
export class BlockNotFoundError extends BaseError {
  override name = 'BlockNotFoundError'
  constructor(block: string) {
    super(`block ${block} not found`)
  }
}

/**
 * A block asked by number or tag does not link by parent hashes to the trusted checkpoint
 * (`--checkpoint`), or the checkpoint itself cannot be had. Never a result.
 */
export class CheckpointError extends BaseError {
  override name = 'CheckpointError'
}
