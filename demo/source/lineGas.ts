import type { SourceFrame, SourceScope } from '../../src/tracing/render/source/toSourceFrames.js'
import type { CallFrame } from '../traceTypes.js'

/** Gas per source line of one frame: `file:line` → the gas its instructions consumed. */
export type LineGas = Map<string, number>

/**
 * Gas per source line of each call, from edgetrace_sourceTracer's answer: its frames are the call
 * tree's calls (one recorded run: the same calls in the same order), so the n-th frame depth first is
 * the n-th call of the callTracer's tree. A line's gas is its own instructions' (an internal call's
 * lines counted apart, at their own lines; an external call's gas within the line that made it, as
 * the tracer counts it). Calls whose contract the daemon did not match have none.
 */
export function lineGasOf(tree: CallFrame, source: SourceFrame): Map<CallFrame, LineGas> {
  const calls: CallFrame[] = []
  const visitCalls = (c: CallFrame) => {
    calls.push(c)
    for (const child of c.calls ?? []) visitCalls(child)
  }
  visitCalls(tree)
  const frames: SourceFrame[] = []
  const visitFrames = (f: SourceFrame) => {
    frames.push(f)
    for (const child of f.calls ?? []) visitFrames(child)
  }
  visitFrames(source)
  const out = new Map<CallFrame, LineGas>()
  if (calls.length !== frames.length) return out
  frames.forEach((f, i) => {
    if (!f.contract) return
    const gas: LineGas = new Map()
    const add = (scope: SourceScope) => {
      for (const s of scope.steps)
        if (s.file !== null && s.line !== null)
          gas.set(`${s.file}:${s.line}`, (gas.get(`${s.file}:${s.line}`) ?? 0) + s.gasUsed)
      for (const c of scope.internalCalls ?? []) add(c)
    }
    add(f)
    out.set(calls[i]!, gas)
  })
  return out
}
