import type { RpcJson } from './rpcJson.js'
import { AccountResolver } from './accountResolver.js'
import type { GraphqlContext } from './graphqlContext.js'
import { hexQuantity, toQuantity } from './rpcCaller.js'

type Json = RpcJson

/**
 * Transaction: the fields of eth_getTransactionByHash's answer (verified against its block's
 * transactionsRoot when mined), the receipt's (verified against receiptsRoot) fetched once when a
 * receipt field is asked for.
 */
export class TransactionResolver {
  private receipt?: Promise<Json | null>
  private readonly rpc: GraphqlContext['rpc']
  constructor(
    private readonly ctx: GraphqlContext,
    private readonly tx: Json,
  ) {
    this.rpc = ctx.rpc
  }
  private receiptOf() {
    if (this.tx.blockHash == null) return Promise.resolve(null)
    this.receipt ??= this.rpc<Json | null>('eth_getTransactionReceipt', [this.tx.hash])
    return this.receipt
  }
  private at(block: unknown) {
    return block != null ? hexQuantity(toQuantity(block, 'block')) : (this.tx.blockNumber ?? 'latest')
  }
  hash() {
    return this.tx.hash
  }
  nonce() {
    return this.tx.nonce
  }
  index() {
    return this.tx.transactionIndex ?? null
  }
  from({ block }: { block?: unknown }) {
    return new AccountResolver(this.rpc, this.tx.from, this.at(block))
  }
  to({ block }: { block?: unknown }) {
    return this.tx.to ? new AccountResolver(this.rpc, this.tx.to, this.at(block)) : null
  }
  value() {
    return this.tx.value
  }
  gasPrice() {
    return this.tx.gasPrice ?? this.tx.maxFeePerGas
  }
  maxFeePerGas() {
    return this.tx.maxFeePerGas ?? null
  }
  maxPriorityFeePerGas() {
    return this.tx.maxPriorityFeePerGas ?? null
  }
  maxFeePerBlobGas() {
    return this.tx.maxFeePerBlobGas ?? null
  }
  async effectiveTip() {
    const receipt = await this.receiptOf()
    if (!receipt) return null
    const block = await this.ctx.block(this.tx.blockHash)
    const baseFee = block ? await block.baseFeePerGas() : null
    if (baseFee == null) return null
    return hexQuantity(BigInt(receipt.effectiveGasPrice) - BigInt(baseFee))
  }
  gas() {
    return this.tx.gas
  }
  inputData() {
    return this.tx.input
  }
  block() {
    return this.tx.blockHash ? this.ctx.block(this.tx.blockHash) : null
  }
  async status() {
    return (await this.receiptOf())?.status ?? null
  }
  async gasUsed() {
    return (await this.receiptOf())?.gasUsed ?? null
  }
  async cumulativeGasUsed() {
    return (await this.receiptOf())?.cumulativeGasUsed ?? null
  }
  async effectiveGasPrice() {
    return (await this.receiptOf())?.effectiveGasPrice ?? null
  }
  async blobGasUsed() {
    return (await this.receiptOf())?.blobGasUsed ?? null
  }
  async blobGasPrice() {
    return (await this.receiptOf())?.blobGasPrice ?? null
  }
  async createdContract({ block }: { block?: unknown }) {
    const address = (await this.receiptOf())?.contractAddress
    return address ? new AccountResolver(this.rpc, address, this.at(block)) : null
  }
  async logs() {
    const receipt = await this.receiptOf()
    return receipt ? (receipt.logs as Json[]).map((log) => this.ctx.log(log)) : null
  }
  r() {
    return this.tx.r
  }
  s() {
    return this.tx.s
  }
  v() {
    return this.tx.v ?? this.tx.yParity
  }
  yParity() {
    return this.tx.yParity ?? null
  }
  type() {
    return this.tx.type ?? '0x0'
  }
  accessList() {
    return this.tx.accessList ?? null
  }
  raw() {
    return this.rpc('debug_getRawTransaction', [this.tx.hash])
  }
  async rawReceipt() {
    const receipts = await this.rpc<string[]>('debug_getRawReceipts', [this.tx.blockHash])
    return receipts[Number(this.tx.transactionIndex)]
  }
  blobVersionedHashes() {
    return this.tx.blobVersionedHashes ?? null
  }
}
