import type { RunTxResult } from '@ethereumjs/vm'
import { TracerTimeoutError } from '../errors/execution.js'
import type { AbortCheck } from '../types/deadline.js'
import type { ChunkWriter } from '../types/chunkWriter.js'
import type { OverlayStateManager } from '../state/createOverlayStateManager.js'
import type { TracerHooks } from './hooks.js'
import type { TracePlan } from './tracePlan.js'
import { createCallTraceRecorder } from './recorder/createCallTraceRecorder.js'
import { createStructLogWriter } from './render/geth/createStructLogWriter.js'
import type { FlatTraceContext } from './render/toFlatTraces.js'
import { collectStateAccess } from './state/collectStateAccess.js'

/** One transaction being traced: attach `hooks` and `signal` to its run, then `finish` with its result. */
export type TxTraceSession = {
  hooks: TracerHooks
  /** Set once the per-transaction timeout has passed (checked at calls, jumps and creations). */
  signal: AbortCheck
  /** Renders the result (native tracers) or writes the tail of the struct logs (returns undefined). */
  finish(result: RunTxResult, state: OverlayStateManager): Promise<unknown>
  /** After a failed run: closes whatever JSON the struct logger has written (true if it wrote any). */
  abort(): Promise<boolean>
}

/** The timeout as a deadline read on each check: timers cannot fire while the EVM computes. */
function deadline(ms: number): AbortCheck {
  // The monotonic clock, to the microsecond: Date.now()'s whole milliseconds would let a sub-millisecond
  // timeout ("1ns", "500us") pass its first checks unnoticed when they fall in the same millisecond.
  const at = performance.now() + ms
  const reason = new TracerTimeoutError()
  return {
    get aborted() {
      return performance.now() >= at
    },
    reason,
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
        onOpcodeDrain: writer.drain,
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
  const needs = plan.tracer.needs(plan.config)
  const recorder = createCallTraceRecorder({ logs: needs.logs, steps: needs.steps })
  return {
    signal,
    hooks: recorder.hooks,
    async finish(_result, state) {
      const access = needs.state ? await collectStateAccess(state) : undefined
      return plan.tracer.render({ arena: recorder.arena, access, context }, plan.config)
    },
    abort: async () => false,
  }
}
