import type { EVM } from '@ethereumjs/evm'
import type { OpcodeStep, TracerHooks } from '../tracing/hooks.js'
import type { Hex } from '../types/hex.js'
import { opcodeStackIO } from '../tracing/opcodeStackIO.js'
import { readUsedMemory } from './readMemory.js'
import { bytesOfWord } from './stackWords.js'
import type { FinishedRunState, Frame } from './types.js'
import { waitedListener } from './waitedListener.js'
import type { WasmStepSink } from '../wasm/createWasmEngine.js'

/** ethereumjs's `step` event: the op about to run. */
type StepEvent = {
  pc: number
  opcode: { name: string; code: number; dynamicFee?: bigint; fee: number }
  gasLeft: bigint
  gasRefund: bigint
  stack: bigint[]
  depth: number
  memory: Uint8Array
  address: { toString(): string }
}

export type StepListener = {
  /** Emits the held step, if any (an SLOAD learns its value from the stack the next step sees). */
  flush(nextStack?: bigint[]): void
  /** A CALL-family op runs: geth counts the gas it forwards to the callee (before the stipend) in its cost. */
  completeCall(op: number, forwarded: bigint): void
  /**
   * A frame ended: the held step gets the error geth finds before an op runs (out of gas, stack
   * underflow) and is emitted, then the STOP geth executes where code runs off its end.
   */
  endFrame(
    frame: Frame | undefined,
    evmError: { error: string } | undefined,
    gethError: string | undefined,
    runState: FinishedRunState | undefined,
  ): void
  /** Subscribes to the EVM's steps; returns the unsubscribe. */
  attach(evm: EVM): () => void
  /**
   * The same as a `step` event, for the wasm engine's stepped frames: their steps come here directly,
   * without ethereumjs's event object and its asynchronous emit (a promise per step). Answers a
   * promise while the receiver of steps is behind (the EVM waits on it).
   */
  sink: WasmStepSink
}

/**
 * OnOpcode from ethereumjs's `step` event (subscribed to only when onOpcode is set: it makes
 * execution about 3× slower). Each step is held until the next event, so that what geth knows at its
 * OnOpcode can be completed: the gas a CALL forwards, an error that stops the op before it runs, and
 * the value an SLOAD reads. `frames` is the adapter's frame stack (innermost last), for return data.
 */
export function createStepListener(hooks: TracerHooks, frames: readonly Frame[]): StepListener {
  let held: OpcodeStep | undefined
  const flush = (nextStack?: bigint[]) => {
    const step = held
    if (!step) return
    held = undefined
    if (step.op === 0x54 && step.slot === undefined && nextStack && nextStack.length > 0) {
      step.slot = {
        key: bytesOfWord(step.stack[step.stack.length - 1]!),
        value: bytesOfWord(nextStack[nextStack.length - 1]!),
      }
    }
    hooks.onOpcode!(step)
  }

  // A frame's steps carry the same Address object: its hex is made once per frame, not per step.
  let addressObject: StepEvent['address'] | undefined
  let addressHex = '' as Hex
  const see: WasmStepSink = (pc, op, opName, gasLeft, cost, stack, memory, depth, address, refund) => {
    flush(stack)
    if (address !== addressObject) {
      addressObject = address
      addressHex = address.toString() as Hex
    }
    const next: OpcodeStep = {
      pc,
      op,
      opName,
      gas: gasLeft,
      cost,
      depth: depth + 1,
      stack,
      memory,
      address: addressHex,
      refund,
      returnData: frames[frames.length - 1]?.returnData ?? new Uint8Array(0),
    }
    if (op === 0x55 && stack.length >= 2) {
      next.slot = { key: bytesOfWord(stack[stack.length - 1]!), value: bytesOfWord(stack[stack.length - 2]!) }
      hooks.onSstoreStart?.(next)
    }
    held = next
    return undefined
  }
  const onStep = (step: StepEvent) =>
    void see(
      step.pc,
      step.opcode.code,
      step.opcode.name,
      step.gasLeft,
      step.opcode.dynamicFee ?? BigInt(step.opcode.fee),
      step.stack,
      step.memory,
      step.depth,
      step.address,
      step.gasRefund,
    )
  const drain = hooks.onOpcodeDrain

  return {
    flush,
    sink: drain
      ? (pc, op, opName, gasLeft, cost, stack, memory, depth, address, refund) => {
          see(pc, op, opName, gasLeft, cost, stack, memory, depth, address, refund)
          return drain()
        }
      : see,
    completeCall(op, forwarded) {
      if (held && held.op === op) {
        held.cost += forwarded
        flush()
      }
    },
    endFrame(frame, err, error, runState) {
      if (held) {
        // Errors geth finds before an op runs are reported on that op's step.
        const deposit = frame?.create && frame.returned !== undefined
        if (err && !deposit && held.depth === (frame?.depth ?? 0) + 1) held.error = stepError(err.error, held, error)
        flush()
      }
      // Code that runs off its end: ethereumjs stops without a step; geth executes the STOP its
      // GetOp returns past the code (core/vm/contract.go) and reports that step.
      const code = runState?.code
      const halted =
        runState !== undefined && (runState.opCode === 0x00 || runState.opCode === 0xf3 || runState.opCode === 0xff)
      if (
        hooks.onOpcode &&
        !err &&
        !halted &&
        frame &&
        code &&
        code.length > 0 &&
        (runState.programCounter ?? 0) >= code.length &&
        runState.stack &&
        runState.memory
      ) {
        hooks.onOpcode({
          pc: runState.programCounter!,
          op: 0x00,
          opName: 'STOP',
          gas: runState.gasLeft ?? 0n,
          cost: 0n,
          depth: frame.depth + 1,
          stack: [...runState.stack.getStack()],
          memory: readUsedMemory(runState.memory, runState.memoryWordCount),
          address: frame.address,
          refund: runState.gasRefund ?? 0n,
          returnData: frame.returnData,
          implicit: true,
        })
      }
    },
    attach(evm) {
      // With a drain hook the listener takes ethereumjs's second argument: the EVM waits until the
      // receiver of steps has caught up.
      if (drain) {
        const listener = waitedListener((step: StepEvent) => {
          onStep(step)
          return drain()
        })
        evm.events.on('step', listener as never)
        return () => void evm.events.off('step', listener as never)
      }
      // Otherwise the step reaches onStep straight from the EVM's emit, synchronously: ethereumjs's
      // own emit is an async function that copies the listener list for every op (measured: 12 % of
      // a step-traced run). A listener stays registered, since ethereumjs builds a step only for one.
      const internals = evm as unknown as { _emit: (topic: string, data: unknown) => unknown }
      const original = internals._emit
      const registered = () => {}
      const emit = (topic: string, data: unknown) => {
        if (topic !== 'step') return original(topic, data)
        onStep(data as StepEvent)
        // Any other step listener is served as ethereumjs would.
        return evm.events.listenerCount('step') > 1 ? original(topic, data) : undefined
      }
      internals._emit = emit
      evm.events.on('step', registered as never)
      return () => {
        evm.events.off('step', registered as never)
        if (internals._emit === emit) internals._emit = original
      }
    },
  }
}

/** geth's error for an op that could not start: out of gas, or the stack check with its figures. */
function stepError(evmError: string, step: OpcodeStep, gethError: string | undefined): string | undefined {
  const [inputs, outputs] = opcodeStackIO(step.op)
  if (evmError === 'stack underflow') return `stack underflow (${step.stack.length} <=> ${inputs})`
  if (evmError === 'stack overflow') return `stack limit reached ${step.stack.length} (${1024 + inputs - outputs})`
  if (evmError === 'out of gas' || evmError === 'value overflow') return gethError
  return undefined
}
