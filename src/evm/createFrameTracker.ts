import type { EVM, Message } from '@ethereumjs/evm'
import { toGethEvmError, toGethPrecompileError } from '../errors/evmErrorMap.js'
import type { CallKind, EnterFrame, LogRecord, TracerHooks } from '../tracing/hooks.js'
import { createAddressFromString } from '@ethereumjs/util'
import { borValueTransferLog } from './borTransferLog.js'
import type { Hex } from '../types/hex.js'
import type { AbortCheck } from '../types/deadline.js'
import type { StepListener } from './createStepListener.js'
import { readUsedMemory } from './readMemory.js'
import { throwIfAborted } from './throwIfAborted.js'
import type { FinishedRunState, Frame, RunState } from './types.js'
import { opcodeStackIO } from '../tracing/opcodeStackIO.js'

/** ethereumjs's `afterMessage` event: a frame's result. */
type MessageResult = {
  createdAddress?: { toString(): string }
  execResult: {
    exceptionError?: { error: string }
    returnValue: Uint8Array
    executionGasUsed: bigint
    runState?: FinishedRunState
  }
}

export type FrameTracker = {
  /** The frames now running, innermost last (shared with the step listener and the op wrappers). */
  readonly frames: Frame[]
  isPrecompile(address: Hex): boolean
  /**
   * The handler of a CALL/CREATE-family op is about to run: the message it makes gets that op's
   * kind (a CALL in a static frame looks like a STATICCALL to ethereumjs). Returns a mark for
   * endCallOpcode. (Two plain calls around the handler's await: one more async level per call
   * shows in the bench.)
   */
  beginCallOpcode(kind: CallKind): number
  /**
   * The handler returned: keeps the return data it left on the calling frame. False when ethereumjs
   * made no message since `mark`: it refused the call first (see refuse).
   */
  endCallOpcode(rs: RunState, mark: number): boolean
  /**
   * A call or create that failed the depth or balance check: ethereumjs emits nothing for it, geth
   * shows it as a frame that enters and fails at once.
   */
  refuse(frame: EnterFrame): void
  /** geth's log.Index for the next log (logs of reverted frames give their indexes back). */
  nextLogIndex(): number
  /** A log the protocol adds (not a LOG op: bor's transfer logs) to the current frame, with the next index. */
  emitLog(log: Omit<LogRecord, 'index'>): void
  /** Subscribes to the EVM's message events; returns the unsubscribe. */
  attach(): () => void
}

/**
 * OnEnter/OnExit from ethereumjs's message events, with geth's kinds, values and error wording.
 * A CREATE's address is known only once the init code starts (newContract) or at exit.
 */
export function createFrameTracker(
  evm: EVM,
  hooks: TracerHooks,
  frames: Frame[],
  steps: StepListener,
  signal: AbortCheck | undefined,
  /** A Bor chain: value transfers add bor's LogTransfer (told to onLog, in the frame they enter). */
  borLogs = false,
): FrameTracker {
  let logCount = 0
  let pendingKind: CallKind | undefined
  let messages = 0
  const precompiles = new Set([...evm.precompiles.keys()].map((k) => `0x${k}`.toLowerCase()))

  const onBeforeMessage = (msg: Message) => {
    if (hooks.onOpcode) steps.flush()
    throwIfAborted(signal)
    messages++
    const depth = msg.depth
    const parent = frames[frames.length - 1]
    let kind: CallKind
    if (depth === 0) kind = msg.to ? 'CALL' : 'CREATE'
    else if (pendingKind) kind = pendingKind
    else if (!msg.to) kind = msg.salt ? 'CREATE2' : 'CREATE'
    else if (msg.delegatecall) kind = 'DELEGATECALL'
    else kind = msg.isStatic ? 'STATICCALL' : 'CALL'
    pendingKind = undefined
    const isCreate = kind === 'CREATE' || kind === 'CREATE2'
    const target = msg.to ? (msg.to.toString() as Hex) : undefined
    const codeAddress = msg.to
      ? msg._codeAddress && msg._codeAddress !== msg.to
        ? (msg._codeAddress.toString() as Hex)
        : target
      : undefined
    const to = isCreate ? undefined : kind === 'DELEGATECALL' || kind === 'CALLCODE' ? codeAddress : target
    const from = depth === 0 || !parent ? (msg.caller.toString() as Hex) : parent.address
    const value = kind === 'STATICCALL' ? undefined : kind === 'DELEGATECALL' ? (parent?.value ?? msg.value) : msg.value
    frames.push({
      depth,
      kind,
      caller: msg.caller.toString() as Hex,
      address: target ?? '0x',
      value: value ?? 0n,
      logCountAtEnter: logCount,
      create: isCreate,
      codeAddress,
      inputLength: msg.data.length,
      returnData: new Uint8Array(0),
    })
    hooks.onEnter?.({
      depth,
      kind,
      from,
      to,
      input: msg.data.slice(),
      gas: msg.gasLimit,
      value,
      precompile: to !== undefined && precompiles.has(to),
    })
  }

  const onNewContract = (data: { address: { toString(): string } }) => {
    const top = frames[frames.length - 1]
    if (top) top.address = data.address.toString() as Hex
  }

  const emitLog = (log: Omit<LogRecord, 'index'>) => hooks.onLog?.({ ...log, index: logCount++ })
  const balanceOf = async (address: Hex) =>
    (await evm.stateManager.getAccount(createAddressFromString(address)))?.balance ?? 0n
  /**
   * bor's Transfer logs a message's value as it moves (CALL, CREATE, CREATE2; not CALLCODE, whose
   * value stays where it is, nor DELEGATECALL). A call's is read before ethereumjs moves it; a
   * create's once its address is known, after the sender paid. A read that fails emits nothing:
   * the EVM meets the same failure reading the same account next.
   */
  const logCallTransfer = async (msg: Message) => {
    const frame = frames[frames.length - 1]
    if (!frame || frame.create || frame.kind !== 'CALL' || msg.value <= 0n || !msg.to) return
    const from = msg.caller.toString() as Hex
    const to = msg.to.toString() as Hex
    const log = borValueTransferLog(from, to, msg.value, await balanceOf(from), await balanceOf(to))
    if (log) emitLog(log)
  }
  const logCreateTransfer = async (data: { address: { toString(): string } }) => {
    const frame = frames[frames.length - 1]
    const caller = frame?.caller
    if (!frame?.create || frame.value <= 0n || !caller) return
    const to = data.address.toString() as Hex
    const paid = await balanceOf(caller)
    const log = borValueTransferLog(caller, to, frame.value, paid + frame.value, await balanceOf(to))
    if (log) emitLog(log)
  }
  const settle = (work: Promise<void>, resolve: () => void) => void work.catch(() => undefined).then(resolve)
  const onBeforeMessageBor = (msg: Message, resolve: () => void) => {
    onBeforeMessage(msg)
    settle(logCallTransfer(msg), resolve)
  }
  const onNewContractBor = (data: { address: { toString(): string } }, resolve: () => void) => {
    onNewContract(data)
    settle(logCreateTransfer(data), resolve)
  }

  const onAfterMessage = (result: MessageResult) => {
    const frame = frames.pop()
    const err = result.execResult.exceptionError
    const runState = result.execResult.runState
    let error = err ? toGethEvmError(err.error, runState?.opCode) : undefined
    // geth's stack errors carry their figures: the stack's height and what the op needed (or allowed).
    if (runState && (err?.error === 'stack underflow' || err?.error === 'stack overflow')) {
      const [inputs, outputs] = opcodeStackIO(runState.opCode)
      const height = runState.stack?.getStack().length ?? 0
      error =
        err.error === 'stack underflow'
          ? `stack underflow (${height} <=> ${inputs})`
          : `stack limit reached ${height} (${1024 + inputs - outputs})`
    }
    // geth words an EIP-2200 SSTORE refused with ≤ 2300 gas left as a wrapped out-of-gas error.
    if (err?.error === 'out of gas' && frame?.sentry) error = 'out of gas: not enough gas for reentrancy sentry'
    if (err && frame?.codeAddress && precompiles.has(frame.codeAddress)) {
      error = toGethPrecompileError(frame.codeAddress, err.error, frame.inputLength)
    }
    let output: Uint8Array = result.execResult.returnValue.slice()
    let reverted = err !== undefined
    if (frame?.create && frame.returned !== undefined && err) {
      if (err.error === 'out of gas' || err.error === 'code store out of gas') {
        error = 'contract creation code storage out of gas'
        output = frame.returned
      }
      // Before Homestead, a deposit that cannot be paid leaves the contract without code, not reverted.
      if (err.error === 'code store out of gas') reverted = false
    }
    if (reverted && frame) logCount = frame.logCountAtEnter
    steps.endFrame(frame, err, error, runState)
    hooks.onExit?.({
      depth: frame?.depth ?? 0,
      output,
      gasUsed: result.execResult.executionGasUsed,
      error,
      reverted,
      address: result.createdAddress ? (result.createdAddress.toString() as Hex) : undefined,
      final:
        hooks.onOpcode && runState?.stack && runState.memory
          ? {
              stack: [...runState.stack.getStack()],
              memory: readUsedMemory(runState.memory, runState.memoryWordCount),
              gas: runState.gasLeft ?? 0n,
            }
          : undefined,
    })
  }

  return {
    frames,
    isPrecompile: (address) => precompiles.has(address),
    beginCallOpcode(kind) {
      pendingKind = kind
      return messages
    },
    endCallOpcode(rs, mark) {
      pendingKind = undefined
      const top = frames[frames.length - 1]
      if (top) top.returnData = rs.returnBytes
      return messages !== mark
    },
    refuse(frame) {
      hooks.onEnter?.(frame)
      hooks.onExit?.({
        depth: frame.depth,
        output: new Uint8Array(0),
        gasUsed: 0n,
        error: frame.depth > 1024 ? 'max call depth exceeded' : 'insufficient balance for transfer',
        reverted: true,
      })
    },
    nextLogIndex: () => logCount++,
    emitLog,
    attach() {
      const events = evm.events
      // Bor's logs need state reads: the listeners ethereumjs awaits (two arguments), only then.
      const bor = borLogs && hooks.onLog !== undefined
      const before = bor ? onBeforeMessageBor : onBeforeMessage
      const created = bor ? onNewContractBor : onNewContract
      events.on('beforeMessage', before as never)
      events.on('afterMessage', onAfterMessage as never)
      events.on('newContract', created as never)
      return () => {
        events.off('beforeMessage', before as never)
        events.off('afterMessage', onAfterMessage as never)
        events.off('newContract', created as never)
      }
    },
  }
}
