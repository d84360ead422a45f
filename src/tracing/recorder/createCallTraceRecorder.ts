import type { TracerHooks } from '../hooks.js'
import type { RecorderConfig } from './recorderConfig.js'
import type { CallTraceArena, CallTraceNode } from './types.js'

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
      const index = open[open.length - 1]
      if (index === undefined) return
      const node = arena.nodes[index]!
      node.logs.push({ ...log, position: node.children.length })
    }
  }
  return { hooks, arena }
}
