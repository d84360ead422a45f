import { decodeRevertReason } from '../../../utils/decodeRevertReason.js'
import { bytes, quantity } from '../../../utils/hex.js'
import type { CallTraceArena, CallTraceNode } from '../../recorder/types.js'

export type CallTracerConfig = {
  onlyTopCall: boolean
  withLog: boolean
  /** Erigon's extra option: false drops plain calls to precompiles (default true, as geth). */
  includePrecompiles?: boolean
}

/** geth's callFrame on the wire, fields in gencodec's order. */
export type CallFrame = {
  from: string
  gas: string
  gasUsed: string
  to?: string
  input: string
  output?: string
  error?: string
  revertReason?: string
  calls?: CallFrame[]
  logs?: { address: string; topics: string[]; data: string; index: string; position: string }[]
  value?: string
  type: string
}

const failed = (node: CallTraceNode) => node.error !== undefined && node.reverted

function frame(arena: CallTraceArena, node: CallTraceNode, config: CallTracerConfig, parentFailed: boolean): CallFrame {
  const isRoot = node.parent === undefined
  const out: CallFrame = {
    from: node.from,
    gas: quantity(isRoot ? arena.tx.gasLimit : node.gas),
    gasUsed: quantity(isRoot ? arena.tx.gasUsed : node.gasUsed),
  } as CallFrame
  const isCreate = node.kind === 'CREATE' || node.kind === 'CREATE2'
  const error = node.reverted ? node.error : undefined
  if (node.to !== undefined && !(error !== undefined && isCreate)) out.to = node.to
  out.input = bytes(node.input)
  if (error === undefined) {
    if (node.output.length > 0) out.output = bytes(node.output)
  } else {
    if (error === 'execution reverted' && node.output.length > 0) out.output = bytes(node.output)
  }
  if (error !== undefined) {
    out.error = error
    if (error === 'execution reverted' && node.output.length >= 4) {
      const reason = decodeRevertReason(node.output)
      if (reason !== undefined) out.revertReason = reason
    }
  }
  const nowFailed = parentFailed || failed(node)
  if (!config.onlyTopCall) {
    const children = node.children
      .map((i) => arena.nodes[i]!)
      .filter(
        (child) =>
          config.includePrecompiles !== false ||
          !(child.precompile && (child.kind === 'CALL' || child.kind === 'STATICCALL')),
      )
    if (children.length > 0) out.calls = children.map((child) => frame(arena, child, config, nowFailed))
  }
  if (config.withLog && node.logs.length > 0 && !nowFailed) {
    out.logs = node.logs.map((l) => ({
      address: l.address,
      topics: l.topics,
      data: bytes(l.data),
      index: quantity(l.index),
      position: quantity(l.position),
    }))
  }
  if (node.value !== undefined) out.value = quantity(node.value)
  out.type = node.kind
  return out
}

/** callTracer's result: the frame tree, root gas from the transaction, logs dropped under failed frames. */
export function toCallFrame(arena: CallTraceArena, config: CallTracerConfig): CallFrame | undefined {
  const root = arena.nodes[0]
  return root ? frame(arena, root, config, false) : undefined
}
