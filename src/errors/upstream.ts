import { redactUrlsIn } from '../utils/redactUrl.js'
import { BaseError, type BaseErrorParameters } from './base.js'

/** The upstream node answered a call with a JSON-RPC error (a URL in its message cut to scheme, host and port). */
export class UpstreamRpcError extends BaseError {
  override name = 'UpstreamRpcError'
  /** The upstream's JSON-RPC error code. */
  readonly code: number
  /** The upstream's JSON-RPC error `data` (undefined: none). */
  readonly data: unknown
  /** The method the upstream was asked. */
  readonly method: string
  constructor(
    method: string,
    error: { code: number; message: string; data?: unknown },
    args: BaseErrorParameters = {},
  ) {
    super(typeof error.message === 'string' ? redactUrlsIn(error.message) : error.message, {
      ...args,
      metaMessages: [`Upstream method: ${method}`, ...(args.metaMessages ?? [])],
    })
    this.code = error.code
    this.data = error.data
    this.method = method
  }
}

/**
 * The upstream could not be reached or kept failing (HTTP status, timeout, dropped connection). No
 * URL in it keeps more than its scheme, host and port (a runtime's error may quote the whole URL).
 */
export class UpstreamUnavailableError extends BaseError {
  override name = 'UpstreamUnavailableError'
  /** The HTTP status the upstream last answered, when it answered one (429, 503, …). */
  readonly status: number | undefined
  constructor(url: string, reason: string, args: BaseErrorParameters & { status?: number } = {}) {
    super(`upstream unreachable: ${redactUrlsIn(reason)}`, {
      ...args,
      metaMessages: [`URL: ${redactUrlsIn(url)}`, ...(args.metaMessages ?? [])],
    })
    this.status = args.status
  }
}
