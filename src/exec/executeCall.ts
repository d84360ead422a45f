import { allowSenderWithCode } from './allowSenderWithCode.js'
import { rememberFootprint } from './callFootprint.js'
import { GAS_PER_BLOB } from '../utils/gasPerBlob.js'
import { createBlock } from '@ethereumjs/block'
import { type RunTxResult, createVM } from '@ethereumjs/vm'
import { createAddressFromString, toChecksumAddress } from '@ethereumjs/util'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { toGethEvmError } from '../errors/evmErrorMap.js'
import { ExecutionTimeoutError, MessageRejectedError, TracerTimeoutError } from '../errors/execution.js'
import { type OverlayStateManager, createOverlayStateManager } from '../state/createOverlayStateManager.js'
import type { AccessListEntry } from '../state/types.js'
import { buildCallTransaction } from './buildCallTransaction.js'
import type { Engine } from './createEngine.js'
import { applyStateOverrides } from './applyStateOverrides.js'
import type { CallArgs, ExecutionOutcome } from './types.js'
import type { BlockOverrides, StateOverrides } from '../types/overrides.js'
import { withTimeout } from './withTimeout.js'
import type { Deadline } from '../types/deadline.js'
import { anyAborted } from '../utils/createDeadline.js'
import { COOPERATIVE } from './cooperative.js'
import { runTracedTransaction } from '../evm/runTracedTransaction.js'
import type { TxTraceSession } from '../tracing/startTxTrace.js'
import { chainEvmOptions } from './borExecution.js'
import type { Hex } from '../types/hex.js'

export type ExecuteCallParameters = {
  args: CallArgs
  /** The block whose post-state the call runs on, and whose header is its context (eth_call semantics). */
  block: VerifiedHeader
  /** Gas limit to use instead of args.gas (eth_estimateGas probes). */
  gasLimit?: bigint
  stateOverrides?: StateOverrides | undefined
  blockOverrides?: BlockOverrides | undefined
  /** Report the EIP-2930 access list the call touched (eth_createAccessList). */
  reportAccessList?: boolean
  /**
   * Run on this state instead of a fresh overlay of `block` (a replay's state before some
   * transaction, or the state left by earlier calls of a bundle); overrides are applied to it.
   */
  baseState?: OverlayStateManager | undefined
  /** Trace the call: hooks attached to its run, stopped when `signal` is aborted. */
  trace?: Pick<TxTraceSession, 'hooks' | 'signal' | 'bind'> | undefined
  /**
   * The deadline of the request when it runs more than this call (a replay first): the call gets
   * what is left of it, not a fresh --rpc.evmtimeout. Its `baseState` was made under the same one.
   */
  deadline?: Deadline | undefined
}

const max = (a: bigint, b: bigint) => (a > b ? a : b)

export type CallResult = {
  outcome: ExecutionOutcome
  returnValue: Uint8Array
  gasUsed: bigint
  /** The gas the call needed at its peak: before the refund, at least the EIP-7623 floor (geth's MaxUsedGas). */
  maxUsedGas: bigint
  gasLimit: bigint
  accessList?: AccessListEntry[]
  state: OverlayStateManager
  run: RunTxResult
}

/** The gas a call gets: what it asked for, capped by --rpc.gascap (geth's CallDefaults). */
export function callGasLimit(engine: Engine, args: CallArgs): bigint {
  const cap = engine.options.gasCap
  const unlimited = 2n ** 63n - 1n
  let gas = args.gas ?? (cap === 0n ? unlimited : cap)
  if (cap !== 0n && gas > cap) gas = cap
  return gas
}

function calldataFloorGas(data: Uint8Array): bigint {
  let tokens = 0n
  for (const b of data) tokens += b === 0 ? 1n : 4n
  return 21000n + 10n * tokens
}

/**
 * Runs a call on the verified state of `block`, as eth_call does: nonce not checked, fees optional
 * (a call without fee fields runs with a zero base fee, geth's NoBaseFee), gas capped by the
 * gas cap, the whole run bounded by --rpc.evmtimeout. Errors that stop a transaction before it runs
 * (intrinsic gas, funds, fee cap) are thrown with geth's messages.
 */
export async function executeCall(engine: Engine, params: ExecuteCallParameters): Promise<CallResult> {
  return withTimeout(engine.options.evmTimeoutMs, (signal) => run(engine, params, signal), params.deadline)
}

async function run(
  engine: Engine,
  { args, block, gasLimit, reportAccessList, stateOverrides, blockOverrides, trace, baseState }: ExecuteCallParameters,
  signal: Deadline,
): Promise<CallResult> {
  // Setting up a VM is a few milliseconds of work that does not pause by itself.
  if (COOPERATIVE.shouldYield()) await COOPERATIVE.yieldToEventLoop()
  if (args.chainId !== undefined && args.chainId !== engine.rules.chainId) {
    throw new MessageRejectedError(`chainId does not match node's (have=${args.chainId}, want=${engine.rules.chainId})`)
  }
  const state = baseState ?? createOverlayStateManager({ source: engine.source, block, signal })
  if (stateOverrides) await applyStateOverrides(state, stateOverrides)
  const common = block.common.copy()
  const gas = gasLimit ?? callGasLimit(engine, args)
  const fromAccount = args.from ? await state.getAccount(createAddressFromString(args.from)) : undefined
  const { tx, from, feeless } = buildCallTransaction(args, gas, args.nonce ?? fromAccount?.nonce ?? 0n, common)
  const header = block.header
  const baseFee = blockOverrides?.baseFeePerGas ?? header.baseFeePerGas

  const intrinsic = tx.getIntrinsicGas()
  if (gas < intrinsic) throw new MessageRejectedError(`intrinsic gas too low: have ${gas}, want ${intrinsic}`)
  if (common.isActivatedEIP(7623)) {
    const floor = calldataFloorGas(tx.data)
    if (gas < floor)
      throw new MessageRejectedError(`insufficient gas for floor data gas cost: have ${gas}, want ${floor}`)
  }
  if (!feeless && baseFee !== undefined) {
    const feeCap = 'maxFeePerGas' in tx ? tx.maxFeePerGas : tx.gasPrice
    if (feeCap < baseFee) {
      throw new MessageRejectedError(
        `max fee per gas less than block base fee: address ${toChecksumAddress(from.toString())}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`,
      )
    }
  }
  const feeCap = 'maxFeePerGas' in tx ? tx.maxFeePerGas : tx.gasPrice
  // A blob call (EIP-4844): its fee cap must cover the blob base fee — unless it is zero, which, as in
  // geth's eth_call, runs the call with a zero blob base fee instead.
  const blobGas = BigInt(args.blobVersionedHashes?.length ?? 0) * GAS_PER_BLOB
  const blobFeeCap = args.maxFeePerBlobGas ?? 0n
  if (blobGas > 0n && blobFeeCap > 0n && header.excessBlobGas !== undefined) {
    const blobBaseFee = header.getBlobGasPrice()
    if (blobFeeCap < blobBaseFee) {
      throw new MessageRejectedError(
        `max fee per blob gas less than block blob gas fee: address ${toChecksumAddress(from.toString())} blobGasFeeCap: ${blobFeeCap}, blobBaseFee: ${blobBaseFee}`,
      )
    }
  }
  const want = gas * feeCap + tx.value + blobGas * blobFeeCap
  if (want > 0n) {
    const have = (await state.getAccount(from))?.balance ?? 0n
    if (have < want) {
      throw new MessageRejectedError(
        `insufficient funds for gas * price + value: address ${toChecksumAddress(from.toString())} have ${have} want ${want}`,
      )
    }
  }

  const fields: Record<string, unknown> = { ...header.toJSON() }
  if (blockOverrides?.number !== undefined) fields.number = blockOverrides.number
  if (blockOverrides?.time !== undefined) fields.timestamp = blockOverrides.time
  if (blockOverrides?.gasLimit !== undefined) fields.gasLimit = blockOverrides.gasLimit
  if (blockOverrides?.feeRecipient !== undefined) fields.coinbase = blockOverrides.feeRecipient
  if (blockOverrides?.prevRandao !== undefined) fields.mixHash = blockOverrides.prevRandao
  if (baseFee !== undefined) fields.baseFeePerGas = feeless ? 0n : baseFee
  const zeroBlobFee = blobGas > 0n && blobFeeCap === 0n
  const context = createBlock(
    { header: fields },
    { common, skipConsensusFormatValidation: true, ...(zeroBlobFee ? { freeze: false } : {}) },
  )
  if (zeroBlobFee) context.header.getBlobGasPrice = () => 0n

  const vm = await createVM({
    common,
    stateManager: state,
    blockchain: engine.headers.blockchainFor(block),
    // COINBASE is the verified block's author on a Bor chain, unless the call sets the fee recipient.
    evmOpts: chainEvmOptions(engine.rules, block.header, {
      authorFromSeal: blockOverrides?.feeRecipient === undefined,
    }),
  })
  let result
  try {
    const opts = {
      skipNonce: true,
      skipBalance: true,
      skipBlockGasLimitValidation: true,
      skipHardForkValidation: true,
      reportAccessList: reportAccessList === true,
    }
    if (trace) state.beginReadScope()
    trace?.bind?.({ state, block: context, tx, precompiles: vm.evm.precompiles.keys() })
    const restoreSenderCheck = await allowSenderWithCode(state, from)
    try {
      result = await runTracedTransaction(vm, tx, context, trace?.hooks ?? {}, opts, {
        signal: anyAborted(signal, trace?.signal),
        scheduler: COOPERATIVE,
        borLogs: engine.rules.bor !== undefined,
        engine,
      })
    } finally {
      restoreSenderCheck()
    }
  } catch (err) {
    if (signal.aborted) throw signal.reason
    // A timeout is itself; anything else that stopped the run rejected the message.
    if (
      err instanceof MessageRejectedError ||
      err instanceof TracerTimeoutError ||
      err instanceof ExecutionTimeoutError
    )
      throw err
    throw new MessageRejectedError(err instanceof Error ? err.message : String(err), { cause: err })
  }
  // A call on a block's own state tells the next call of the same function what to fetch up front.
  if (!baseState) rememberFootprint(engine, args, state)
  const exec = result.execResult
  let outcome: ExecutionOutcome = { status: 'success' }
  if (exec.exceptionError) {
    if (exec.exceptionError.error === 'revert') outcome = { status: 'reverted' }
    else {
      const rs = exec.runState
      const opcode = rs ? rs.code[rs.programCounter] : undefined
      outcome = { status: 'failed', message: toGethEvmError(exec.exceptionError.error, opcode) }
    }
  }
  const callResult: CallResult = {
    outcome,
    returnValue: exec.returnValue,
    gasUsed: result.totalGasSpent,
    // Execution plus intrinsic gas is what was spent before the refund; the total is larger only
    // when the EIP-7623 calldata floor applied.
    maxUsedGas: max(exec.executionGasUsed + intrinsic, result.totalGasSpent),
    gasLimit: gas,
    state,
    run: result,
  }
  if (result.accessList) {
    callResult.accessList = result.accessList.map((e) => ({
      address: e.address.toLowerCase() as Hex,
      storageKeys: e.storageKeys.map((k) => k.toLowerCase() as Hex),
    }))
  }
  return callResult
}
