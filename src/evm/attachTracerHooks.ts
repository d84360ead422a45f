import type { EVM } from '@ethereumjs/evm'
import type { Message } from '@ethereumjs/evm'
import { bytesToHex, setLengthLeft, bigIntToBytes } from '@ethereumjs/util'
import { toGethEvmError, toGethPrecompileError } from '../errors/evmErrorMap.js'
import type { CallKind, OpcodeStep, TracerHooks } from '../tracing/hooks.js'
import type { Hex } from '../types/hex.js'
import { opcodeStackIO } from '../tracing/opcodeStackIO.js'

import type { AbortCheck } from '../types/deadline.js'

export type AttachOptions = {
  /** Stops execution (at the next call, create or jump) once aborted: trace and execution timeouts. */
  signal?: AbortCheck | undefined
  /**
   * Lets other work run during long executions: asked at calls, creates and every few jumps
   * whether the time slice is used up, and awaited then (see utils/yieldToEventLoop).
   */
  scheduler?: { shouldYield(): boolean; yieldToEventLoop(): Promise<void> } | undefined
}

/** Jumps between two looks at the clock (a deadline holds to well under a millisecond of EVM work). */
const JUMPS_PER_CHECK = 64

/**
 * THE adapter: the only file that touches @ethereumjs/evm's events and internals. It turns them into
 * TracerHooks and closes the gaps between ethereumjs 10.x and geth's hooks:
 *  - the call kind comes from the opcode that made the call (a CALL in a static frame looks like a
 *    STATICCALL to ethereumjs), observed by wrapping the handlers of the CALL/CREATE family, so that
 *    call-only tracing does not need a `step` listener (which makes execution about 3× slower);
 *  - calls that fail the depth or balance check emit no event in ethereumjs; geth shows them as
 *    frames, so they are synthesised here;
 *  - LOG0–LOG4 and SELFDESTRUCT are observed by wrapping their handlers (ethereumjs has no log
 *    event), with geth's log index (logs of reverted frames give their index back);
 *  - a CREATE's address is known only once the init code starts (newContract) or at exit;
 *  - `step` is subscribed to only when `onOpcode` is set. Each step is held until the next event so
 *    that what geth knows at its OnOpcode can be completed: the gas a CALL forwards (part of geth's
 *    cost), an error that stops the op before it runs (out of gas, stack underflow), and the value
 *    an SLOAD reads (the next step's stack top).
 * Returns detach().
 */
export function attachTracerHooks(evm: EVM, hooks: TracerHooks, options: AttachOptions = {}): () => void {
  type Frame = {
    depth: number
    address: Hex
    value: bigint
    logCountAtEnter: number
    create: boolean
    /** Code address and input length, for precompile error wording. */
    codeAddress: Hex | undefined
    inputLength: number
    returned?: Uint8Array
    sentry?: boolean
    /** The return data of the frame's last call (geth's evm.returnData). */
    returnData: Uint8Array
  }
  const frames: Frame[] = []
  let logCount = 0
  let pendingKind: CallKind | undefined
  let messages = 0
  const internals = evm as unknown as { _opcodeMap: ({ opHandler: Function; opcodeInfo: { isAsync: boolean } } | undefined)[] }
  const originalMap = internals._opcodeMap
  const patched = [...originalMap]
  const precompiles = new Set([...evm.precompiles.keys()].map((k) => `0x${k}`.toLowerCase()))

  const hexOf = (v: Uint8Array) => bytesToHex(v) as Hex
  const ADDRESS_MASK = (1n << 160n) - 1n
  const addressOf = (word: bigint) => `0x${(word & ADDRESS_MASK).toString(16).padStart(40, '0')}` as Hex
  const EMPTY = new Uint8Array(0)

  type RunState = {
    returnBytes: Uint8Array
    stack: { peek(n: number): bigint[] }
    memory: { read(offset: number, length: number): Uint8Array }
    env: { depth: number; address: { toString(): string } }
    messageGasLimit?: bigint
    interpreter: { getAddress(): { toString(): string } }
    stateManager: { getAccount(a: unknown): Promise<{ balance: bigint } | undefined> }
  }
  const read = (rs: RunState, offset: bigint, length: bigint) =>
    length === 0n ? new Uint8Array(0) : rs.memory.read(Number(offset), Number(length))

  function wrap(op: number, wrapper: (original: Function, isAsync: boolean) => Function) {
    const entry = originalMap[op]
    if (!entry) return
    patched[op] = { ...entry, opHandler: wrapper(entry.opHandler, entry.opcodeInfo.isAsync) }
  }

  const signal = options.signal
  const checkAbort = () => {
    if (signal?.aborted) throw signal.reason
  }
  let held: OpcodeStep | undefined
  /** Emits the held step (SLOAD learns its value from the stack the next step sees). */
  const flush = (nextStack?: bigint[]) => {
    const step = held
    if (!step) return
    held = undefined
    if (step.op === 0x54 && step.slot === undefined && nextStack && nextStack.length > 0) {
      step.slot = { key: word(step.stack[step.stack.length - 1]!), value: word(nextStack[nextStack.length - 1]!) }
    }
    hooks.onOpcode!(step)
  }
  const word = (v: bigint) => setLengthLeft(bigIntToBytes(v), 32)
  const afterCall = (rs: RunState) => {
    const top = frames[frames.length - 1]
    if (top) top.returnData = rs.returnBytes
  }

  const CALLS: Record<number, CallKind> = { 0xf1: 'CALL', 0xf2: 'CALLCODE', 0xf4: 'DELEGATECALL', 0xfa: 'STATICCALL' }
  if (hooks.onEnter || hooks.onExit || hooks.onOpcode) {
    for (const [opText, kind] of Object.entries(CALLS)) {
      const op = Number(opText)
      wrap(op, (original) => async (rs: RunState, common: unknown) => {
        const hasValue = kind === 'CALL' || kind === 'CALLCODE'
        const args = rs.stack.peek(hasValue ? 5 : 4)
        const value = hasValue ? args[2]! : 0n
        // Only a call that fails fast (depth limit; a value above the balance) needs its input here,
        // for the frame synthesised below: copy it only when that can happen.
        const mayFailFast = value !== 0n || rs.env.depth >= 1023
        const input = !mayFailFast ? EMPTY : hasValue ? read(rs, args[3]!, args[4]!) : read(rs, args[2]!, args[3]!)
        let gas = rs.messageGasLimit ?? 0n
        if (hasValue && value !== 0n) gas += 2300n
        if (held && held.op === op) {
          // geth counts the gas forwarded to the callee (before the stipend) in the CALL's cost.
          held.cost += rs.messageGasLimit ?? 0n
          flush()
        }
        checkAbort()
        pendingKind = kind
        const before = messages
        await original(rs, common)
        pendingKind = undefined
        afterCall(rs)
        if (messages === before) {
          // ethereumjs returned before creating a message: the depth limit or too little balance.
          const depth = rs.env.depth + 1
          const parent = frames[frames.length - 1]
          const to = addressOf(args[1]!)
          hooks.onEnter?.({
            depth,
            kind,
            from: rs.env.address.toString() as Hex,
            to,
            input,
            gas,
            value: kind === 'STATICCALL' ? undefined : kind === 'DELEGATECALL' ? (parent?.value ?? 0n) : value,
            precompile: precompiles.has(to),
          })
          hooks.onExit?.({
            depth,
            output: new Uint8Array(0),
            gasUsed: 0n,
            error: depth > 1024 ? 'max call depth exceeded' : 'insufficient balance for transfer',
            reverted: true,
          })
        }
      })
    }
    for (const [op, kind] of [[0xf0, 'CREATE'], [0xf5, 'CREATE2']] as const) {
      wrap(op, (original) => async (rs: RunState, common: unknown) => {
        const [value, offset, length] = rs.stack.peek(3)
        const input = read(rs, offset!, length!)
        const gas = rs.messageGasLimit ?? 0n
        flush()
        checkAbort()
        pendingKind = kind
        const before = messages
        await original(rs, common)
        pendingKind = undefined
        afterCall(rs)
        if (messages === before) {
          // Refused before a frame was made (depth limit, too little balance): geth shows the frame.
          const depth = rs.env.depth + 1
          hooks.onEnter?.({ depth, kind, from: rs.env.address.toString() as Hex, to: undefined, input, gas, value: value!, precompile: false })
          hooks.onExit?.({
            depth,
            output: new Uint8Array(0),
            gasUsed: 0n,
            error: depth > 1024 ? 'max call depth exceeded' : 'insufficient balance for transfer',
            reverted: true,
          })
        }
      })
    }
    // SSTORE's gas handler refuses to run with ≤ 2300 gas left (EIP-2200's sentry): remember it.
    const sstore = patched[0x55] as { gasHandler?: Function } | undefined
    if (sstore?.gasHandler && evm.common.gteHardfork('istanbul')) {
      const originalGas = sstore.gasHandler
      patched[0x55] = {
        ...(patched[0x55] as object),
        gasHandler: async (rs: RunState & { gasLeft: bigint }, gas: bigint, common: unknown) => {
          const left = rs.gasLeft
          try {
            return await originalGas(rs, gas, common)
          } catch (e) {
            const top = frames[frames.length - 1]
            if (top && left <= 2300n) top.sentry = true
            throw e
          }
        },
      } as never
    }
    // RETURN in init code: the code a CREATE deposits. ethereumjs reports a deposit that runs out of
    // gas as a plain "out of gas" with no output; geth says "contract creation code storage out of gas".
    wrap(0xf3, (original, isAsync) => {
      const observe = (rs: RunState) => {
        const top = frames[frames.length - 1]
        if (top?.create) {
          const [offset, length] = rs.stack.peek(2)
          top.returned = read(rs, offset!, length!)
        }
      }
      return isAsync
        ? async (rs: RunState, common: unknown) => {
            observe(rs)
            return original(rs, common)
          }
        : (rs: RunState, common: unknown) => {
            observe(rs)
            return original(rs, common)
          }
    })
    wrap(0xff, (original) => async (rs: RunState, common: unknown) => {
      const beneficiary = addressOf(rs.stack.peek(1)[0]!)
      const self = rs.interpreter.getAddress()
      const balance = (await rs.stateManager.getAccount(self))?.balance ?? 0n
      // Reported before the handler runs: ethereumjs ends the frame by throwing from it (STOP), and
      // nothing can fail in it any more (the static-context check happened in its gas handler).
      const depth = rs.env.depth + 1
      flush()
      hooks.onEnter?.({ depth, kind: 'SELFDESTRUCT', from: self.toString() as Hex, to: beneficiary, input: new Uint8Array(0), gas: 0n, value: balance, precompile: false })
      hooks.onExit?.({ depth, output: new Uint8Array(0), gasUsed: 0n, reverted: false })
      return original(rs, common)
    })
  }
  if (hooks.onLog) {
    for (let op = 0xa0; op <= 0xa4; op++) {
      wrap(op, (original) => (rs: RunState, common: unknown) => {
        const n = op - 0xa0
        const args = rs.stack.peek(2 + n)
        const data = read(rs, args[0]!, args[1]!)
        const topics = args.slice(2).map((t) => hexOf(setLengthLeft(bigIntToBytes(t), 32)))
        original(rs, common)
        flush()
        hooks.onLog!({ address: rs.interpreter.getAddress().toString() as Hex, topics, data, index: logCount++ })
      })
    }
  }
  const scheduler = options.scheduler
  if (signal || scheduler) {
    // Loops need a jump: checking there bounds pure computation too. A pause needs the interpreter
    // to await the handler, which it does only for async ops — and an await on every jump doubles
    // the cost of a tight loop. So the jumps stay sync; when a pause is due, the op entries are
    // flagged async until the next jump, which returns the pause for the interpreter to await.
    let jumps = 0
    let pauseDue = false
    const entries: { isAsync: boolean }[] = []
    const setAsync = (value: boolean) => {
      for (const info of entries) info.isAsync = value
    }
    for (const op of [0x56, 0x57]) {
      const entry = originalMap[op]
      if (!entry) continue
      const original = entry.opHandler
      // Our own copy of the op's info (the EVM's table is shared): only its isAsync is changed.
      const opcodeInfo = Object.assign(Object.create(Object.getPrototypeOf(entry.opcodeInfo)), entry.opcodeInfo) as { isAsync: boolean }
      entries.push(opcodeInfo)
      patched[op] = {
        ...entry,
        opcodeInfo,
        opHandler: (rs: RunState, common: unknown) => {
          if (pauseDue) {
            pauseDue = false
            setAsync(false)
            return scheduler!.yieldToEventLoop().then(() => {
              checkAbort()
              return original(rs, common)
            })
          }
          if (++jumps % JUMPS_PER_CHECK === 0) {
            checkAbort()
            if (scheduler?.shouldYield()) {
              pauseDue = true
              setAsync(true)
            }
          }
          return original(rs, common)
        },
      }
    }
  }
  internals._opcodeMap = patched

  const onBeforeMessage = (msg: Message) => {
    if (hooks.onOpcode) flush()
    checkAbort()
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
    const codeAddress = msg.to ? (msg._codeAddress && msg._codeAddress !== msg.to ? (msg._codeAddress.toString() as Hex) : target) : undefined
    const to = isCreate ? undefined : kind === 'DELEGATECALL' || kind === 'CALLCODE' ? codeAddress : target
    const from = depth === 0 || !parent ? (msg.caller.toString() as Hex) : parent.address
    const value = kind === 'STATICCALL' ? undefined : kind === 'DELEGATECALL' ? (parent?.value ?? msg.value) : msg.value
    frames.push({
      depth,
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

  const onAfterMessage = (result: {
    createdAddress?: { toString(): string }
    execResult: {
      exceptionError?: { error: string }
      returnValue: Uint8Array
      executionGasUsed: bigint
      runState?: {
        opCode: number
        gasLeft?: bigint
        gasRefund?: bigint
        programCounter?: number
        code?: Uint8Array
        stack?: { getStack(): bigint[] }
        memory?: { _store: Uint8Array }
        memoryWordCount?: bigint
      }
    }
  }) => {
    const frame = frames.pop()
    const err = result.execResult.exceptionError
    const runState = result.execResult.runState
    let error = err ? toGethEvmError(err.error, runState?.opCode) : undefined
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
    if (held) {
      // Errors geth finds before an op runs are reported on that op's step.
      const deposit = frame?.create && frame.returned !== undefined
      if (err && !deposit && held.depth === (frame?.depth ?? 0) + 1) held.error = stepError(err.error, held, error)
      flush()
    }
    // Code that runs off its end: ethereumjs stops without a step; geth executes the STOP its
    // GetOp returns past the code (core/vm/contract.go) and reports that step.
    const code = runState?.code
    const halted = runState !== undefined && (runState.opCode === 0x00 || runState.opCode === 0xf3 || runState.opCode === 0xff)
    if (hooks.onOpcode && !err && !halted && frame && code && code.length > 0 && (runState.programCounter ?? 0) >= code.length && runState.stack && runState.memory) {
      hooks.onOpcode({
        pc: runState.programCounter!,
        op: 0x00,
        opName: 'STOP',
        gas: runState.gasLeft ?? 0n,
        cost: 0n,
        depth: frame.depth + 1,
        stack: [...runState.stack.getStack()],
        memory: runState.memory._store.slice(0, Number(runState.memoryWordCount ?? 0n) * 32),
        address: frame.address,
        refund: runState.gasRefund ?? 0n,
        returnData: frame.returnData,
        implicit: true,
      })
    }
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
              memory: runState.memory._store.slice(0, Number(runState.memoryWordCount ?? 0n) * 32),
              gas: runState.gasLeft ?? 0n,
            }
          : undefined,
    })
  }

  const onStep = (step: {
    pc: number
    opcode: { name: string; code: number; dynamicFee?: bigint; fee: number }
    gasLeft: bigint
    gasRefund: bigint
    stack: bigint[]
    depth: number
    memory: Uint8Array
    address: { toString(): string }
  }) => {
    flush(step.stack)
    const op = step.opcode.code
    const stack = step.stack
    const next: OpcodeStep = {
      pc: step.pc,
      op,
      opName: step.opcode.name,
      gas: step.gasLeft,
      cost: step.opcode.dynamicFee ?? BigInt(step.opcode.fee),
      depth: step.depth + 1,
      stack,
      memory: step.memory,
      address: step.address.toString() as Hex,
      refund: step.gasRefund,
      returnData: frames[frames.length - 1]?.returnData ?? new Uint8Array(0),
    }
    if (op === 0x55 && stack.length >= 2) next.slot = { key: word(stack[stack.length - 1]!), value: word(stack[stack.length - 2]!) }
    held = next
  }

  const events = evm.events
  // Frames are followed only for a tracer; an untraced run gets just the interrupts.
  const tracing = Boolean(hooks.onEnter || hooks.onExit || hooks.onOpcode || hooks.onLog)
  if (tracing) {
    events.on('beforeMessage', onBeforeMessage as never)
    events.on('afterMessage', onAfterMessage as never)
    events.on('newContract', onNewContract as never)
  }
  // Every call and create starts a message: check the deadline there too (a deep tree of calls
  // needs no jump), and pause when the slice is used up. Two parameters: ethereumjs waits for it.
  const onMessageInterrupt = (_msg: unknown, resolve: () => void) => {
    checkAbort()
    if (scheduler?.shouldYield()) void scheduler.yieldToEventLoop().then(resolve)
    else resolve()
  }
  if (signal || scheduler) events.on('beforeMessage', onMessageInterrupt as never)
  // With a drain hook the listener takes ethereumjs's second argument: the EVM waits until it is called.
  const drain = hooks.onOpcodeDrain
  const stepListener = drain
    ? (step: Parameters<typeof onStep>[0], resolve: () => void) => {
        onStep(step)
        const pending = drain()
        if (pending) pending.then(resolve, resolve)
        else resolve()
      }
    : onStep
  if (hooks.onOpcode) events.on('step', stepListener as never)
  return () => {
    if (hooks.onOpcode) flush()
    internals._opcodeMap = originalMap
    if (tracing) {
      events.off('beforeMessage', onBeforeMessage as never)
      events.off('afterMessage', onAfterMessage as never)
      events.off('newContract', onNewContract as never)
    }
    if (signal || scheduler) events.off('beforeMessage', onMessageInterrupt as never)
    if (hooks.onOpcode) events.off('step', stepListener as never)
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
