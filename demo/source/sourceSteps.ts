import type { SourceLocation, SourceLocator } from '../../src/sources/createSourceLocator.js'

// The stepper at the source level, as pure data: each struct-log step annotated with where it is in
// the Solidity sources and in which function (external frames by depth, internal calls from the
// source map's jump types), and the step over / into / out targets computed from those annotations.

/** One struct-log step, as much as the source level needs. */
export type RawStep = { pc: number; op: string; depth: number }

/** The code an external frame runs, as the page could match it. */
export type FrameSource = {
  /** Said in the call stack: `Token.transferFrom`, `0x5fbd….transfer`, `new Child`. */
  label: string
  /** Its contract's source map; undefined when its code matched no known contract (or it is a creation). */
  locator?: SourceLocator | undefined
  /** The text of a source file of its contract's compilation, by path. */
  text?: ((file: string) => string | undefined) | undefined
  /** Gas per source line (`file:line`) in this frame, when the daemon traced it at the source level. */
  gas?: ReadonlyMap<string, number> | undefined
}

/** A function on the call stack: an external frame, or an internal call it made (a JUMP marked `i`). */
export type StackNode = {
  readonly id: number
  readonly kind: 'external' | 'internal'
  readonly name: string
  readonly parent: StackNode | undefined
  /** Functions on the stack, this one included. */
  readonly level: number
  /** The line its caller was at when it called it (undefined: no known line). */
  readonly callLine: { file: string; line: number } | undefined
  /**
   * The source range of its function's definition: located steps outside it are code the optimizer
   * shares between functions and are shown as no line. An external frame takes its entry function's
   * range when the dispatcher jumps into it (that internal call is the frame itself, not a new one).
   */
  range: { s: number; l: number; f: number } | undefined
  /** The first line of its function's definition (with `range`), and whether the definition goes on past it. */
  header: { file: string; line: number; multiline: boolean } | undefined
}

/** A step at the source level. */
export type SourceStep = {
  /** The innermost function it runs in. */
  node: StackNode
  /** The code its frame runs. */
  frame: FrameSource
  /** Where it is in the sources; null for code with no source (the compiler's helpers, code without sources). */
  at: SourceLocation | null
  /** The byte range of `at` in its file (for highlighting). */
  range: { s: number; l: number } | null
  /** Which statement it runs: the function instance and the source line; null with no location. */
  key: string | null
  /** Its line, or with none the last line its function was at (where a person would say it is). */
  near: { file: string; line: number } | undefined
}

const FUNCTION = /^function\s+([A-Za-z_$][\w$]*)\s*\(/
const CONTRACT = /^(abstract\s+contract|contract|library|interface)\s/

type RawCall = { node: StackNode | undefined; merged: boolean; decided: boolean }
type FrameState = { node: StackNode; source: FrameSource; calls: RawCall[] }

/**
 * Annotates steps as they come (in order, from step 0): `add` the next ones, read `steps`. `frameAt`
 * says what code a frame entered at a step (the step where the depth grew) runs.
 */
export function createSourceStepAnnotator(frameAt: (step: number, depth: number) => FrameSource) {
  const steps: SourceStep[] = []
  const frames: FrameState[] = []
  let nextId = 0
  let lastDepth = 0
  /** The last located line per stack node, for the line its next callee is called from. */
  const lineOf = new Map<number, { file: string; line: number }>()
  const push = (kind: StackNode['kind'], name: string, parent: StackNode | undefined): StackNode => ({
    id: nextId++,
    kind,
    name,
    parent,
    level: (parent?.level ?? 0) + 1,
    callLine: parent ? lineOf.get(parent.id) : undefined,
    range: undefined,
    header: undefined,
  })
  /** Nodes whose definition a step has stopped at already (their entry). */
  const entered = new Set<number>()
  const top = () => frames[frames.length - 1]!
  const current = (f: FrameState) => {
    for (let i = f.calls.length - 1; i >= 0; i--) if (f.calls[i]!.node) return f.calls[i]!.node!
    return f.node
  }
  const within = (r: { s: number; l: number; f: number }, outer: { s: number; l: number; f: number } | undefined) =>
    !outer || (r.f === outer.f && r.s >= outer.s && r.s + r.l <= outer.s + outer.l)

  /**
   * Whether a located step is a statement to stop at: not a contract's whole range (the dispatcher),
   * a function's definition only on entering it, and not the parts of a function's header (its
   * parameters and return values, which the compiler maps its code to between statements).
   */
  function stops(node: StackNode, at: SourceLocation): boolean {
    if (CONTRACT.test(at.text)) return false
    if (FUNCTION.test(at.text)) {
      if (entered.has(node.id)) return false
      entered.add(node.id)
      return true
    }
    const header = node.header
    return !(header?.multiline && at.file === header.file && at.line === header.line)
  }

  function add(raw: RawStep): SourceStep {
    const index = steps.length
    if (raw.depth > lastDepth || frames.length === 0) {
      const parent = frames.length > 0 ? current(top()) : undefined
      const source = frameAt(index, raw.depth)
      frames.push({ node: push('external', source.label, parent), source, calls: [] })
    } else if (raw.depth < lastDepth) {
      while (frames.length > 1 && frames.length > raw.depth) frames.pop()
    }
    lastDepth = raw.depth
    const frame = top()
    const locator = frame.source.locator
    const located = locator?.at(raw.pc)
    const pending = frame.calls[frame.calls.length - 1]
    if (pending && !pending.decided) {
      // The first step after a JUMP into a function: its definition names it (else a compiler helper).
      pending.decided = true
      const name = located && FUNCTION.exec(located.text)?.[1]
      const r = locator?.range(raw.pc)
      if (name && r && located) {
        const merge = !frame.node.range && frame.calls.every((c) => !c.node && !c.merged)
        const node = merge ? frame.node : push('internal', name, current(frame))
        node.range = { s: r.s, l: r.l, f: r.f }
        node.header = { file: located.file, line: located.line, multiline: located.text.includes('\n') }
        if (merge) pending.merged = true
        else pending.node = node
      }
    }
    const node = current(frame)
    const r = locator?.range(raw.pc)
    let innermost: StackNode['range']
    for (let n: StackNode | undefined = node; n && !innermost; n = n.kind === 'internal' ? n.parent : undefined)
      innermost = n.range
    // In a compiler helper (an internal call no function definition starts), lines are the optimizer's
    // sharing of code, not what runs.
    const innerCall = frame.calls[frame.calls.length - 1]
    const helper = innerCall?.decided === true && !innerCall.node && !innerCall.merged
    const at = located && r && !helper && within(r, innermost) ? located : null
    if (at) lineOf.set(node.id, { file: at.file, line: at.line })
    const step: SourceStep = {
      node,
      frame: frame.source,
      at,
      range: at && r ? { s: r.s, l: r.l } : null,
      key: at && stops(node, at) ? `${node.id}:${at.file}:${at.line}` : null,
      near: lineOf.get(node.id),
    }
    steps.push(step)
    // A JUMP's type is the instruction's, located or not (the compiler's helpers return with `o` too).
    if (raw.op === 'JUMP' && r) {
      if (r.j === 'i') frame.calls.push({ node: undefined, merged: false, decided: false })
      else if (r.j === 'o') frame.calls.pop()
    }
    return step
  }

  return {
    steps: steps as readonly SourceStep[],
    add(raws: readonly RawStep[]) {
      for (const raw of raws) add(raw)
    },
  }
}

/** How the source-level stepper moves. */
export type StepKind = 'into' | 'over' | 'out'

/**
 * The step a source-level move from step `from` lands on, among the annotated `steps`; undefined when
 * none of them is it (more steps may still come, or there is none: the trace ends).
 * - into: the next step on another statement (entering any call, internal or external);
 * - over: the next step on another statement in the same function or a caller (calls it makes run through);
 * - out: the next step with a line in a caller, once the current function has returned.
 */
export function stepTarget(kind: StepKind, steps: readonly SourceStep[], from: number): number | undefined {
  const start = steps[from]
  if (!start) return undefined
  const level = start.node.level
  for (let i = from + 1; i < steps.length; i++) {
    const s = steps[i]!
    if (s.key === null) continue
    if (kind === 'into' && s.key !== start.key) return i
    if (kind === 'over' && s.node.level <= level && s.key !== start.key) return i
    if (kind === 'out' && s.node.level < level) return i
  }
  return undefined
}

/** One function of the call stack, as the page shows it: outermost first, each with the line it is at. */
export type StackEntry = {
  kind: StackNode['kind']
  name: string
  file: string | undefined
  line: number | undefined
}

/** The call stack at a step: external frames and the internal calls within them, outermost first. */
export function callStack(step: SourceStep): StackEntry[] {
  const out: StackEntry[] = []
  let at = step.near
  for (let n: StackNode | undefined = step.node; n; n = n.parent) {
    out.push({ kind: n.kind, name: n.name, file: at?.file, line: at?.line })
    at = n.callLine
  }
  return out.reverse()
}
