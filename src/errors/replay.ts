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

/** The upstream placed a transaction where the verified block does not have it. */
export class TransactionLocationError extends BaseError {
  override name = 'TransactionLocationError'
  constructor(
    hash: string,
    claimed: { blockHash: string; blockNumber: bigint; index: number },
    actualIndex: number | undefined,
  ) {
    const block = `block ${claimed.blockNumber} ${claimed.blockHash}`
    super(
      actualIndex === undefined
        ? `the upstream places transaction ${hash} at index ${claimed.index} of ${block}, but that block (verified) does not contain it`
        : `the upstream places transaction ${hash} at index ${claimed.index} of ${block}, but that block (verified) has it at index ${actualIndex}`,
    )
  }
}

/** The genesis block ran no transactions: there is nothing to trace in it. */
export class GenesisNotTraceableError extends BaseError {
  override name = 'GenesisNotTraceableError'
  constructor() {
    super('genesis is not traceable')
  }
}

/** A state "before transaction i" of a block that has fewer transactions. */
export class TransactionIndexError extends BaseError {
  override name = 'TransactionIndexError'
  constructor(index: number, blockNumber: bigint, length: number) {
    super(`transaction index ${index} out of range (block ${blockNumber} has ${length} transactions)`)
  }
}
