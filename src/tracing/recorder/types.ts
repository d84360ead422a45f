import type { CallKind, LogRecord } from '../hooks.js'
import type { Hex } from '../../types/hex.js'

/** A log as recorded: where it stands among its frame's child calls (geth's `position`). */
export type CallLog = LogRecord & { position: number }

/** One frame of the neutral call-trace arena; no output format is known here. */
export type CallTraceNode = {
  index: number
  parent: number | undefined
  children: number[]
  depth: number
  kind: CallKind
  from: Hex
  to: Hex | undefined
  input: Uint8Array
  gas: bigint
  value: bigint | undefined
  precompile: boolean
  output: Uint8Array
  gasUsed: bigint
  error: string | undefined
  reverted: boolean
  /** Created contract (CREATE/CREATE2). */
  created: Hex | undefined
  logs: CallLog[]
}

/**
 * One executed opcode as the VM-level trace needs it, completed from what the next op of its frame
 * saw: the values it pushed, the gas left after it (after the callee returned, for calls), the
 * memory it wrote, the slot it stored.
 */
export type VmOp = {
  pc: number
  op: number
  /** geth's name of the op (gethOpcodeName). */
  name: string
  /** An opcode the fork does not define (or 0xfe): Erigon lists it, OpenEthereum leaves it out. */
  invalid: boolean
  cost: bigint
  gas: bigint
  /** undefined until the op is completed; null when it failed. */
  used: bigint | undefined
  push: bigint[]
  mem: { off: number; data: Uint8Array } | undefined
  store: { key: bigint; val: bigint } | undefined
  /** SLOAD: the slot it read. */
  load: bigint | undefined
  failed: boolean
  /** The frame this op entered (calls and creates): an index into `vmFrames`. */
  sub: number | undefined
}

/** The ops one frame executed; `node` is the frame's index in `nodes`. */
export type VmFrame = { node: number; ops: VmOp[] }

/** Bytes one KECCAK256 hashed and the hash it pushed. */
export type KeccakRecord = { input: Uint8Array; hash: bigint }

/** What one transaction's run left: frames (node 0 is the top call), and the transaction's totals. */
export type CallTraceArena = {
  nodes: CallTraceNode[]
  /** Per frame, the ops it executed (recorded only when steps are asked for); vmFrames[0] is the top frame. */
  vmFrames: VmFrame[]
  /** KECCAK256 inputs of 32 to 64 bytes, each once, in the order first hashed (recorded only when asked for). */
  preimages: KeccakRecord[]
  tx: { gasLimit: bigint; gasUsed: bigint; from: Hex; to: Hex | undefined; value: bigint; error: string | undefined }
}
