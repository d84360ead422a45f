import type { RpcCaller } from './rpcCaller.js'
import type { RpcJson } from './rpcJson.js'

/**
 * What every resolver of one GraphQL request shares: the JSON-RPC caller, the request's blocks by
 * hash (each fetched once), and the constructors of the other resolvers (so no resolver file
 * imports another's: createGraphqlHandler wires them).
 */
export type GraphqlContext = {
  rpc: RpcCaller
  /** A block by hash, its resolver (null when the upstream has none). */
  block(hash: string): Promise<{ baseFeePerGas(): string | null } | null>
  transaction(json: RpcJson): unknown
  log(json: RpcJson): unknown
}
