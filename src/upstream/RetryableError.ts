import { BaseError } from '../errors/base.js'

/** A failure worth sending again (the request may not have been served). */
export class RetryableError extends BaseError {
  override name = 'RetryableError'
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    readonly status?: number,
  ) {
    super(message)
  }
}
