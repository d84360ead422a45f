import { toParityError } from '../../../errors/evmErrorMap.js'
import { bytes, quantity } from '../../../utils/hex.js'
import type { CallTraceArena, CallTraceNode } from '../../recorder/types.js'
import { walkFrames } from '../walkFrames.js'
import type { FlatTraceContext } from '../geth/toFlatCallFrames.js'

export type ParityTraceOptions = {
  /** Plain calls to precompiles are listed (Erigon's traceConfig.tracerConfig.includePrecompiles). */
  includePrecompiles: boolean
  /**
   * `creationMethod` on create actions. The recorded outputs differ by method: Besu's trace_block,
   * trace_transaction, trace_filter and trace_replay* entries carry it, its trace_call, callMany and
   * rawTransaction entries do not.
   */
  creationMethod: boolean
}

/** A Parity/OpenEthereum trace entry; fields in the order the recorded outputs use. */
export type ParityTrace = Record<string, unknown>

/**
 * The Parity/OpenEthereum error label of a geth-style error, as the recorded trace_* outputs of
 * OpenEthereum and Besu word it.
 */
export function toParityTraceError(error: string): string {
  // Beyond geth's convertParityErrors table: Besu's word for both of these (its
  // ExceptionalHaltReason ILLEGAL_STATE_CHANGE; OpenEthereum said "Mutable Call In Static Context"
  // for the first), and the prefixes geth's table lists only in full.
  if (error === 'write protection' || error === 'contract address collision') return 'Illegal state change'
  if (error === 'invalid code') return 'Invalid code'
  if (error.startsWith('invalid opcode')) return 'Bad instruction'
  if (error.startsWith('stack limit reached')) return 'Out of stack'
  if (error.startsWith('out of gas')) return 'Out of gas'
  return toParityError(error)
}

const isCreate = (n: CallTraceNode) => n.kind === 'CREATE' || n.kind === 'CREATE2'

/**
 * One transaction's Parity-style traces from the arena, depth first: the root's gas is what the top
 * message got (gas limit − intrinsic gas) and its gasUsed what it used before refunds; a child's gas
 * is what was forwarded to it. A failed frame has an `error` label and no `result`; a reverted one
 * also carries the revert data as `revertReason`; a suicide has `result: null`. Plain calls to
 * precompiles are left out unless asked for. `ctx` with a block hash adds the block and
 * transaction fields (trace_transaction, trace_block, trace_filter); without, they are left out
 * (trace_call, trace_replay*).
 */
export function toParityTraces(arena: CallTraceArena, options: ParityTraceOptions, ctx?: FlatTraceContext): ParityTrace[] {
  const out: ParityTrace[] = []
  const visible = (n: CallTraceNode) => options.includePrecompiles || !(n.precompile && (n.kind === 'CALL' || n.kind === 'STATICCALL') && (n.value ?? 0n) === 0n)
  const withBlock = ctx?.blockHash !== undefined

  walkFrames(arena, visible, (node, traceAddress, children) => {
    const error = node.reverted ? node.error : undefined
    const value = node.value ?? 0n
    const entry: ParityTrace = {}
    let type: string
    let result: Record<string, unknown> | null | undefined
    if (node.kind === 'SELFDESTRUCT') {
      type = 'suicide'
      entry.action = { address: node.from, balance: quantity(value), refundAddress: node.to }
      result = null
    } else if (isCreate(node)) {
      type = 'create'
      entry.action = {
        ...(options.creationMethod ? { creationMethod: node.kind.toLowerCase() } : {}),
        from: node.from,
        gas: quantity(node.gas),
        init: bytes(node.input),
        value: quantity(value),
      }
      if (error === undefined) result = { address: node.to ?? node.created, code: bytes(node.output), gasUsed: quantity(node.gasUsed) }
    } else {
      type = 'call'
      entry.action = { callType: node.kind.toLowerCase(), from: node.from, gas: quantity(node.gas), input: bytes(node.input), to: node.to, value: quantity(node.kind === 'STATICCALL' ? 0n : value) }
      if (error === undefined) result = { gasUsed: quantity(node.gasUsed), output: bytes(node.output) }
    }
    if (withBlock) {
      entry.blockHash = ctx!.blockHash
      entry.blockNumber = Number(ctx!.blockNumber)
    }
    if (error !== undefined) {
      entry.error = toParityTraceError(error)
      if (error === 'execution reverted' && node.output.length > 0) entry.revertReason = bytes(node.output)
    }
    if (result !== undefined) entry.result = result
    entry.subtraces = children.length
    entry.traceAddress = traceAddress
    if (withBlock) {
      entry.transactionHash = ctx!.transactionHash
      entry.transactionPosition = ctx!.transactionPosition
    }
    entry.type = type
    out.push(entry)
  })
  return out
}

/** A block or uncle reward entry (trace_block, trace_filter), after the block's transactions. */
export function rewardTrace(author: string, rewardType: 'block' | 'uncle', value: bigint, blockHash: string, blockNumber: bigint): ParityTrace {
  return {
    action: { author, rewardType, value: quantity(value) },
    blockHash,
    blockNumber: Number(blockNumber),
    result: null,
    subtraces: 0,
    traceAddress: [],
    transactionHash: null,
    transactionPosition: null,
    type: 'reward',
  }
}
