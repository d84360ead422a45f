import type { JsonRpcErrorObject } from '../types/jsonRpc.js'
import { BaseError, BaseErrorWithData } from './base.js'
import { RpcError } from './rpc.js'
import { UpstreamRpcError, UpstreamUnavailableError } from './upstream.js'

/**
 * Any thrown value → the JSON-RPC error object put on the wire. Used at every transport boundary.
 * RpcErrors keep their code and data; an upstream's own JSON-RPC error is passed on as it came;
 * every other error is -32000 with its short message (never a stack, never a credential), and the
 * structured `data` of a BaseErrorWithData (a verification failure's block, address, roots …).
 */
export function toRpcError(err: unknown): JsonRpcErrorObject {
  if (err instanceof RpcError) {
    return err.data === undefined
      ? { code: err.code, message: err.shortMessage }
      : { code: err.code, message: err.shortMessage, data: err.data }
  }
  if (err instanceof UpstreamRpcError) {
    return err.data === undefined
      ? { code: err.code, message: err.shortMessage }
      : { code: err.code, message: err.shortMessage, data: err.data }
  }
  if (err instanceof UpstreamUnavailableError) return { code: -32000, message: err.shortMessage }
  if (err instanceof BaseError) {
    const parts = [err.shortMessage, ...err.metaMessages]
    if (err.details && err.details !== err.shortMessage) parts.push(err.details)
    const message = parts.join('; ')
    return err instanceof BaseErrorWithData && err.data !== undefined
      ? { code: -32000, message, data: err.data }
      : { code: -32000, message }
  }
  if (err instanceof Error) return { code: -32000, message: err.message }
  return { code: -32000, message: String(err) }
}
