import type { RpcJson } from './rpcJson.js'
import { AccountResolver } from './accountResolver.js'
import { callArgs } from './callArgs.js'
import type { GraphqlContext } from './graphqlContext.js'
import { type RpcCaller, hexQuantity, toQuantity } from './rpcCaller.js'

type Json = RpcJson

/** The base fee of the block after one with these fields (EIP-1559: elasticity 2, change denominator 8). */
export function nextBaseFee(block: Json): bigint | null {
  if (block.baseFeePerGas == null) return null
  const baseFee = BigInt(block.baseFeePerGas)
  const target = BigInt(block.gasLimit) / 2n
  const used = BigInt(block.gasUsed)
  if (target === 0n || used === target) return baseFee
  if (used > target) {
    const delta = (baseFee * (used - target)) / target / 8n
    return baseFee + (delta > 1n ? delta : 1n)
  }
  return baseFee - (baseFee * (target - used)) / target / 8n
}

/**
 * Block: the fields of a verified block (eth_getBlockByNumber / ByHash with whole transactions:
 * header hashed, transactions against transactionsRoot), and what is computed at its state —
 * accounts, calls, gas estimates — by local execution, as the JSON-RPC methods do.
 */
export class BlockResolver {
  private readonly rpc: RpcCaller
  constructor(
    private readonly ctx: GraphqlContext,
    private readonly json: Json,
    /** An uncle: its transactions are not known. */
    private readonly ommer = false,
  ) {
    this.rpc = ctx.rpc
  }
  number() {
    return this.json.number
  }
  hash() {
    return this.json.hash
  }
  parent() {
    return BigInt(this.json.number) === 0n ? null : this.ctx.block(this.json.parentHash)
  }
  nonce() {
    return this.json.nonce
  }
  transactionsRoot() {
    return this.json.transactionsRoot
  }
  transactionCount() {
    return this.ommer ? null : hexQuantity(this.json.transactions.length)
  }
  stateRoot() {
    return this.json.stateRoot
  }
  receiptsRoot() {
    return this.json.receiptsRoot
  }
  miner({ block }: { block?: unknown }) {
    return new AccountResolver(
      this.rpc,
      this.json.miner,
      block != null ? hexQuantity(toQuantity(block, 'block')) : this.json.number,
    )
  }
  extraData() {
    return this.json.extraData
  }
  gasLimit() {
    return this.json.gasLimit
  }
  gasUsed() {
    return this.json.gasUsed
  }
  baseFeePerGas() {
    return this.json.baseFeePerGas ?? null
  }
  nextBaseFeePerGas() {
    const next = nextBaseFee(this.json)
    return next === null ? null : hexQuantity(next)
  }
  timestamp() {
    return this.json.timestamp
  }
  logsBloom() {
    return this.json.logsBloom
  }
  mixHash() {
    return this.json.mixHash
  }
  difficulty() {
    return this.json.difficulty
  }
  ommerCount() {
    return this.ommer ? null : hexQuantity(this.json.uncles.length)
  }
  ommers() {
    if (this.ommer) return null
    return (this.json.uncles as string[]).map((_, i) => this.ommerAt({ index: i }))
  }
  async ommerAt({ index }: { index: unknown }) {
    if (this.ommer) return null
    const i = toQuantity(index, 'index')
    if (i >= BigInt(this.json.uncles.length)) return null
    const uncle = await this.rpc<Json | null>('eth_getUncleByBlockHashAndIndex', [this.json.hash, hexQuantity(i)])
    return uncle ? new BlockResolver(this.ctx, uncle, true) : null
  }
  ommerHash() {
    return this.json.sha3Uncles
  }
  transactions() {
    if (this.ommer) return null
    return (this.json.transactions as Json[]).map((tx) => this.ctx.transaction(tx))
  }
  transactionAt({ index }: { index: unknown }) {
    if (this.ommer) return null
    const tx = (this.json.transactions as Json[])[Number(toQuantity(index, 'index'))]
    return tx ? this.ctx.transaction(tx) : null
  }
  async logs({ filter }: { filter: { addresses?: string[] | null; topics?: string[][] | null } }) {
    const logs = await this.rpc<Json[]>('eth_getLogs', [
      { blockHash: this.json.hash, address: filter.addresses ?? [], topics: filter.topics ?? [] },
    ])
    return logs.map((log) => this.ctx.log(log))
  }
  account({ address }: { address: string }) {
    return new AccountResolver(this.rpc, address, this.json.number)
  }
  async call({ data }: { data: Record<string, unknown> }) {
    return callResult(this.rpc, data, this.json.number)
  }
  estimateGas({ data }: { data: Record<string, unknown> }) {
    return this.rpc('eth_estimateGas', [callArgs(data), this.json.number])
  }
  rawHeader() {
    return this.rpc('debug_getRawHeader', [this.json.hash])
  }
  raw() {
    return this.rpc('debug_getRawBlock', [this.json.hash])
  }
  withdrawalsRoot() {
    return this.json.withdrawalsRoot ?? null
  }
  withdrawals() {
    return (
      (this.json.withdrawals as Json[] | undefined)?.map((w) => ({
        index: w.index,
        validator: w.validatorIndex,
        address: w.address,
        amount: w.amount,
      })) ?? null
    )
  }
  blobGasUsed() {
    return this.json.blobGasUsed ?? null
  }
  excessBlobGas() {
    return this.json.excessBlobGas ?? null
  }
}

/**
 * CallResult: the call executed locally on verified state (debug_traceCall's call tracer gives its
 * output, gas used after refunds and whether it failed, from one execution).
 */
export async function callResult(rpc: RpcCaller, data: Record<string, unknown>, block: string) {
  const frame = await rpc<Json>('debug_traceCall', [callArgs(data), block, { tracer: 'callTracer' }])
  return { data: frame.output ?? '0x', gasUsed: frame.gasUsed, status: frame.error ? '0x0' : '0x1' }
}
