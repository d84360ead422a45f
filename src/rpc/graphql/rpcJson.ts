/** An object of a JSON-RPC answer (a block, a transaction, a receipt, a log), read field by field as the eth_* methods define them. */
// biome-ignore lint/suspicious/noExplicitAny: the shapes are the JSON-RPC methods' own, read field by field
export type RpcJson = Record<string, any>
