import type { RpcHandler } from '../createRpcHandler.js'
import { JsonStream } from '../jsonStream.js'

/** A JSON-RPC error met while resolving a field: its message, and its code in the GraphQL error's extensions. */
export class GraphqlFieldError extends Error {
  override name = 'GraphqlFieldError'
  readonly extensions: { errorCode: number; errorMessage: string }
  constructor(code: number, message: string) {
    super(message)
    this.extensions = { errorCode: code, errorMessage: message }
  }
}

/** Calls one JSON-RPC method on the same core the transports use; its result, or its error thrown. */
export type RpcCaller = <T = unknown>(method: string, params: unknown[]) => Promise<T>

export function createRpcCaller(handler: RpcHandler): RpcCaller {
  let id = 0
  return async (method, params) => {
    const res = (await handler.handleMessage({ jsonrpc: '2.0', id: ++id, method, params })) as
      | { result: unknown }
      | { error: { code: number; message: string } }
    if ('error' in res) throw new GraphqlFieldError(res.error.code, res.error.message)
    // A result written as JSON text (txpool_content's Go key order): read back.
    if (res.result instanceof JsonStream) {
      let text = ''
      await res.result.produce(
        (chunk) => {
          text += chunk
        },
        (held) => {
          text += held
        },
      )
      return JSON.parse(text) as never
    }
    return res.result as never
  }
}

/** Long and BigInt arguments: a JSON number, or a decimal or 0x-hexadecimal string. */
export function toQuantity(value: unknown, what: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(value)) return BigInt(value)
  throw new GraphqlFieldError(-32602, `invalid ${what}: ${JSON.stringify(value)}`)
}

export const hexQuantity = (n: bigint | number): string => `0x${n.toString(16)}`
