import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { fetchVerifiedBlock } from '../../exec/fetchVerifiedBlock.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import { quantity } from '../../utils/hex.js'
import { fetchVerifiedReceipts } from '../debug/fetchVerifiedReceipts.js'
import { defineMethod } from '../defineMethod.js'
import { ParamError, optional, required } from '../params.js'
import { describe } from '../parsers.js'
import { formatReceipts } from './formatReceipts.js'
import { verifiedHeaderRange } from './verifiedHeaderRange.js'
import { parseBlockNumberOnly } from './verifiedBlockAt.js'

/** geth's maxHeaderHistory / maxBlockHistory defaults: a longer request is cut to this many blocks. */
export const FEE_HISTORY_MAX_BLOCKS = 1024
/** geth's maxQueryLimit: the most reward percentiles one request may ask. */
const MAX_PERCENTILES = 100

/** geth's math.HexOrDecimal64: a JSON number, or a hex or decimal string. */
function parseBlockCount(raw: unknown): number {
  let value: bigint | undefined
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) value = BigInt(raw)
  else if (typeof raw === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(raw)) value = BigInt(raw)
  if (value === undefined || value >= 2n ** 64n) throw new ParamError(`invalid hex or decimal integer ${describe(raw)}`)
  return value > BigInt(FEE_HISTORY_MAX_BLOCKS) ? FEE_HISTORY_MAX_BLOCKS : Number(value)
}

function parsePercentiles(raw: unknown): number[] {
  if (!Array.isArray(raw))
    throw new ParamError(`json: cannot unmarshal ${describe(raw)} into Go value of type []float64`)
  return raw.map((p) => {
    if (typeof p !== 'number')
      throw new ParamError(`json: cannot unmarshal ${describe(p)} into Go value of type float64`)
    return p
  })
}

/** Go's %f: six decimals. */
const f = (p: number) => p.toFixed(6)

/** geth's percentile checks (eth/gasprice/feehistory.go), -32000 with its words. */
function checkPercentiles(percentiles: number[]): void {
  if (percentiles.length > MAX_PERCENTILES)
    throw new ServerRpcError(`invalid reward percentile: over the query limit ${MAX_PERCENTILES}`)
  for (const [i, p] of percentiles.entries()) {
    if (p < 0 || p > 100) throw new ServerRpcError(`invalid reward percentile: ${f(p)}`)
    if (i > 0 && p <= percentiles[i - 1]!)
      throw new ServerRpcError(`invalid reward percentile: #${i - 1}:${f(percentiles[i - 1]!)} >= #${i}:${f(p)}`)
  }
}

/**
 * The effective tips at the given percentiles of a block's gas (geth's processBlock): transactions
 * sorted by tip, each weighing its gas used; from the verified block's transactions and the gas used
 * its verified receipts record.
 */
async function rewards(engine: Engine, header: VerifiedHeader, percentiles: number[]): Promise<string[]> {
  const [verified, receipts] = await Promise.all([
    fetchVerifiedBlock(engine, header),
    fetchVerifiedReceipts(engine, header),
  ])
  const txs = verified.block.transactions
  if (txs.length === 0) return percentiles.map(() => '0x0')
  const baseFee = header.header.baseFeePerGas ?? 0n
  const formatted = formatReceipts(verified.block, receipts)
  const sorted = txs
    .map((tx, i) => ({ reward: tx.getEffectivePriorityFee(baseFee), gasUsed: BigInt(formatted[i]!.gasUsed as string) }))
    .sort((a, b) => (a.reward < b.reward ? -1 : a.reward > b.reward ? 1 : 0))
  const gasUsed = Number(header.header.gasUsed)
  let index = 0
  let sum = sorted[0]!.gasUsed
  return percentiles.map((p) => {
    const threshold = BigInt(Math.floor((gasUsed * p) / 100))
    while (sum < threshold && index < sorted.length - 1) {
      index++
      sum += sorted[index]!.gasUsed
    }
    return quantity(sorted[index]!.reward)
  })
}

/** The blob gas a block may hold under its rules (0 before EIP-4844). */
function maxBlobGas(h: VerifiedHeader): bigint {
  if (!h.header.common.isActivatedEIP(4844)) return 0n
  return h.header.common.getBlobGasSchedule().maxBlobGasPerBlock
}

/**
 * eth_feeHistory(blockCount, newestBlock, rewardPercentiles?): base fees (and the next block's),
 * gas used ratios, blob base fees and blob gas used ratios from verified headers; with percentiles,
 * each block's effective tips from its verified transactions and receipts. geth's rules: at most 1,024
 * blocks (a longer request is cut), none before genesis, at most 100 ascending percentiles in 0…100.
 */
export const feeHistory = defineMethod({
  name: 'eth_feeHistory',
  params: [required(parseBlockCount), required(parseBlockNumberOnly), optional(parsePercentiles)],
  async run(engine, [count, newest, rawPercentiles]) {
    const percentiles = rawPercentiles ?? []
    checkPercentiles(percentiles)
    if (count === 0) return { oldestBlock: '0x0', gasUsedRatio: null }
    let last: VerifiedHeader
    try {
      last = await engine.headers.resolve(
        newest.kind === 'tag' && newest.tag === 'pending' ? { kind: 'tag', tag: 'latest' } : newest,
      )
    } catch (err) {
      if (err instanceof BlockNotFoundError && newest.kind === 'number') {
        const head = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
        throw new ServerRpcError(`request beyond head block: requested ${newest.number}, head ${head.number}`)
      }
      throw err
    }
    const blocks = BigInt(count) > last.number + 1n ? last.number + 1n : BigInt(count)
    const oldest = last.number + 1n - blocks
    const headers = await verifiedHeaderRange(engine, oldest, last)
    const baseFeePerGas = headers.map((h) => quantity(h.header.baseFeePerGas ?? 0n))
    baseFeePerGas.push(quantity(last.header.common.isActivatedEIP(1559) ? last.header.calcNextBaseFee() : 0n))
    const blobbed = (h: VerifiedHeader) => h.header.excessBlobGas !== undefined
    const baseFeePerBlobGas = headers.map((h) => quantity(blobbed(h) ? h.header.getBlobGasPrice() : 0n))
    baseFeePerBlobGas.push(quantity(blobbed(last) ? last.header.calcNextBlobGasPrice(last.header.common) : 0n))
    // feeHistoryResult's field order: oldestBlock, reward, baseFeePerGas, gasUsedRatio, the blob fields.
    const reward =
      percentiles.length > 0 ? await Promise.all(headers.map((h) => rewards(engine, h, percentiles))) : undefined
    return {
      oldestBlock: quantity(oldest),
      ...(reward ? { reward } : {}),
      baseFeePerGas,
      gasUsedRatio: headers.map((h) => Number(h.header.gasUsed) / Number(h.header.gasLimit)),
      baseFeePerBlobGas,
      blobGasUsedRatio: headers.map((h) => {
        const max = maxBlobGas(h)
        return h.header.blobGasUsed === undefined || max === 0n ? 0 : Number(h.header.blobGasUsed) / Number(max)
      }),
    }
  },
})
