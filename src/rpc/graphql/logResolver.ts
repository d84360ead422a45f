import type { RpcJson } from './rpcJson.js'
import { AccountResolver } from './accountResolver.js'
import type { GraphqlContext } from './graphqlContext.js'
import { hexQuantity, toQuantity } from './rpcCaller.js'

type Json = RpcJson

/** Log: one log of a verified receipt (eth_getLogs, a block's or a transaction's). */
export class LogResolver {
  constructor(
    private readonly ctx: GraphqlContext,
    private readonly log: Json,
  ) {}
  index() {
    return this.log.logIndex
  }
  account({ block }: { block?: unknown }) {
    return new AccountResolver(
      this.ctx.rpc,
      this.log.address,
      block != null ? hexQuantity(toQuantity(block, 'block')) : this.log.blockNumber,
    )
  }
  topics() {
    return this.log.topics
  }
  data() {
    return this.log.data
  }
  async transaction() {
    const tx = await this.ctx.rpc<Json>('eth_getTransactionByHash', [this.log.transactionHash])
    return this.ctx.transaction(tx)
  }
}
