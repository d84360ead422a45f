import type { CallFrame } from '../traceTypes.js'

/** Where the step index says a frame's code starts: [step, depth, storage context]. */
export type FrameEntry = [number, number, string]

/**
 * Which call of the call tree each frame of the step index is (both in the order execution enters
 * them): `result[i]` is entries[i]'s call, undefined where none fits. The step index knows a frame by
 * its depth and storage context (under DELEGATECALL and CALLCODE, the caller's); a call that ran no
 * code (an account without code, a precompile, a call that failed before it started) has no entry,
 * so calls are taken in order, skipping those whose depth and context do not fit or that `ranCode`
 * says could not have run any.
 */
export function alignFrames(
  tree: CallFrame,
  entries: readonly FrameEntry[],
  ranCode: (call: CallFrame) => boolean = () => true,
): (CallFrame | undefined)[] {
  const calls: { call: CallFrame; depth: number; context: string }[] = []
  const visit = (call: CallFrame, depth: number, parentContext: string) => {
    const kind = call.type.toUpperCase()
    const context = kind === 'DELEGATECALL' || kind === 'CALLCODE' ? parentContext : (call.to ?? '').toLowerCase()
    calls.push({ call, depth, context })
    for (const c of call.calls ?? []) visit(c, depth + 1, context)
  }
  visit(tree, 1, (tree.to ?? '').toLowerCase())
  const out: (CallFrame | undefined)[] = []
  let next = 0
  for (const [, depth, address] of entries) {
    let found: CallFrame | undefined
    for (let i = next; i < calls.length; i++) {
      const c = calls[i]!
      if (c.depth === depth && c.context === address.toLowerCase() && ranCode(c.call)) {
        found = c.call
        next = i + 1
        break
      }
    }
    out.push(found)
  }
  return out
}
