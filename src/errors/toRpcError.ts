import type { JsonRpcErrorObject } from '../types/jsonRpc.js'
import { BaseError, BaseErrorWithData } from './base.js'
import { RpcError } from './rpc.js'
import { ProofRootMismatchError } from './state.js'
import { UpstreamRpcError, UpstreamUnavailableError } from './upstream.js'

/** The longest message a cause's reason is appended to; a longer one goes into `data.details`. */
const ONE_LINE = 160

/**
 * An error with structured data on the wire: one line — its short message, and the cause's reason
 * after it when the line stays within ONE_LINE characters — and the context as `data` fields (block,
 * address, slot, roots …), the reason as `data.details` when it did not fit. A proof rooted at
 * another root says nothing its data's expectedRoot and gotRoot do not.
 */
function oneLine(err: BaseErrorWithData, data: object): JsonRpcErrorObject {
  const rootsOnly = err.walk((e) => e instanceof ProofRootMismatchError) !== null
  const reason =
    err.details && err.details !== err.shortMessage && !rootsOnly ? err.details.replace(/\s+/g, ' ') : undefined
  if (reason === undefined) return { code: -32000, message: err.shortMessage, data }
  const message = `${err.shortMessage}: ${reason}`
  return message.length <= ONE_LINE
    ? { code: -32000, message, data }
    : { code: -32000, message: err.shortMessage, data: { ...data, details: reason } }
}

/**
 * Any thrown value → the JSON-RPC error object put on the wire. Used at every transport boundary.
 * RpcErrors keep their code and data; an upstream's own JSON-RPC error is passed on as it came;
 * every other error is -32000 with its short message (never a stack, never a credential); a
 * BaseErrorWithData (a verification failure) in one line with its context as `data` (see oneLine).
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
  if (err instanceof BaseErrorWithData && err.data !== undefined) return oneLine(err, err.data)
  if (err instanceof BaseError) {
    const parts = [err.shortMessage, ...err.metaMessages]
    if (err.details && err.details !== err.shortMessage) parts.push(err.details)
    return { code: -32000, message: parts.join('; ') }
  }
  if (err instanceof Error) return { code: -32000, message: err.message }
  return { code: -32000, message: String(err) }
}
