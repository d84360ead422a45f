import { BaseError, type BaseErrorParameters } from './base.js'

/** A JSON-RPC error: its `code`, `message` and optional `data` go on the wire as they are. */
export class RpcError extends BaseError {
  override name = 'RpcError'
  /** The JSON-RPC error code (-32602 invalid params, -32000 server error, 3 execution reverted, …). */
  readonly code: number
  /** The JSON-RPC error's `data`, as it goes on the wire (undefined: none). */
  readonly data: unknown

  constructor(code: number, message: string, args: BaseErrorParameters & { data?: unknown } = {}) {
    super(message, args)
    this.code = code
    this.data = args.data
  }
}

/** -32700: the request is not valid JSON. */
export class ParseRpcError extends RpcError {
  /** The JSON-RPC code of this kind, -32700. */
  static readonly code = -32700
  override name = 'ParseRpcError'
  constructor(args: BaseErrorParameters = {}) {
    super(-32700, 'parse error', args)
  }
}

/** -32600: valid JSON, but not a JSON-RPC request (envelope, batch or size refused). */
export class InvalidRequestRpcError extends RpcError {
  /** The JSON-RPC code of this kind, -32600. */
  static readonly code = -32600
  override name = 'InvalidRequestRpcError'
  constructor(message = 'invalid request', args: BaseErrorParameters = {}) {
    super(-32600, message, args)
  }
}

/** -32601: the method does not exist or its namespace is not enabled (`api`, `--http.api`). */
export class MethodNotFoundRpcError extends RpcError {
  /** The JSON-RPC code of this kind, -32601. */
  static readonly code = -32601
  override name = 'MethodNotFoundRpcError'
  constructor(method: string, hint?: string) {
    super(-32601, `the method ${method} does not exist/is not available${hint ? ` (${hint})` : ''}`)
  }
}

/** -32602: an argument is missing or malformed; the message names it. */
export class InvalidParamsRpcError extends RpcError {
  /** The JSON-RPC code of this kind, -32602. */
  static readonly code = -32602
  override name = 'InvalidParamsRpcError'
  constructor(message: string, args: BaseErrorParameters = {}) {
    super(-32602, message, args)
  }
}

/** -32000: the default code of an error returned by a method (Erigon, geth). */
export class ServerRpcError extends RpcError {
  /** The JSON-RPC code of this kind, -32000. */
  static readonly code = -32000
  override name = 'ServerRpcError'
  constructor(message: string, args: BaseErrorParameters & { data?: unknown } = {}) {
    super(-32000, message, args)
  }
}

/**
 * -32003, geth's "response too large" (its code for a batch answer over --rpc.batch-response-max-size):
 * an answer past `--rpc.response.limit`.
 */
export class ResponseTooLargeRpcError extends RpcError {
  /** The JSON-RPC code of this kind, -32003. */
  static readonly code = -32003
  override name = 'ResponseTooLargeRpcError'
  constructor(limit: number) {
    super(-32003, `response too large: over ${limit} bytes (see --rpc.response.limit)`)
  }
}

/** Code 3: eth_call / eth_estimateGas reverted; `data` holds the revert bytes. */
export class ExecutionRevertedRpcError extends RpcError {
  /** The JSON-RPC code of this kind, 3. */
  static readonly code = 3
  override name = 'ExecutionRevertedRpcError'
  constructor(reason: string | undefined, data: string) {
    super(3, reason ? `execution reverted: ${reason}` : 'execution reverted', { data })
  }
}
