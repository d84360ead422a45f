import { opcodeStackIO } from '../opcodeStackIO.js'
import type { TracerHooks } from '../hooks.js'
import type { RecorderConfig } from './recorderConfig.js'
import type { CallTraceArena, CallTraceNode, VmFrame, VmOp } from './types.js'
import { gethOpcodeName } from '../gethOpcodeName.js'

/** Ops whose memory writes the VM trace shows: [offset index, length index or fixed length] from the top of the stack. */
const MEMORY_WRITES: Record<number, [number, number | { fixed: number }]> = {
  0x52: [0, { fixed: 32 }], // MSTORE
  0x53: [0, { fixed: 1 }], // MSTORE8
  0x51: [0, { fixed: 32 }], // MLOAD
  0x37: [0, 2], // CALLDATACOPY
  0x39: [0, 2], // CODECOPY
  0x3e: [0, 2], // RETURNDATACOPY
  0x3c: [1, 3], // EXTCODECOPY
  0x5e: [0, 2], // MCOPY
  0xf1: [5, 6], // CALL: the return window
  0xf2: [5, 6], // CALLCODE
  0xf4: [4, 5], // DELEGATECALL
  0xfa: [4, 5], // STATICCALL
}

/** Most KECCAK256 preimages one run keeps (the first ones; each 32 to 64 bytes). */
const MAX_PREIMAGES = 4096

/**
 * The bytes a KECCAK256 is about to hash, from the stack (offset, size) and memory before it: only
 * 32 to 64 of them, what a mapping's entry slot (key . slot) and an array's data slot hash.
 */
function hashedBytes(step: { stack: bigint[]; memory: Uint8Array }): Uint8Array | undefined {
  const top = step.stack.length - 1
  const offset = step.stack[top]
  const size = step.stack[top - 1]
  if (offset === undefined || size === undefined || size < 32n || size > 64n || offset > 1n << 32n) return undefined
  const out = new Uint8Array(Number(size))
  const at = Number(offset)
  // Memory not yet expanded reads as zeros.
  out.set(step.memory.subarray(Math.min(at, step.memory.length), Math.min(at + out.length, step.memory.length)))
  return out
}

export type CallTraceRecorder = {
  hooks: TracerHooks
  arena: CallTraceArena
}

/**
 * The one recorder: fills a flat arena of frames (each pointing at its parent and children by index,
 * as revm-inspectors' CallTraceArena) from the tracer hooks, recording logs only when asked.
 */
export function createCallTraceRecorder(config: RecorderConfig): CallTraceRecorder {
  const arena: CallTraceArena = {
    nodes: [],
    vmFrames: [],
    preimages: [],
    tx: { gasLimit: 0n, gasUsed: 0n, from: '0x', to: undefined, value: 0n, error: undefined },
  }
  const open: number[] = []
  const hooks: TracerHooks = {
    onTxStart(tx) {
      arena.tx.gasLimit = tx.gasLimit
      arena.tx.from = tx.from
      arena.tx.to = tx.to
      arena.tx.value = tx.value
    },
    onTxEnd(tx) {
      arena.tx.gasUsed = tx.gasUsed
      arena.tx.error = tx.error
    },
    onEnter(frame) {
      const parent = open[open.length - 1]
      const node: CallTraceNode = {
        index: arena.nodes.length,
        parent,
        children: [],
        depth: frame.depth,
        kind: frame.kind,
        from: frame.from,
        to: frame.to,
        input: frame.input,
        gas: frame.gas,
        value: frame.value,
        precompile: frame.precompile,
        output: new Uint8Array(0),
        gasUsed: 0n,
        error: undefined,
        reverted: false,
        created: undefined,
        logs: [],
      }
      arena.nodes.push(node)
      if (parent !== undefined) arena.nodes[parent]!.children.push(node.index)
      open.push(node.index)
    },
    onExit(frame) {
      const index = open.pop()
      if (index === undefined) return
      const node = arena.nodes[index]!
      node.output = frame.output
      node.gasUsed = frame.gasUsed
      node.error = frame.error
      node.reverted = frame.reverted
      if (frame.address) {
        node.created = frame.address
        if (node.kind === 'CREATE' || node.kind === 'CREATE2') node.to = frame.address
      }
    },
  }
  if (config.logs) {
    hooks.onLog = (log) => {
      // A log the protocol adds after the call ended (bor's fee log) goes to the root, as geth's
      // callTracer keeps its root frame on the stack.
      const index = open[open.length - 1] ?? (arena.nodes.length > 0 ? 0 : undefined)
      if (index === undefined) return
      const node = arena.nodes[index]!
      node.logs.push({ ...log, position: node.children.length })
    }
  }
  if (config.steps) recordVmOps(arena, hooks, open, config.preimages === true)
  return { hooks, arena }
}

/**
 * Adds VM-level op recording to the recorder's hooks: each op is kept pending in its frame until the
 * next op of that frame (or the frame's end) shows what it did.
 */
function recordVmOps(arena: CallTraceArena, hooks: TracerHooks, open: number[], preimages: boolean) {
  type Pending = { op: VmOp; stack: bigint[]; hashed?: Uint8Array | undefined }
  const hashes = new Set<bigint>()
  const frames: { frame: VmFrame; pending: Pending | undefined }[] = []
  /** Completes an op from what came after it: the next op of its frame, or the frame's final state. */
  const complete = (p: Pending, after: { stack: bigint[]; memory: Uint8Array; gas?: bigint } | undefined) => {
    const { op, stack } = p
    op.used = after?.gas ?? op.gas - op.cost
    if (!after) return
    const outputs = opcodeStackIO(op.op)[1]
    op.push = outputs > 0 ? after.stack.slice(-outputs) : []
    const hash = op.push[0]
    if (p.hashed && hash !== undefined && !hashes.has(hash) && hashes.size < MAX_PREIMAGES) {
      hashes.add(hash)
      arena.preimages.push({ input: p.hashed, hash })
    }
    const window = MEMORY_WRITES[op.op]
    if (window) {
      const top = stack.length - 1
      const off = Number(stack[top - window[0]] ?? 0n)
      const len = typeof window[1] === 'number' ? Number(stack[top - window[1]] ?? 0n) : window[1].fixed
      if (len > 0) {
        const data = new Uint8Array(len)
        data.set(after.memory.subarray(off, Math.min(off + len, after.memory.length)))
        op.mem = { off, data }
      }
    }
  }
  const enter = hooks.onEnter!
  hooks.onEnter = (frame) => {
    enter(frame)
    const frameIndex = arena.vmFrames.length
    arena.vmFrames.push({ node: open[open.length - 1]!, ops: [] })
    const parent = frames[frames.length - 1]
    if (parent?.pending) parent.pending.op.sub = frameIndex
    frames.push({ frame: arena.vmFrames[frameIndex]!, pending: undefined })
  }
  const exit = hooks.onExit!
  hooks.onExit = (frame) => {
    const top = frames.pop()
    if (top?.pending) complete(top.pending, frame.final)
    exit(frame)
  }
  hooks.onOpcode = (step) => {
    const top = frames[step.depth - 1]
    // The STOP past the end of the code is geth's struct-log step, not an op of OpenEthereum's VM trace.
    if (!top || step.implicit) return
    if (top.pending) complete(top.pending, step)
    // An op that could not start for its stack is not part of the VM trace (geth calls no hook for
    // it); one that ran out of gas is, without `ex`. An undefined opcode is kept, marked: Erigon lists
    // it, OpenEthereum does not.
    const skipped = step.error?.startsWith('stack')
    const stack = step.stack
    const op: VmOp = {
      pc: step.pc,
      op: step.op,
      name: gethOpcodeName(step.op, step.opName),
      invalid: step.opName === 'INVALID',
      cost: step.cost,
      gas: step.gas,
      used: undefined,
      push: [],
      mem: undefined,
      store:
        step.op === 0x55 && stack.length >= 2
          ? { key: stack[stack.length - 1]!, val: stack[stack.length - 2]! }
          : undefined,
      load: step.op === 0x54 && stack.length >= 1 ? stack[stack.length - 1]! : undefined,
      failed: step.error !== undefined,
      sub: undefined,
    }
    top.pending = undefined
    if (skipped) return
    top.frame.ops.push(op)
    if (!op.failed) top.pending = { op, stack, hashed: preimages && op.op === 0x20 ? hashedBytes(step) : undefined }
  }
}
