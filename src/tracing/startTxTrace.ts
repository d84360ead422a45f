import type { RunTxResult } from '@ethereumjs/vm'
import { TracerTimeoutError } from '../errors/execution.js'
import type { AbortCheck } from '../types/deadline.js'
import type { ChunkWriter } from '../types/chunkWriter.js'
import type { OverlayStateManager } from '../state/createOverlayStateManager.js'
import type { Block } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { Hex } from '../types/hex.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import type { TracerHooks } from './hooks.js'
import {
  type JsLoadedState,
  type JsTracerEnv,
  type JsTracerState,
  createJsTracerSession,
} from './js/createJsTracerSession.js'
import { jsTracerTxStarted } from './js/jsTracerTxStart.js'
import type { TracePlan } from './tracePlan.js'
import { createCallTraceRecorder } from './recorder/createCallTraceRecorder.js'
import { createStructLogWriter } from './render/geth/createStructLogWriter.js'
import type { FlatTraceContext } from './render/toFlatTraces.js'
import { collectStateAccess } from './state/collectStateAccess.js'

/** What the execution tells a session before the transaction runs (a JavaScript tracer's ctx and db). */
export type TraceBinding = {
  state: OverlayStateManager
  /** The block the transaction runs in (its coinbase, number and base fee as the EVM sees them). */
  block: Block
  tx: TypedTransaction
  /** The active precompiles' addresses. */
  precompiles: Iterable<string>
}

/** One transaction being traced: attach `hooks` and `signal` to its run, then `finish` with its result. */
export type TxTraceSession = {
  /** Told what the execution is, just before it runs (sessions that read state while it runs). */
  bind?: ((binding: TraceBinding) => void) | undefined
  hooks: TracerHooks
  /** Set once the per-transaction timeout has passed (checked at calls, jumps and creations). */
  signal: AbortCheck
  /** Renders the result (native tracers) or writes the tail of the struct logs (returns undefined). */
  finish(result: RunTxResult, state: OverlayStateManager): Promise<unknown>
  /** After a failed run: closes whatever JSON the struct logger has written (true if it wrote any). */
  abort(): Promise<boolean>
}

/**
 * The timeout as a deadline read on each check: timers cannot fire while the EVM computes. `pause`
 * moves it on by the time a wait took that is not the trace's own (its reader's backpressure).
 */
function deadline(ms: number): AbortCheck & { pause<T>(wait: Promise<T>): Promise<T> } {
  // The monotonic clock, to the microsecond: Date.now()'s whole milliseconds would let a sub-millisecond
  // timeout ("1ns", "500us") pass its first checks unnoticed when they fall in the same millisecond.
  let at = performance.now() + ms
  const reason = new TracerTimeoutError()
  return {
    get aborted() {
      return performance.now() >= at
    },
    reason,
    pause(wait) {
      const from = performance.now()
      return wait.finally(() => {
        at += performance.now() - from
      })
    },
  }
}

/**
 * Starts tracing one transaction for a plan: the struct logger streams its steps to `write`; a
 * named tracer gets the one recorder configured with what it needs, and renders once the
 * transaction has run (prestate from the state manager's read scope).
 */
export function startTxTrace(plan: TracePlan, context: FlatTraceContext, write?: ChunkWriter): TxTraceSession {
  const signal = deadline(plan.timeoutMs)
  if (plan.kind === 'structLogger') {
    if (!write) throw new Error('the struct logger needs a stream to write to')
    const writer = createStructLogWriter(plan.config, write)
    let output: Uint8Array = new Uint8Array(0)
    let error: string | undefined
    return {
      signal,
      hooks: {
        onOpcode: writer.onOpcode,
        // geth renders the whole answer before a byte goes out, so its timeout never counts the
        // client's reading; here the steps stream as they run, and a wait for the reader to take
        // them (or for the event loop to let other clients in) is not the trace's time. The
        // request's own deadline still bounds it all.
        onOpcodeDrain: () => {
          const wait = writer.drain()
          return wait && signal.pause(wait)
        },
        onExit(frame) {
          if (frame.depth !== 0) return
          output = frame.output
          error = frame.error
        },
      },
      async finish(result) {
        const failed = error !== undefined
        const returnValue = failed && error !== 'execution reverted' ? new Uint8Array(0) : output
        await writer.finish({ gas: result.totalGasSpent, failed, returnValue })
        return undefined
      },
      abort: writer.abort,
    }
  }
  if (plan.kind === 'js') return startJsTrace(plan, context, signal)
  const needs = plan.tracer.needs(plan.config)
  const recorder = createCallTraceRecorder({ logs: needs.logs, steps: needs.steps, preimages: needs.preimages })
  return {
    signal,
    hooks: recorder.hooks,
    async finish(_result, state) {
      const access = needs.state ? await collectStateAccess(state) : undefined
      const run = { arena: recorder.arena, access, context, sources: plan.sources, sourceLookup: plan.sourceLookup }
      return plan.tracer.render(run, plan.config)
    },
    abort: async () => false,
  }
}

/** A JavaScript tracer's session (in a hardened thread: see evaluateJsTracer), its db on the bound state. */
function startJsTrace(
  plan: Extract<TracePlan, { kind: 'js' }>,
  context: FlatTraceContext,
  signal: AbortCheck,
): TxTraceSession {
  let env: JsTracerEnv | undefined
  let base: VerifiedHeader | undefined
  jsTracerTxStarted()
  const session = createJsTracerSession({
    source: plan.source,
    config: plan.config,
    place: {
      blockHash: context.blockHash as Hex | undefined,
      txHash: context.transactionHash as Hex | undefined,
      txIndex: context.transactionPosition,
    },
    env: () => env,
  })
  return {
    signal,
    hooks: session.hooks,
    bind({ state, block, tx, precompiles }) {
      base = state.block
      const baseFee = block.header.baseFeePerGas
      env = {
        blockNumber: block.header.number,
        coinbase: block.header.coinbase.toString() as Hex,
        gasTip: baseFee === undefined ? ('gasPrice' in tx ? (tx.gasPrice as bigint) : 0n) : tipOf(tx, baseFee),
        precompiles: new Set([...precompiles].map((p) => (p.startsWith('0x') ? p : `0x${p}`).toLowerCase())),
        state: jsStateOf(state, plan.loaded),
      }
    },
    async finish() {
      let value: unknown
      try {
        value = session.result()
      } finally {
        // A run whose db missed state is run again once it is loaded: its result (or error) stands for nothing.
        const misses = session.misses()
        if (misses.length > 0) {
          plan.misses.push(...misses)
          plan.missedAt = base
        }
      }
      return value
    },
    abort: async () => false,
  }
}

/** geth's EffectiveGasTip: the fee cap less the base fee, at most the tip cap (a legacy price less the base fee). */
function tipOf(tx: TypedTransaction, baseFee: bigint): bigint {
  if ('maxPriorityFeePerGas' in tx) {
    const cap = (tx as { maxFeePerGas: bigint }).maxFeePerGas - baseFee
    const tip = (tx as { maxPriorityFeePerGas: bigint }).maxPriorityFeePerGas
    return cap < tip ? cap : tip
  }
  return (tx as { gasPrice: bigint }).gasPrice - baseFee
}

/**
 * The overlay's synchronous view for a tracer's db: what the execution has read or written, and
 * where it has not touched an item, its base value if an earlier run's miss loaded it.
 */
function jsStateOf(state: OverlayStateManager, loaded: JsLoadedState | undefined): JsTracerState {
  return {
    account(address) {
      const found = state.peekAccount(address)
      if (found === 'unknown' && loaded?.accounts.has(address)) return loaded.accounts.get(address) ?? undefined
      return found === 'unknown' || found === undefined ? found : { balance: found.balance, nonce: found.nonce }
    },
    code: (address) => {
      const found = state.peekCode(address)
      return found === 'unknown' ? (loaded?.code.get(address) ?? found) : found
    },
    storage: (address, slot) => {
      const found = state.peekStorage(address, slot)
      return found === 'unknown' ? (loaded?.storage.get(`${address}:${slot}`) ?? found) : found
    },
  }
}
