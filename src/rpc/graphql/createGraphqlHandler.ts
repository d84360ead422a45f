import type { RpcJson } from './rpcJson.js'
import { type GraphQLError, buildSchema, getOperationAST, graphql, parse } from 'graphql'
import type { RpcHandler } from '../createRpcHandler.js'
import { AccountResolver } from './accountResolver.js'
import { BlockResolver, callResult } from './blockResolver.js'
import { callArgs } from './callArgs.js'
import type { GraphqlContext } from './graphqlContext.js'
import { LogResolver } from './logResolver.js'
import { GraphqlFieldError, createRpcCaller, hexQuantity, toQuantity } from './rpcCaller.js'
import { SCHEMA_TEXT } from './schemaText.js'
import { TransactionResolver } from './transactionResolver.js'

type Json = RpcJson

/** The most blocks one `blocks(from, to)` may cover. */
const MAX_BLOCKS = 10_000

export type GraphqlRequest = { query?: unknown; variables?: unknown; operationName?: unknown }
/**
 * `readOnly`: the request came by GET, which may only run queries (GraphQL over HTTP): a mutation
 * is answered 405 with an `allow: POST` header and not run (a GET can be made by any web page).
 */
export type GraphqlHandler = (
  request: GraphqlRequest,
  options?: { readOnly?: boolean },
) => Promise<{ status: number; body: string; headers?: Record<string, string> }>

/** Whether the operation a request would run is a mutation (false when the text does not parse: graphql says why). */
function isMutation(query: string, operationName: unknown): boolean {
  try {
    const operation = getOperationAST(parse(query), typeof operationName === 'string' ? operationName : undefined)
    return operation?.operation === 'mutation'
  } catch {
    return false
  }
}

function formatError(error: GraphQLError): Record<string, unknown> {
  const out: Record<string, unknown> = { ...error.toJSON() }
  const original = error.originalError
  if (original instanceof GraphqlFieldError) out.extensions = { ...original.extensions }
  return out
}

/**
 * GraphQL (EIP-1767, the execution-apis schema) over the same JSON-RPC core the transports use:
 * every field is resolved by the verified eth_* / debug_* method that answers it (blocks and their
 * transactions against their roots, receipts and logs against receiptsRoot, accounts and storage by
 * proofs, `call` and `estimateGas` by local execution). Sibling fields resolve together, so their
 * upstream reads go out as one batch per level of the query. Answers 400 with the errors when
 * there are any, as geth does.
 */
export function createGraphqlHandler(rpcHandler: RpcHandler): GraphqlHandler {
  const schema = buildSchema(SCHEMA_TEXT)
  return async ({ query, variables, operationName }, { readOnly = false } = {}) => {
    if (typeof query !== 'string' || query.trim() === '')
      return { status: 400, body: JSON.stringify({ errors: [{ message: 'a GraphQL query is required (query)' }] }) }
    if (readOnly && isMutation(query, operationName))
      return {
        status: 405,
        headers: { allow: 'POST' },
        body: JSON.stringify({ errors: [{ message: 'mutations are not allowed over GET: send them with POST' }] }),
      }
    const rpc = createRpcCaller(rpcHandler)
    const blocks = new Map<string, Promise<BlockResolver | null>>()
    const blockOf = (hash: string): Promise<BlockResolver | null> => {
      let block = blocks.get(hash)
      if (!block) {
        block = rpc<Json | null>('eth_getBlockByHash', [hash, true]).then(adopt)
        blocks.set(hash, block)
      }
      return block
    }
    const ctx: GraphqlContext = {
      rpc,
      block: blockOf,
      transaction: (json) => new TransactionResolver(ctx, json),
      log: (json) => new LogResolver(ctx, json),
    }
    const adopt = (json: Json | null) => (json ? new BlockResolver(ctx, json) : null)
    const byNumber = (tag: string) => rpc<Json | null>('eth_getBlockByNumber', [tag, true]).then(adopt)
    const root = {
      async block({ number, hash }: { number?: unknown; hash?: string }) {
        if (number != null && hash != null)
          throw new GraphqlFieldError(-32602, 'only one of number or hash may be given')
        // A block that is not there is an error, as geth's resolver (its header lookup) makes it.
        if (hash != null) {
          const block = await blockOf(hash.toLowerCase())
          if (!block) throw new GraphqlFieldError(-32000, `header for hash not found: ${hash}`)
          return block
        }
        const tag = number != null ? hexQuantity(toQuantity(number, 'number')) : 'latest'
        const block = await byNumber(tag)
        if (!block) throw new GraphqlFieldError(-32000, `header not found: block ${BigInt(tag)}`)
        return block
      },
      async blocks({ from, to }: { from?: unknown; to?: unknown }) {
        const latest = BigInt(await rpc<string>('eth_blockNumber', []))
        const start = from != null ? toQuantity(from, 'from') : latest
        let end = to != null ? toQuantity(to, 'to') : latest
        if (end < start) throw new GraphqlFieldError(-32602, `to (${end}) is before from (${start})`)
        if (end > latest) end = latest
        if (end - start + 1n > BigInt(MAX_BLOCKS))
          throw new GraphqlFieldError(-32602, `blocks covers at most ${MAX_BLOCKS} blocks`)
        const out: Promise<BlockResolver | null>[] = []
        for (let n = start; n <= end; n++) out.push(byNumber(hexQuantity(n)))
        return (await Promise.all(out)).filter((b): b is BlockResolver => b !== null)
      },
      pending() {
        return {
          async transactionCount() {
            return hexQuantity((await pendingTransactions()).length)
          },
          async transactions() {
            return (await pendingTransactions()).map((tx) => new TransactionResolver(ctx, tx))
          },
          account: ({ address }: { address: string }) => new AccountResolver(rpc, address, 'pending'),
          call: ({ data }: { data: Record<string, unknown> }) => callResult(rpc, data, 'pending'),
          estimateGas: ({ data }: { data: Record<string, unknown> }) =>
            rpc('eth_estimateGas', [callArgs(data), 'pending']),
        }
      },
      async transaction({ hash }: { hash: string }) {
        const tx = await rpc<Json | null>('eth_getTransactionByHash', [hash])
        return tx ? new TransactionResolver(ctx, tx) : null
      },
      async logs({ filter }: { filter: Json }) {
        const logs = await rpc<Json[]>('eth_getLogs', [
          {
            ...(filter.fromBlock != null ? { fromBlock: hexQuantity(toQuantity(filter.fromBlock, 'fromBlock')) } : {}),
            ...(filter.toBlock != null ? { toBlock: hexQuantity(toQuantity(filter.toBlock, 'toBlock')) } : {}),
            address: filter.addresses ?? [],
            topics: filter.topics ?? [],
          },
        ])
        return logs.map((log) => new LogResolver(ctx, log))
      },
      gasPrice: () => rpc('eth_gasPrice', []),
      maxPriorityFeePerGas: () => rpc('eth_maxPriorityFeePerGas', []),
      async syncing() {
        const status = await rpc<Json | false>('eth_syncing', [])
        return status === false
          ? null
          : {
              startingBlock: status.startingBlock,
              currentBlock: status.currentBlock,
              highestBlock: status.highestBlock,
            }
      },
      chainID: () => rpc('eth_chainId', []),
      sendRawTransaction: ({ data }: { data: string }) => rpc('eth_sendRawTransaction', [data]),
    }
    async function pendingTransactions(): Promise<Json[]> {
      const content = await rpc<{ pending: Record<string, Record<string, Json>> }>('txpool_content', [])
      return Object.values(content.pending).flatMap((byNonce) => Object.values(byNonce))
    }
    const result = await graphql({
      schema,
      source: query,
      rootValue: root,
      ...(variables && typeof variables === 'object' ? { variableValues: variables as Record<string, unknown> } : {}),
      ...(typeof operationName === 'string' ? { operationName } : {}),
    })
    const body: Record<string, unknown> = {}
    if (result.errors?.length) body.errors = result.errors.map(formatError)
    if ('data' in result) body.data = result.data ?? null
    return { status: result.errors?.length ? 400 : 200, body: JSON.stringify(body) }
  }
}
