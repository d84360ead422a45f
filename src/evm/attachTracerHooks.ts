import type { EVM } from '@ethereumjs/evm'
import type { LogRecord, TracerHooks } from '../tracing/hooks.js'
import type { AbortCheck } from '../types/deadline.js'
import { attachInterrupts } from './attachInterrupts.js'
import { createFrameTracker } from './createFrameTracker.js'
import { createOpcodeTablePatch } from './createOpcodeTablePatch.js'
import { createStepListener, type StepListener } from './createStepListener.js'
import type { Frame, Scheduler } from './types.js'
import { wrapFrameOpcodes } from './wrapFrameOpcodes.js'
import { wrapLogOpcodes } from './wrapLogOpcodes.js'
import { wrapSelfdestructOpcode } from './wrapSelfdestructOpcode.js'
import { nameUndefinedOpcodes } from './nameUndefinedOpcodes.js'
import { throwIfAborted } from './throwIfAborted.js'
import type { WasmEngine, WasmEngineCounters } from '../wasm/createWasmEngine.js'

export type AttachOptions = {
  /** Stops execution (at the next call, create or jump) once aborted: trace and execution timeouts. */
  signal?: AbortCheck | undefined
  /**
   * Lets other work run during long executions: asked at calls, creates and every few jumps
   * whether the time slice is used up, and awaited then (see utils/yieldToEventLoop).
   */
  scheduler?: Scheduler | undefined
  /**
   * A Bor chain: value transfers and each transaction's tip add bor's LogTransfer and LogFeeTransfer
   * (from 0x…1010), which onLog hears as bor's tracers do.
   */
  borLogs?: boolean | undefined
  /** The wasm engine (`--engine wasm`), loaded: its frames run there (step by step while a step listener is attached). */
  wasm?: { engine: WasmEngine; counters: WasmEngineCounters } | undefined
}

/** What attachTracerHooks leaves attached: its undo, and a way to add a protocol log with the next index. */
export type AttachedHooks = {
  detach(): void
  emitLog(log: Omit<LogRecord, 'index'>): void
}

/**
 * THE adapter: with the files it composes, the only code that touches @ethereumjs/evm's events and
 * internals. It turns them into TracerHooks and closes the gaps between ethereumjs 10.x and geth's
 * hooks:
 *  - frames (createFrameTracker) from the message events, their kind from the op that made the call
 *    (wrapFrameOpcodes: a CALL in a static frame looks like a STATICCALL to ethereumjs), and the
 *    calls that fail the depth or balance check, which emit no event but are frames in geth;
 *  - LOG0–LOG4 and SELFDESTRUCT from their handlers (wrapLogOpcodes, wrapSelfdestructOpcode);
 *  - steps (createStepListener), subscribed to only when onOpcode is set, each held until the next
 *    event so that what geth knows at its OnOpcode can be completed;
 *  - the deadline and the thread's time slice, checked at jumps and messages (attachInterrupts);
 *  - on a Bor chain, bor's transfer logs, which its StateDB adds outside any LOG op;
 *  - with the wasm engine, its frames (src/wasm/createWasmEngine.ts), which run this table's ops.
 * The op wrappers go into a copy of the EVM's opcode table (createOpcodeTablePatch), in use until
 * detach(), which is returned.
 */
export function attachTracerHooks(evm: EVM, hooks: TracerHooks, options: AttachOptions = {}): AttachedHooks {
  const table = createOpcodeTablePatch(evm)
  const detachers: (() => void)[] = [table.restore]
  let steps: StepListener | undefined
  let emitLog: AttachedHooks['emitLog'] = () => {}
  // Frames are followed only for a tracer; an untraced run gets just the interrupts.
  if (hooks.onEnter || hooks.onExit || hooks.onOpcode || hooks.onLog) {
    const frames: Frame[] = []
    steps = createStepListener(hooks, frames)
    const tracker = createFrameTracker(evm, hooks, frames, steps, options.signal, options.borLogs === true)
    emitLog = tracker.emitLog
    if (hooks.onEnter || hooks.onExit || hooks.onOpcode) {
      wrapFrameOpcodes(table, evm, tracker, steps, options.signal)
      wrapSelfdestructOpcode(table, hooks, steps)
    }
    if (hooks.onLog) wrapLogOpcodes(table, hooks, tracker, steps)
    detachers.push(tracker.attach())
    if (hooks.onOpcode) {
      nameUndefinedOpcodes(table)
      detachers.push(steps.attach(evm))
    }
  }
  // After the frame listeners: a message is entered before it may pause.
  const detachInterrupts = attachInterrupts(evm, table, options.signal, options.scheduler)
  if (detachInterrupts) detachers.push(detachInterrupts)
  if (options.wasm) {
    // The wasm interpreter runs jumps without their handlers: it stops every so often to ask the same.
    const { signal, scheduler } = options
    const interrupt =
      signal || scheduler
        ? () => {
            throwIfAborted(signal)
            return scheduler?.shouldYield() ? scheduler.yieldToEventLoop() : undefined
          }
        : undefined
    // Steps of wasm instructions go to the step listener directly (no event object, no asynchronous emit).
    const wasmSteps = hooks.onOpcode ? steps?.sink : undefined
    detachers.push(options.wasm.engine.attach(evm, { counters: options.wasm.counters, interrupt, steps: wasmSteps }))
  }
  table.install()
  return {
    detach() {
      // The last step is still held: no event follows it any more.
      if (hooks.onOpcode) steps?.flush()
      for (const detach of detachers) detach()
    },
    emitLog: (log) => emitLog(log),
  }
}
