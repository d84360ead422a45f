import type { JsonRpcErrorObject, JsonRpcResponse } from '../types/jsonRpc.js'

/** An error envelope answering `message`, with its id when it carries a valid one (null otherwise). */
export function errorResponseFor(message: unknown, error: JsonRpcErrorObject): JsonRpcResponse {
  const id = (message as { id?: unknown } | null | undefined)?.id
  return { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error }
}
