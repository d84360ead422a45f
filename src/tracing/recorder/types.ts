import type { CallKind, Hex, LogRecord } from '../hooks.js'

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

/** What one transaction's run left: frames (node 0 is the top call), and the transaction's totals. */
export type CallTraceArena = {
  nodes: CallTraceNode[]
  tx: { gasLimit: bigint; gasUsed: bigint; from: Hex; to: Hex | undefined; value: bigint; error: string | undefined }
}
