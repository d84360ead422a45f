/** A failure worth sending again (the request may not have been served). */
export class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    readonly status?: number,
  ) {
    super(message)
  }
}
