import type { TypedTransaction } from '@ethereumjs/tx'
import { keccak256 } from '../../utils/keccak256.js'
import { type Address, bytesToHex } from '@ethereumjs/util'
import { BlockNotFoundError } from '../../errors/state.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { prepareSimulation } from '../../exec/prepareSimulation.js'
import { type SimulatedBlock, checkSimulateLimits, simulateBlocks } from '../../exec/simulateBlocks.js'
import type { Hex } from '../../types/hex.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { parseSimulateOptions } from '../parseSimulateOptions.js'
import { optional, required } from '../params.js'

const hex = (b: Uint8Array) => bytesToHex(b) as Hex

/** A simulated transaction's hash: the unsigned transaction (v, r, s zero) hashed as geth does. */
const txHash = (tx: TypedTransaction): Hex => hex(keccak256(tx.serialize()))

/** geth's RPCTransaction of a simulated (unsigned) transaction, its fields in geth's order. */
function transactionJson(block: SimulatedBlock, tx: TypedTransaction, index: number, from: Address) {
  const h = block.header
  const out: Record<string, unknown> = {
    blockHash: block.hash,
    blockNumber: quantity(h.number),
    blockTimestamp: quantity(h.timestamp),
    from: from.toString(),
    gas: quantity(tx.gasLimit),
  }
  if ('maxFeePerGas' in tx) {
    const baseFee = h.baseFeePerGas ?? 0n
    const price = tx.maxPriorityFeePerGas + baseFee
    out.gasPrice = quantity(price < tx.maxFeePerGas ? price : tx.maxFeePerGas)
    out.maxFeePerGas = quantity(tx.maxFeePerGas)
    out.maxPriorityFeePerGas = quantity(tx.maxPriorityFeePerGas)
    if ('maxFeePerBlobGas' in tx) out.maxFeePerBlobGas = quantity(tx.maxFeePerBlobGas as bigint)
  } else out.gasPrice = quantity((tx as { gasPrice: bigint }).gasPrice)
  out.hash = txHash(tx)
  out.input = hex(tx.data)
  out.nonce = quantity(tx.nonce)
  out.to = tx.to ? tx.to.toString() : null
  out.transactionIndex = quantity(BigInt(index))
  out.value = quantity(tx.value)
  out.type = quantity(BigInt(tx.type))
  if ('accessList' in tx) {
    out.accessList = (tx.accessList as [Uint8Array, Uint8Array[]][]).map(([a, keys]) => ({
      address: hex(a),
      storageKeys: keys.map(hex),
    }))
  }
  if (tx.type !== 0) out.chainId = quantity(tx.common.chainId())
  if ('blobVersionedHashes' in tx) out.blobVersionedHashes = tx.blobVersionedHashes as Hex[]
  if ('authorizationList' in tx) {
    out.authorizationList = (tx.authorizationList as Uint8Array[][]).map(
      ([chainId, address, nonce, yParity, r, s]) => ({
        chainId: quantity(BigInt(hex(chainId!) === '0x' ? 0 : hex(chainId!))),
        address: hex(address!),
        nonce: quantity(BigInt(hex(nonce!) === '0x' ? 0 : hex(nonce!))),
        yParity: quantity(BigInt(hex(yParity!) === '0x' ? 0 : hex(yParity!))),
        r: quantity(BigInt(hex(r!) === '0x' ? 0 : hex(r!))),
        s: quantity(BigInt(hex(s!) === '0x' ? 0 : hex(s!))),
      }),
    )
  }
  out.v = '0x0'
  out.r = '0x0'
  out.s = '0x0'
  if (tx.type !== 0) out.yParity = '0x0'
  return out
}

/** One simulated block as geth marshals it: its header fields, `calls`, keys in Go's map order (sorted). */
function blockJson(block: SimulatedBlock, fullTransactions: boolean): Record<string, unknown> {
  const h = block.header
  const hashes = block.transactions.map(txHash)
  const out: Record<string, unknown> = {
    calls: block.calls.map((c, i) => {
      const call: Record<string, unknown> = {
        returnData: c.returnData,
        logs: c.logs.map((l) => ({
          address: l.address,
          topics: l.topics,
          data: l.data,
          blockNumber: quantity(h.number),
          transactionHash: hashes[i],
          transactionIndex: quantity(BigInt(i)),
          blockHash: block.hash,
          blockTimestamp: quantity(h.timestamp),
          logIndex: quantity(BigInt(l.logIndex)),
          removed: false,
        })),
        gasUsed: quantity(c.gasUsed),
        maxUsedGas: quantity(c.maxUsedGas),
        status: quantity(c.status),
      }
      if (c.error) call.error = c.error
      return call
    }),
    difficulty: quantity(h.difficulty),
    extraData: hex(h.extraData),
    gasLimit: quantity(h.gasLimit),
    gasUsed: quantity(h.gasUsed),
    hash: block.hash,
    logsBloom: hex(h.logsBloom),
    miner: h.coinbase.toString(),
    mixHash: hex(h.mixHash),
    nonce: hex(h.nonce),
    number: quantity(h.number),
    parentHash: hex(h.parentHash),
    receiptsRoot: hex(h.receiptTrie),
    sha3Uncles: hex(h.uncleHash),
    size: quantity(BigInt(block.size)),
    stateRoot: hex(h.stateRoot),
    timestamp: quantity(h.timestamp),
    transactions: fullTransactions
      ? block.transactions.map((tx, i) => transactionJson(block, tx, i, block.senders[i]!))
      : hashes,
    transactionsRoot: hex(h.transactionsTrie),
    uncles: [],
  }
  if (h.baseFeePerGas !== undefined) out.baseFeePerGas = quantity(h.baseFeePerGas)
  if (h.withdrawalsRoot !== undefined) {
    out.withdrawalsRoot = hex(h.withdrawalsRoot)
    out.withdrawals = block.withdrawals.map((w) => ({
      index: quantity(w.index),
      validatorIndex: quantity(w.validatorIndex),
      address: w.address,
      amount: quantity(w.amount),
    }))
  }
  if (h.blobGasUsed !== undefined) out.blobGasUsed = quantity(h.blobGasUsed)
  if (h.excessBlobGas !== undefined) out.excessBlobGas = quantity(h.excessBlobGas)
  if (h.parentBeaconBlockRoot !== undefined) out.parentBeaconBlockRoot = hex(h.parentBeaconBlockRoot)
  if (h.requestsHash !== undefined) out.requestsHash = hex(h.requestsHash)
  return Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((k) => [k, out[k]]),
  )
}

/**
 * eth_simulateV1(options, block = latest): blocks of calls simulated locally on the verified state of
 * that block, with geth's semantics and shapes (see exec/simulateBlocks), every header field
 * computed (the post-state root from the base block's proven trie nodes).
 */
export const simulateV1 = defineMethod({
  name: 'eth_simulateV1',
  params: [required(parseSimulateOptions), optional(parseBlockParameter)],
  async run(engine, [options, selector], context) {
    checkSimulateLimits(options.blocks)
    let base
    try {
      base = await prepareSimulation(engine, selector ?? { kind: 'tag', tag: 'latest' }, options)
    } catch (err) {
      // geth's words for a block it does not have.
      if (err instanceof BlockNotFoundError) throw new ServerRpcError('header not found', { cause: err })
      throw err
    }
    const blocks = await simulateBlocks(engine, base, options, context.deadline)
    return blocks.map((b) => blockJson(b, options.returnFullTransactions))
  },
})
