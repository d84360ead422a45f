import { BaseError, type BaseErrorParameters } from './base.js'

/**
 * A transaction the pool refuses, in geth's words (core/txpool/errors.go, core/error.go): "nonce
 * too low: …", "insufficient funds for gas * price + value: …", "replacement transaction
 * underpriced", "already known" … — JSON-RPC -32000 with the message alone.
 */
export class TxPoolError extends BaseError {
  override name = 'TxPoolError'
  constructor(message: string, args: BaseErrorParameters = {}) {
    super(message, args)
  }
}
