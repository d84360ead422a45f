export type JsonRpcId = string | number | null

export type JsonRpcErrorObject = { code: number; message: string; data?: unknown }

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcErrorObject }
