import type { CallContext } from '../types/progress.js'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import { createVM } from '@ethereumjs/vm'
import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import { UpstreamRpcError } from '../errors/upstream.js'
import { parseAccessList } from './prepareCall.js'
import { ReplayMismatchError } from '../errors/replay.js'
import { type OverlayStateManager, createOverlayStateManager } from '../state/createOverlayStateManager.js'
import type { AccessListEntry } from '../state/types.js'
import { BEACON_ROOTS_ADDRESS, HISTORY_STORAGE_ADDRESS, applySystemCalls } from './applySystemCalls.js'
import type { Engine } from './createEngine.js'
import type { LoadedBlock } from './loadBlock.js'
import { withTimeout } from './withTimeout.js'
import type { Deadline } from '../types/deadline.js'
import { anyAborted } from '../utils/createDeadline.js'
import { COOPERATIVE } from './cooperative.js'
import { runTracedTransaction } from '../evm/runTracedTransaction.js'
import { chainEvmOptions, creditBorBurn, executionBlock } from './borExecution.js'
import type { TxTraceSession } from '../tracing/startTxTrace.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import { callArgsOfTransaction, toRpcCallArgs } from './callArgs.js'
import type { Hex } from '../types/hex.js'

/** Tracing some of a replay's transactions. */
export type ReplayTracer = {
  /** Hooks for transaction `index`, or undefined to run it untraced. */
  begin(index: number): Pick<TxTraceSession, 'hooks' | 'signal' | 'bind'> | undefined
  /** After a traced transaction ran (its receipt checked), with the state right after it. */
  end(index: number, result: RunTxResult, state: OverlayStateManager): Promise<void>
}

export type ReplayBlockParameters = {
  /** Run transactions 0..count-1 (all of them by default). */
  count?: number
  tracer?: ReplayTracer | undefined
  /** Told after each transaction (a block traced for a client with a progress bar). */
  progress?: CallContext['progress'] | undefined
  /** The request's one deadline when it runs more after this replay (see executeCall's `deadline`). */
  deadline?: Deadline | undefined
}

export type ReplayedBlock = {
  vm: VM
  state: OverlayStateManager
  results: RunTxResult[]
}

/** A mined transaction as eth_createAccessList call arguments (its own nonce and list left out). */
const toAccessListCall = (tx: TypedTransaction) =>
  toRpcCallArgs({ ...callArgsOfTransaction(tx), nonce: undefined, accessList: undefined })

/**
 * Prefetches what a block replay will read, in as few sequential round trips as the upstream allows:
 * 1. what every replay reads first (senders, recipients, coinbase, system contracts, the
 *    transactions' own access lists) together with — speculatively, on the parent's state — each
 *    transaction's eth_createAccessList, all in one batch;
 * 2. every account and slot those lists name, in one batch.
 * The lists only steer prefetching (each transaction's list is computed without the block's earlier
 * transactions, so it can miss what they create; that is then read on demand). They are kept per
 * block so that a second replay asks nothing.
 */
export async function prefetchBlock(
  engine: Engine,
  loaded: LoadedBlock,
  count = loaded.block.transactions.length,
): Promise<void> {
  const entries: AccessListEntry[] = [
    { address: bytesToHex(loaded.header.header.coinbase.bytes) as Hex, storageKeys: [] },
    { address: BEACON_ROOTS_ADDRESS, storageKeys: [] },
    { address: HISTORY_STORAGE_ADDRESS, storageKeys: [] },
  ]
  const txs = loaded.block.transactions.slice(0, count)
  for (const tx of txs) {
    entries.push({ address: tx.getSenderAddress().toString() as Hex, storageKeys: [] })
    if (tx.to) entries.push({ address: tx.to.toString() as Hex, storageKeys: [] })
    if ('accessList' in tx) {
      for (const [address, keys] of tx.accessList) {
        entries.push({ address: bytesToHex(address) as Hex, storageKeys: keys.map((k) => bytesToHex(k) as Hex) })
      }
    }
  }
  const key = cacheKeys.blockAccessLists(loaded.header.hash, count)
  if (engine.cache.restore) await engine.cache.restore([key])
  let lists = engine.cache.get<AccessListEntry[]>(key)
  // Lists are kept only when every transaction's was answered (or refused as unsupported).
  let complete = true
  const listsP =
    lists !== undefined || !engine.accessListSupported
      ? Promise.resolve(lists)
      : Promise.all(
          txs.map((tx) =>
            engine.upstream
              .request('eth_createAccessList', [toAccessListCall(tx), { blockHash: loaded.parent.hash }])
              .then((r) => parseAccessList(r) ?? [])
              .catch((err: unknown) => {
                if (err instanceof UpstreamRpcError && err.code === -32601) engine.accessListSupported = false
                else if (!(err instanceof UpstreamRpcError)) complete = false
                return [] as AccessListEntry[]
              }),
          ),
        ).then((all) => all.flat())
  const [, fetched] = await Promise.all([engine.source.prefetch(loaded.parent, entries), listsP])
  if (fetched !== undefined && lists === undefined) {
    lists = fetched
    if (complete) engine.cache.set(key, lists, 256 + 96 * lists.length)
  }
  if (lists && lists.length > 0) await engine.source.prefetch(loaded.parent, lists)
}

/**
 * Replays a block's first `count` transactions on the verified state after its parent: the fork's
 * system calls first, then each transaction. Each replayed transaction's gas used and status must
 * equal the upstream's receipt — a mismatch is an error, never a silently wrong result.
 */
export async function replayBlock(
  engine: Engine,
  loaded: LoadedBlock,
  { count = loaded.block.transactions.length, tracer, progress, deadline }: ReplayBlockParameters = {},
): Promise<ReplayedBlock> {
  return withTimeout(
    engine.options.evmTimeoutMs,
    async (signal) => {
      await prefetchBlock(engine, loaded, count)
      const state = createOverlayStateManager({ source: engine.source, block: loaded.parent, signal })
      const common = loaded.header.common.copy()
      const vm = await createVM({
        common,
        stateManager: state,
        blockchain: engine.headers.blockchainFor(loaded.header),
        evmOpts: chainEvmOptions(engine.rules, loaded.block.header),
      })
      await applySystemCalls(state, loaded.block.header)
      const context = executionBlock(engine.rules, loaded.block)
      const results: RunTxResult[] = []
      let blockGasUsed = 0n
      for (let i = 0; i < count; i++) {
        const tx = loaded.block.transactions[i]!
        if (COOPERATIVE.shouldYield()) await COOPERATIVE.yieldToEventLoop()
        const traced = tracer?.begin(i)
        const opts = { skipHardForkValidation: true, blockGasUsed }
        if (traced) state.beginReadScope()
        traced?.bind?.({ state, block: context, tx, precompiles: vm.evm.precompiles.keys() })
        const result: RunTxResult = await runTracedTransaction(vm, tx, context, traced?.hooks ?? {}, opts, {
          signal: anyAborted(signal, traced?.signal),
          scheduler: COOPERATIVE,
          borLogs: engine.rules.bor !== undefined,
          engine,
        })
        // A Bor block's base fee is not burnt but paid to its burnt contract (within the transaction's reads).
        await creditBorBurn(state, engine.rules, loaded.block.header, result.totalGasSpent)
        blockGasUsed += result.totalGasSpent
        checkReceipt(loaded, i, result)
        results.push(result)
        if (traced) await tracer!.end(i, result, state)
        progress?.({ done: i + 1, total: count, unit: 'transactions' })
      }
      return { vm, state, results }
    },
    deadline,
  )
}

/** Checks a replayed transaction against the upstream's receipt. */
export function checkReceipt(loaded: LoadedBlock, index: number, result: RunTxResult): void {
  const receipt = loaded.receipts[index]!
  const where = `transaction ${receipt.transactionHash} (index ${index}) of block ${loaded.header.number} ${loaded.header.hash}`
  if (result.totalGasSpent !== receipt.gasUsed) {
    throw new ReplayMismatchError(
      `${where} used ${result.totalGasSpent} gas in replay, the upstream's receipt says ${receipt.gasUsed}`,
    )
  }
  const status = result.execResult.exceptionError ? 0n : 1n
  if (receipt.status !== undefined && status !== receipt.status) {
    throw new ReplayMismatchError(
      `${where} ended with status ${status} in replay, the upstream's receipt says ${receipt.status}`,
    )
  }
}
