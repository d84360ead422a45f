import { bytesToHex } from '@ethereumjs/util'
import type { CallKind, TracerHooks } from '../../../tracing/hooks.js'
import type { Hex } from '../../../types/hex.js'

/** One frame of a previewed call, as the signals need it. */
export type SignalFrame = {
  kind: CallKind
  depth: number
  from: Hex
  to: Hex | undefined
  value: bigint | undefined
  precompile: boolean
  /** The frame itself was rolled back. */
  reverted: boolean
  /** The frame's revert data (empty for a plain `revert()`, Solidity's non-payable check among them). */
  output: Hex
  /** Index of the enclosing frame in the call's list, -1 at the top. */
  parent: number
}

/**
 * Frame hooks that keep the call tree of the first `calls` top-level calls of a simulation (the
 * preview's own calls; the reading block's calls after them are not kept): per call, its frames in
 * the order they were entered.
 */
export function createSignalFrameRecorder(calls: number) {
  const trees: SignalFrame[][] = []
  let stack: number[] = []
  let current: SignalFrame[] | undefined
  const hooks: Pick<TracerHooks, 'onEnter' | 'onExit'> = {
    onEnter(frame) {
      if (frame.depth === 0) {
        current = trees.length < calls ? [] : undefined
        if (current) trees.push(current)
        stack = []
      }
      if (!current) return
      stack.push(current.length)
      current.push({
        kind: frame.kind,
        depth: frame.depth,
        from: frame.from.toLowerCase() as Hex,
        to: frame.to?.toLowerCase() as Hex | undefined,
        value: frame.value,
        precompile: frame.precompile,
        reverted: false,
        output: '0x',
        parent: stack.length > 1 ? stack[stack.length - 2]! : -1,
      })
    },
    onExit(frame) {
      if (!current) return
      const at = stack.pop()
      if (at === undefined) return
      const entry = current[at]!
      entry.reverted = frame.reverted
      if (frame.reverted) entry.output = bytesToHex(frame.output) as Hex
      if (entry.to === undefined && frame.address) entry.to = frame.address.toLowerCase() as Hex
    },
  }
  return {
    hooks,
    /** Each call's frames, in order. */
    trees(): SignalFrame[][] {
      return trees
    },
  }
}

/** Whether the frame's effects stand: neither it nor any frame around it was rolled back. */
export function stands(frames: readonly SignalFrame[], at: number): boolean {
  for (let i = at; i >= 0; i = frames[i]!.parent) if (frames[i]!.reverted) return false
  return true
}
