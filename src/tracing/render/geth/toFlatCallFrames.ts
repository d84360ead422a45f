import { toParityError } from '../../../errors/evmErrorMap.js'
import { bytes, quantity } from '../../../utils/hex.js'
import type { CallTraceArena, CallTraceNode } from '../../recorder/types.js'
import { walkFrames } from '../walkFrames.js'

export type FlatCallTracerConfig = {
  includePrecompiles: boolean
  convertParityErrors: boolean
  /**
   * The top entry's gas: 'transaction' (geth's flatCallTracer: the transaction's gas limit and
   * receipt gas) or 'message' (Parity/Erigon trace: what the top message got after intrinsic gas,
   * and what it used before refunds).
   */
  rootGas?: 'transaction' | 'message'
}

/** Where the transaction stands, for the block/transaction fields of each entry. */
export type FlatTraceContext = {
  blockHash?: string | undefined
  blockNumber: bigint
  transactionHash?: string | undefined
  transactionPosition: number
}

export type FlatCallFrame = {
  action: Record<string, unknown>
  blockHash: string | null
  blockNumber: number
  error?: string
  result?: Record<string, unknown>
  subtraces: number
  traceAddress: number[]
  transactionHash: string | null
  transactionPosition: number
  type: string
}

const isCreate = (n: CallTraceNode) => n.kind === 'CREATE' || n.kind === 'CREATE2'

/**
 * geth's flatCallTracer (Parity's flat format) from the arena: the callTracer's view of each frame
 * (root gas from the transaction; failed creates lose their address; non-revert errors lose their
 * result), flattened depth-first with traceAddress and subtraces; plain calls to precompiles are
 * dropped unless includePrecompiles.
 */
export function toFlatCallFrames(arena: CallTraceArena, config: FlatCallTracerConfig, ctx: FlatTraceContext): FlatCallFrame[] {
  const out: FlatCallFrame[] = []
  const visible = (n: CallTraceNode) => config.includePrecompiles || !(n.precompile && (n.kind === 'CALL' || n.kind === 'STATICCALL'))

  walkFrames(arena, visible, (node, traceAddress, children) => {
    const isRoot = node.parent === undefined
    const txGas = isRoot && config.rootGas !== 'message'
    const gas = txGas ? arena.tx.gasLimit : node.gas
    const gasUsed = txGas ? arena.tx.gasUsed : node.gasUsed
    const error = node.reverted ? node.error : undefined
    const value = node.value ?? 0n
    let type: string
    let action: Record<string, unknown>
    let result: Record<string, unknown> | undefined
    const output = error === undefined || error === 'execution reverted' ? node.output : new Uint8Array(0)
    if (node.kind === 'SELFDESTRUCT') {
      type = 'suicide'
      action = { address: node.from, balance: quantity(value), refundAddress: node.to }
    } else if (isCreate(node)) {
      type = 'create'
      action = { creationMethod: node.kind.toLowerCase(), from: node.from, gas: quantity(gas), init: bytes(node.input), value: quantity(value) }
      // geth's field order (gen_flatcallresult_json.go): address, code, gasUsed, output.
      result = { code: bytes(output), gasUsed: quantity(gasUsed) }
      if (node.to !== undefined && error === undefined) result = { address: node.to, ...result }
    } else {
      type = 'call'
      action = { callType: node.kind.toLowerCase(), from: node.from, gas: quantity(gas), input: bytes(node.input), to: node.to, value: quantity(value) }
      result = { gasUsed: quantity(gasUsed), output: bytes(output) }
    }
    const entry: FlatCallFrame = {
      action,
      blockHash: ctx.blockHash ?? null,
      blockNumber: Number(ctx.blockNumber),
    } as FlatCallFrame
    if (error !== undefined) entry.error = config.convertParityErrors ? toParityError(error) : error
    if (result !== undefined && (error === undefined || error === 'execution reverted')) entry.result = result
    entry.subtraces = children.length
    entry.traceAddress = traceAddress
    entry.transactionHash = ctx.transactionHash ?? null
    entry.transactionPosition = ctx.transactionPosition
    entry.type = type
    out.push(entry)
  })
  return out
}
