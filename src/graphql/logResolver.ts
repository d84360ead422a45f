import type { RpcJson } from './rpcJson.js'
import { AccountResolver } from './accountResolver.js'
import type { BlockResolver } from './blockResolver.js'
import { type RpcCaller, hexQuantity, toQuantity } from './rpcCaller.js'
import { TransactionResolver } from './transactionResolver.js'

type Json = RpcJson

/** Log: one log of a verified receipt (eth_getLogs, a block's or a transaction's). */
export class LogResolver {
  constructor(
    private readonly rpc: RpcCaller,
    private readonly log: Json,
    private readonly blockOf: (hash: string) => Promise<BlockResolver | null>,
  ) {}
  index() {
    return this.log.logIndex
  }
  account({ block }: { block?: unknown }) {
    return new AccountResolver(
      this.rpc,
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
    const tx = await this.rpc<Json>('eth_getTransactionByHash', [this.log.transactionHash])
    return new TransactionResolver(this.rpc, tx, this.blockOf)
  }
}
