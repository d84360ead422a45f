/** geth's callTracer frame (withLog), as the explorer reads it. */
export type CallFrame = {
  type: string
  from: string
  to?: string
  value?: string
  gas: string
  gasUsed: string
  input: string
  output?: string
  error?: string
  revertReason?: string
  calls?: CallFrame[]
  logs?: { address: string; topics: string[]; data: string; position?: string }[]
}

/** prestateTracer in diffMode. */
export type AccountState = { balance?: string; nonce?: number; code?: string; storage?: Record<string, string> }
export type StateDiff = { pre: Record<string, AccountState>; post: Record<string, AccountState> }

/** The struct logger's stepIndex (an edgetrace extension), as the daemon writes it. */
export type { StepIndex } from '../src/tracing/render/geth/createStructLogWriter.js'

export type StructLog = {
  pc: number
  op: string
  gas: number
  gasCost: number
  depth: number
  error?: string
  stack?: string[]
  memory?: string[]
  storage?: Record<string, string>
  refund?: number
}

/** Walks a call tree depth first, with each frame's path from the root and whether an ancestor failed. */
export function walk(
  root: CallFrame,
  visit: (frame: CallFrame, path: number[], failedAbove: boolean) => void,
  path: number[] = [],
  failedAbove = false,
): void {
  visit(root, path, failedAbove)
  const failed = failedAbove || root.error !== undefined
  for (const [i, child] of (root.calls ?? []).entries()) walk(child, visit, [...path, i], failed)
}
