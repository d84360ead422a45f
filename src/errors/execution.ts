import { formatDuration } from '../utils/formatDuration.js'
import { BaseError, type BaseErrorParameters } from './base.js'

/** A request ran past `--rpc.evmtimeout` (its execution, or what it waited for). geth's wording. */
export class ExecutionTimeoutError extends BaseError {
  override name = 'ExecutionTimeoutError'
  constructor(readonly timeoutMs: number) {
    super(`execution aborted (timeout = ${formatDuration(timeoutMs)})`)
  }
}

/** A traced transaction ran past its trace config's `timeout`: geth stops the tracer with this. */
export class TracerTimeoutError extends BaseError {
  override name = 'TracerTimeoutError'
  constructor() {
    super('execution timeout')
  }
}

/**
 * The message could not run: geth's checks before execution (intrinsic gas, floor data gas, fee cap,
 * funds) or an error that stopped the EVM itself. A traced call words it "tracing failed: …".
 */
export class MessageRejectedError extends BaseError {
  override name = 'MessageRejectedError'
  constructor(message: string, args: BaseErrorParameters = {}) {
    super(message, args)
  }
}

/** A trace config names a tracer the registry does not have. */
export class UnknownTracerError extends BaseError {
  override name = 'UnknownTracerError'
}

/**
 * A range worker gave a call back to the daemon that asked: it is to be run there instead (its answer
 * was too large to come back over the fleet's work queue). Never sent to a client: the caller runs
 * the call itself.
 */
export class WorkerDeclinedError extends BaseError {
  override name = 'WorkerDeclinedError'
}
