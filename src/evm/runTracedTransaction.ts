import type { Block } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import { type RunTxOpts, type RunTxResult, type VM, runTx } from '@ethereumjs/vm'
import { toGethEvmError } from '../errors/evmErrorMap.js'
import type { TracerHooks } from '../tracing/hooks.js'
import type { Hex } from '../types/hex.js'
import { type AttachOptions, attachTracerHooks } from './attachTracerHooks.js'
import { borFeeTransferLog } from './borTransferLog.js'
import type { WasmEngineState } from '../wasm/wasmEngineState.js'

/**
 * onTxStart → runTx with the hooks attached → onTxEnd (gas used as the receipt has it). Every run
 * goes through here, traced or not (empty hooks): the deadline and the scheduler are attached to
 * all of them, and the engine's wasm interpreter when it runs on one (`attach.engine`).
 */
export async function runTracedTransaction(
  vm: VM,
  tx: TypedTransaction,
  block: Block,
  hooks: TracerHooks,
  opts: Omit<RunTxOpts, 'tx' | 'block'> = {},
  attach: AttachOptions & { engine?: { wasm: WasmEngineState | undefined } | undefined } = {},
): Promise<RunTxResult> {
  const wasmState = attach.engine?.wasm
  const wasmEngine = wasmState ? await wasmState.engine() : undefined
  const attached = attachTracerHooks(vm.evm as never, hooks, {
    ...attach,
    wasm: wasmEngine && wasmState ? { engine: wasmEngine, counters: wasmState.counters } : undefined,
  })
  try {
    // bor's fee log names the sender's and the author's balances before the transaction.
    const feeLog = attach.borLogs && hooks.onLog !== undefined
    const sender = tx.getSenderAddress()
    const author = block.header.coinbase
    const balances = feeLog
      ? await Promise.all([
          vm.stateManager.getAccount(sender).then((a) => a?.balance ?? 0n),
          vm.stateManager.getAccount(author).then((a) => a?.balance ?? 0n),
        ])
      : undefined
    if (hooks.onTxStart)
      hooks.onTxStart({
        from: tx.getSenderAddress().toString() as Hex,
        to: tx.to?.toString() as Hex | undefined,
        gasLimit: tx.gasLimit,
        value: tx.value,
        input: tx.data,
        intrinsicGas: tx.getIntrinsicGas(),
      })
    let result: RunTxResult
    try {
      result = await runTx(vm, { ...opts, tx, block })
    } catch (err) {
      // Stopped by its deadline: the deadline's error, not whatever the EVM made of the interruption.
      if (attach.signal?.aborted) throw attach.signal.reason
      throw err
    }
    if (balances) {
      const log = borFeeTransferLog(
        sender.toString() as Hex,
        author.toString() as Hex,
        result.minerValue,
        balances[0],
        balances[1],
      )
      if (log) attached.emitLog(log)
    }
    const err = result.execResult.exceptionError
    if (hooks.onTxEnd)
      hooks.onTxEnd({
        gasUsed: result.totalGasSpent,
        output: result.execResult.returnValue,
        error: err ? toGethEvmError(err.error) : undefined,
      })
    return result
  } finally {
    attached.detach()
  }
}
