import { BaseError, type BaseErrorParameters } from './base.js'

/** A replayed block does not match what the upstream says happened in it. Never a silent wrong trace. */
export class ReplayMismatchError extends BaseError {
  override name = 'ReplayMismatchError'
  constructor(what: string, args: BaseErrorParameters = {}) {
    super(`replay does not match the chain: ${what}`, args)
  }
}

/** The transaction asked for is not known to the upstream (or not mined yet). */
export class TransactionNotFoundError extends BaseError {
  override name = 'TransactionNotFoundError'
  constructor(hash: string) {
    super(`transaction ${hash} not found`)
  }
}
