import { bytes, quantity } from '../../utils/hex.js'
import type { CallTraceArena, CallTraceNode } from '../recorder/types.js'
import { walkFrames } from './walkFrames.js'

/** Where the transaction stands, for the block/transaction fields of each entry. */
export type FlatTraceContext = {
  blockHash?: string | undefined
  blockNumber: bigint
  transactionHash?: string | undefined
  transactionPosition: number
}

/**
 * One entry of Parity's flat trace format, which geth's flatCallTracer and the trace_* methods both
 * write; fields in the order both use.
 */
export type FlatTrace = {
  action: Record<string, unknown>
  blockHash?: string | null
  blockNumber?: number
  error?: string
  revertReason?: string
  result?: Record<string, unknown> | null
  subtraces: number
  traceAddress: number[]
  transactionHash?: string | null
  transactionPosition?: number | null
  type: string
}

/** FlatTrace's fields, where an optional one may also be given as undefined. */
type FlatTraceFields = { [K in keyof FlatTrace]: FlatTrace[K] | (undefined extends FlatTrace[K] ? undefined : never) }

/** An entry with its fields in the format's order (the outputs are compared as text); undefined ones left out. */
export function flatTrace(f: FlatTraceFields): FlatTrace {
  const out = { action: f.action } as FlatTrace
  if (f.blockHash !== undefined) out.blockHash = f.blockHash
  if (f.blockNumber !== undefined) out.blockNumber = f.blockNumber
  if (f.error !== undefined) out.error = f.error
  if (f.revertReason !== undefined) out.revertReason = f.revertReason
  if (f.result !== undefined) out.result = f.result
  out.subtraces = f.subtraces
  out.traceAddress = f.traceAddress
  if (f.transactionHash !== undefined) out.transactionHash = f.transactionHash
  if (f.transactionPosition !== undefined) out.transactionPosition = f.transactionPosition
  out.type = f.type
  return out
}

/** Where geth's flatCallTracer and the Parity/OpenEthereum trace_* outputs part ways. */
export type FlatTraceOptions = {
  /**
   * Plain calls (CALL, STATICCALL) to precompiles, with what is below them: all listed, none, or
   * only those that move value.
   */
  precompileCalls: 'all' | 'none' | 'withValue'
  /**
   * The root entry's gas and gasUsed: the transaction's (gas limit, receipt gas) or what its message
   * got after intrinsic gas and used before refunds, as every other frame's.
   */
  rootGas: 'transaction' | 'message'
  /** `creationMethod` ("create", "create2") leads create actions. */
  creationMethod: boolean
  /** A STATICCALL's action shows the frame's value, or always 0 (Parity). */
  staticCallValue: 'frame' | 'zero'
  /**
   * A reverted frame keeps its result, the revert data as output (geth), or has none and carries
   * non-empty revert data as `revertReason` (Parity).
   */
  revertData: 'result' | 'revertReason'
  /** A suicide entry's result: left out (geth) or null (Parity). */
  suicideResult: 'omit' | 'null'
  /**
   * A frame that failed other than by reverting: no `result` key (geth, OpenEthereum/Besu) or
   * `result: null` (Erigon: no omitempty).
   */
  failedResult: 'omit' | 'null'
  /** A reverted create's kept result names the address it would have had (Erigon: set on entry). */
  revertedCreateAddress: boolean
  /** The `error` label of a failed frame, from its geth-style error. */
  errorLabel: (error: string) => string
}

const isCreate = (n: CallTraceNode) => n.kind === 'CREATE' || n.kind === 'CREATE2'
const isPlainCall = (n: CallTraceNode) => n.kind === 'CALL' || n.kind === 'STATICCALL'

/**
 * One transaction's flat trace entries from the arena, depth first (walkFrames): each frame's action
 * and result by kind (call, create, suicide), its error, subtraces and traceAddress. A failed frame
 * has an `error` and, unless it reverted and `revertData` is 'result', no result. With `ctx`, each
 * entry carries the block and transaction fields (null where not known); without, they are left out.
 */
export function toFlatTraces(
  arena: CallTraceArena,
  options: FlatTraceOptions,
  ctx: FlatTraceContext | undefined,
): FlatTrace[] {
  const out: FlatTrace[] = []
  const visible = (n: CallTraceNode) =>
    options.precompileCalls === 'all' ||
    !(n.precompile && isPlainCall(n) && (options.precompileCalls === 'none' || (n.value ?? 0n) === 0n))

  walkFrames(arena, visible, (node, traceAddress, children) => {
    const txGas = node.parent === undefined && options.rootGas === 'transaction'
    const gas = txGas ? arena.tx.gasLimit : node.gas
    const gasUsed = txGas ? arena.tx.gasUsed : node.gasUsed
    const error = node.reverted ? node.error : undefined
    const reverted = error === 'execution reverted'
    const withResult = error === undefined || (reverted && options.revertData === 'result')
    const value = node.value ?? 0n
    let type: string
    let action: Record<string, unknown>
    let result: Record<string, unknown> | null | undefined = options.failedResult === 'null' ? null : undefined
    if (node.kind === 'SELFDESTRUCT') {
      type = 'suicide'
      action = { address: node.from, balance: quantity(value), refundAddress: node.to }
      result = options.suicideResult === 'null' ? null : undefined
    } else if (isCreate(node)) {
      type = 'create'
      action = options.creationMethod ? { creationMethod: node.kind.toLowerCase() } : {}
      action.from = node.from
      action.gas = quantity(gas)
      action.init = bytes(node.input)
      action.value = quantity(value)
      // A failed create has no address; field order as geth's gen_flatcallresult_json.go.
      const address =
        error === undefined || (reverted && options.revertedCreateAddress) ? (node.to ?? node.created) : undefined
      if (withResult) {
        result = address !== undefined ? { address } : {}
        result.code = bytes(node.output)
        result.gasUsed = quantity(gasUsed)
      }
    } else {
      type = 'call'
      const shownValue = node.kind === 'STATICCALL' && options.staticCallValue === 'zero' ? 0n : value
      action = {
        callType: node.kind.toLowerCase(),
        from: node.from,
        gas: quantity(gas),
        input: bytes(node.input),
        to: node.to,
        value: quantity(shownValue),
      }
      if (withResult) result = { gasUsed: quantity(gasUsed), output: bytes(node.output) }
    }
    out.push(
      flatTrace({
        action,
        blockHash: ctx && (ctx.blockHash ?? null),
        blockNumber: ctx && Number(ctx.blockNumber),
        error: error !== undefined ? options.errorLabel(error) : undefined,
        revertReason:
          reverted && options.revertData === 'revertReason' && node.output.length > 0 ? bytes(node.output) : undefined,
        result,
        subtraces: children.length,
        traceAddress,
        transactionHash: ctx && (ctx.transactionHash ?? null),
        transactionPosition: ctx?.transactionPosition,
        type,
      }),
    )
  })
  return out
}
