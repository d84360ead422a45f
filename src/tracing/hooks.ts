/**
 * The small interface between the EVM and tracing, shaped after geth's core/tracing hooks
 * (OnTxStart/OnTxEnd/OnEnter/OnExit/OnOpcode/OnLog). Only src/evm/attachTracerHooks.ts produces
 * these; recorders consume them. Every hook is optional: what is not subscribed costs nothing.
 */

import type { Hex } from '../types/hex.js'

export type CallKind = 'CALL' | 'STATICCALL' | 'CALLCODE' | 'DELEGATECALL' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT'

export type TxStartInfo = {
  from: Hex
  /** undefined for a contract creation. */
  to: Hex | undefined
  gasLimit: bigint
  value: bigint
  input: Uint8Array
  /** The gas the transaction pays before any code runs (base, calldata, creation, access list, authorizations). */
  intrinsicGas: bigint
}

export type TxEndInfo = {
  /** Gas used by the transaction as its receipt says (after refunds). */
  gasUsed: bigint
  /** The top frame's output. */
  output: Uint8Array
  /** geth's error string when the transaction failed. */
  error?: string | undefined
}

export type EnterFrame = {
  depth: number
  kind: CallKind
  from: Hex
  /** The callee; for CREATE/CREATE2 the new address, known only at exit (see ExitFrame.address). */
  to: Hex | undefined
  input: Uint8Array
  /** Gas made available to the frame (for calls: after the 63/64 rule, stipend included). */
  gas: bigint
  /** undefined for DELEGATECALL and STATICCALL (no value moves). */
  value: bigint | undefined
  /** The callee is a precompile. */
  precompile: boolean
}

export type ExitFrame = {
  depth: number
  output: Uint8Array
  gasUsed: bigint
  /** geth's error string (`execution reverted`, `out of gas`, …). */
  error?: string | undefined
  /** The frame's state changes were rolled back. */
  reverted: boolean
  /** The created contract's address (CREATE/CREATE2 that succeeded, or failed after the address was known). */
  address?: Hex | undefined
  /** With opcode tracing: the frame's stack and memory when it stopped (after its last op). */
  final?: { stack: bigint[]; memory: Uint8Array; gas: bigint } | undefined
}

export type LogRecord = {
  address: Hex
  topics: Hex[]
  data: Uint8Array
  /** Index among the transaction's logs that are still standing when it is emitted (geth's log.Index). */
  index: number
}

export type OpcodeStep = {
  pc: number
  op: number
  opName: string
  /** Gas left before the op. */
  gas: bigint
  /** geth's cost of the op: static + dynamic, and for the CALL family the gas forwarded to the callee. */
  cost: bigint
  /** 1-based, as geth's struct logs count it. */
  depth: number
  /** The stack before the op (bottom first); owned by the receiver. */
  stack: bigint[]
  /** Memory before the op (not yet expanded by it); owned by the receiver. */
  memory: Uint8Array
  /** The storage context (the caller's address under DELEGATECALL). */
  address: Hex
  /** The transaction's refund counter before the op. */
  refund: bigint
  /** The return data of the frame's last call. */
  returnData: Uint8Array
  /** SLOAD: the slot and its current value; SSTORE: the slot and the value written (both 32 bytes). */
  slot?: { key: Uint8Array; value: Uint8Array } | undefined
  /** geth's error when the op failed before it ran (out of gas, stack underflow/overflow). */
  error?: string | undefined
  /** The STOP geth executes where code runs off its end (no such op is in the code). */
  implicit?: boolean | undefined
}

export type TracerHooks = {
  onTxStart?: (tx: TxStartInfo) => void
  onTxEnd?: (tx: TxEndInfo) => void
  onEnter?: (frame: EnterFrame) => void
  onExit?: (frame: ExitFrame) => void
  onOpcode?: (step: OpcodeStep) => void
  /**
   * An SSTORE about to run, its slot not yet written. Its step reaches onOpcode later (steps are
   * held until the next event completes them), by when the write is done: a receiver that reads the
   * state at the step as geth's OnOpcode does, before the op, reads the slot here.
   */
  onSstoreStart?: (step: OpcodeStep) => void
  /** A promise while the receiver of steps is behind (a streamed trace); the EVM waits on it. */
  onOpcodeDrain?: () => Promise<void> | undefined
  onLog?: (log: LogRecord) => void
}
