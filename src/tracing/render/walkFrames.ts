import type { CallTraceArena, CallTraceNode } from '../recorder/types.js'

/**
 * Depth-first, pre-order walk of an arena's frames (the order of Parity's flat traces), skipping the
 * frames `visible` rejects together with what is below them; `visit` gets each frame, its
 * traceAddress and its visible children.
 */
export function walkFrames(
  arena: CallTraceArena,
  visible: (node: CallTraceNode) => boolean,
  visit: (node: CallTraceNode, traceAddress: number[], children: CallTraceNode[]) => void,
): void {
  const walk = (node: CallTraceNode, traceAddress: number[]) => {
    const children = node.children.map((i) => arena.nodes[i]!).filter(visible)
    visit(node, traceAddress, children)
    for (const [i, child] of children.entries()) walk(child, [...traceAddress, i])
  }
  const root = arena.nodes[0]
  if (root) walk(root, [])
}
