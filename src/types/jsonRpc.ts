/** A JSON-RPC request's `id`, echoed in its response (null: the request's id could not be read). */
export type JsonRpcId = string | number | null

/** A JSON-RPC error object, as it goes on the wire. */
export type JsonRpcErrorObject = {
  /** The error code (-32700 … -32000, 3 execution reverted, or a method's own). */
  code: number
  /** One line saying what went wrong. */
  message: string
  /** Structured context (a revert's bytes, the block and roots a proof failed against, …). */
  data?: unknown
}

/** A JSON-RPC 2.0 response: a result or an error, with the request's id. */
export type JsonRpcResponse =
  | {
      /** Always `'2.0'`. */
      jsonrpc: '2.0'
      /** The request's id. */
      id: JsonRpcId
      /** The method's result. */
      result: unknown
    }
  | {
      /** Always `'2.0'`. */
      jsonrpc: '2.0'
      /** The request's id. */
      id: JsonRpcId
      /** Why the request failed. */
      error: JsonRpcErrorObject
    }
