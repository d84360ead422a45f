import type { CallKind } from '../tracing/hooks.js'
import type { Hex } from '../types/hex.js'

/** What the op wrappers read of ethereumjs's run state (interpreter internals, typed here once). */
export type RunState = {
  returnBytes: Uint8Array
  stack: { peek(n: number): bigint[] }
  memory: { read(offset: number, length: number): Uint8Array }
  env: { depth: number; address: { toString(): string } }
  messageGasLimit?: bigint
  interpreter: { getAddress(): { toString(): string } }
  stateManager: { getAccount(a: unknown): Promise<{ balance: bigint } | undefined> }
}

/** The run state afterMessage hands over with a frame's result (absent for precompiles). */
export type FinishedRunState = {
  opCode: number
  gasLeft?: bigint
  gasRefund?: bigint
  programCounter?: number
  code?: Uint8Array
  stack?: { getStack(): bigint[] }
  memory?: { _store: Uint8Array }
  memoryWordCount?: bigint
}

/**
 * An op's handler. The interpreter awaits what it returns only when the op's entry is flagged async,
 * so a plain function that returns the original handler's result serves sync and async ops alike.
 */
export type OpHandler = (rs: RunState, common: unknown) => unknown

/** An entry of the EVM's opcode table (its `_opcodeMap`), which the interpreter looks up on every step. */
export type OpcodeEntry = { opHandler: Function; gasHandler?: Function; opcodeInfo: { isAsync: boolean } }

/** Shares the one thread during long executions (see utils/yieldToEventLoop). */
export type Scheduler = { shouldYield(): boolean; yieldToEventLoop(): Promise<void> }

/** A frame being executed, as the adapter follows it from its message's start to its end. */
export type Frame = {
  depth: number
  /** The frame's kind as geth names it. */
  kind?: CallKind
  /** Who sent the message (for a DELEGATECALL, the caller of the frame it runs in). */
  caller?: Hex
  address: Hex
  value: bigint
  logCountAtEnter: number
  create: boolean
  /** Code address and input length, for precompile error wording. */
  codeAddress: Hex | undefined
  inputLength: number
  /** What a RETURN in init code hands back: the code a CREATE deposits. */
  returned?: Uint8Array
  /** SSTORE was refused by EIP-2200's sentry (≤ 2300 gas left). */
  sentry?: boolean
  /** The return data of the frame's last call (geth's evm.returnData). */
  returnData: Uint8Array
}
