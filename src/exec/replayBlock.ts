import type { RunTxResult, VM } from '@ethereumjs/vm'
import { createVM, runTx } from '@ethereumjs/vm'
import { bytesToHex } from '@ethereumjs/util'
import { ReplayMismatchError } from '../errors/replay.js'
import { type OverlayStateManager, createOverlayStateManager } from '../state/createOverlayStateManager.js'
import type { AccessListEntry } from '../state/types.js'
import { BEACON_ROOTS_ADDRESS, HISTORY_STORAGE_ADDRESS, applySystemCalls } from './applySystemCalls.js'
import type { Engine } from './createEngine.js'
import type { LoadedBlock } from './loadBlock.js'
import { withTimeout } from './withTimeout.js'
import type { AbortCheck } from '../evm/attachTracerHooks.js'
import { runTracedTransaction } from '../evm/runTracedTransaction.js'
import type { TracerHooks } from '../tracing/hooks.js'

/** Tracing some of a replay's transactions. */
export type ReplayTracer = {
  /** Hooks for transaction `index`, or undefined to run it untraced. */
  begin(index: number): { hooks: TracerHooks; signal: AbortCheck } | undefined
  /** After a traced transaction ran (its receipt checked), with the state right after it. */
  end(index: number, result: RunTxResult, state: OverlayStateManager): Promise<void>
}

export type ReplayBlockParameters = {
  /** Run transactions 0..count-1 (all of them by default). */
  count?: number
  tracer?: ReplayTracer | undefined
}

export type ReplayedBlock = {
  vm: VM
  state: OverlayStateManager
  results: RunTxResult[]
}

/** Prefetches, in one round trip, what every block replay reads first: senders, recipients, coinbase, system contracts. */
async function prefetchBlock(engine: Engine, loaded: LoadedBlock, count: number): Promise<void> {
  const entries: AccessListEntry[] = [
    { address: bytesToHex(loaded.header.header.coinbase.bytes) as `0x${string}`, storageKeys: [] },
    { address: BEACON_ROOTS_ADDRESS, storageKeys: [] },
    { address: HISTORY_STORAGE_ADDRESS, storageKeys: [] },
  ]
  for (const tx of loaded.block.transactions.slice(0, count)) {
    entries.push({ address: tx.getSenderAddress().toString() as `0x${string}`, storageKeys: [] })
    if (tx.to) entries.push({ address: tx.to.toString() as `0x${string}`, storageKeys: [] })
    if ('accessList' in tx) {
      for (const [address, keys] of tx.accessList) {
        entries.push({ address: bytesToHex(address) as `0x${string}`, storageKeys: keys.map((k) => bytesToHex(k) as `0x${string}`) })
      }
    }
  }
  await engine.source.prefetch(loaded.parent, entries)
}

/**
 * Replays a block's first `count` transactions on the verified state after its parent: the fork's
 * system calls first, then each transaction. Each replayed transaction's gas used and status must
 * equal the upstream's receipt — a mismatch is an error, never a silently wrong result.
 */
export async function replayBlock(
  engine: Engine,
  loaded: LoadedBlock,
  { count = loaded.block.transactions.length, tracer }: ReplayBlockParameters = {},
): Promise<ReplayedBlock> {
  return withTimeout(engine.options.evmTimeoutMs, async (signal) => {
    await prefetchBlock(engine, loaded, count)
    const state = createOverlayStateManager({ source: engine.source, block: loaded.parent, signal })
    const common = loaded.header.common.copy()
    const vm = await createVM({ common, stateManager: state, blockchain: engine.headers.blockchainFor(loaded.header) })
    await applySystemCalls(state, loaded.block.header)
    const results: RunTxResult[] = []
    let blockGasUsed = 0n
    for (let i = 0; i < count; i++) {
      const tx = loaded.block.transactions[i]!
      const traced = tracer?.begin(i)
      const opts = { skipHardForkValidation: true, blockGasUsed }
      let result: RunTxResult
      if (traced) {
        state.beginReadScope()
        result = await runTracedTransaction(vm, tx, loaded.block, traced.hooks, opts, { signal: traced.signal })
      } else {
        result = await runTx(vm, { ...opts, tx, block: loaded.block })
      }
      blockGasUsed += result.totalGasSpent
      checkReceipt(loaded, i, result)
      results.push(result)
      if (traced) await tracer!.end(i, result, state)
    }
    return { vm, state, results }
  })
}

/** Checks a replayed transaction against the upstream's receipt. */
export function checkReceipt(loaded: LoadedBlock, index: number, result: RunTxResult): void {
  const receipt = loaded.receipts[index]!
  const where = `transaction ${receipt.transactionHash} (index ${index}) of block ${loaded.header.number} ${loaded.header.hash}`
  if (result.totalGasSpent !== receipt.gasUsed) {
    throw new ReplayMismatchError(`${where} used ${result.totalGasSpent} gas in replay, the upstream's receipt says ${receipt.gasUsed}`)
  }
  const status = result.execResult.exceptionError ? 0n : 1n
  if (receipt.status !== undefined && status !== receipt.status) {
    throw new ReplayMismatchError(`${where} ended with status ${status} in replay, the upstream's receipt says ${receipt.status}`)
  }
}
