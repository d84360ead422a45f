import type { SourceEvent, SourceRevertError } from '../../src/tracing/render/source/decodeFrameAbi.js'
import type { StorageVariable } from '../../src/sources/decodeStorage.js'
import type { InternalCall, SourceFrame } from '../../src/tracing/render/source/toSourceFrames.js'
import type { CallFrame } from '../traceTypes.js'
import { type FrameEntry, alignFrames } from './alignFrames.js'

/**
 * Each call of the call tree with its frame of edgetrace_sourceTracer's answer: one recorded run, the
 * same calls in the same order, so the n-th frame depth first is the n-th call. Empty when the two
 * trees do not have as many frames (nothing is paired rather than pairing wrong).
 */
export function pairSourceFrames(tree: CallFrame, source: SourceFrame): Map<CallFrame, SourceFrame> {
  const calls: CallFrame[] = []
  const frames: SourceFrame[] = []
  const visitCalls = (c: CallFrame) => {
    calls.push(c)
    for (const child of c.calls ?? []) visitCalls(child)
  }
  const visitFrames = (f: SourceFrame) => {
    frames.push(f)
    for (const child of f.calls ?? []) visitFrames(child)
  }
  visitCalls(tree)
  visitFrames(source)
  const out = new Map<CallFrame, SourceFrame>()
  if (calls.length === frames.length) for (const [i, f] of frames.entries()) out.set(calls[i]!, f)
  return out
}

/** Storage variables by account (lower case) and slot: what the state diff names a slot by. */
export type NamedSlots = Map<string, Map<string, StorageVariable[]>>

/**
 * The variables the source tracer named, by the account whose storage they are in (a DELEGATECALL's
 * or CALLCODE's frame runs on its caller's) and their slot; each variable once (frames that touch
 * the same one give the same before and after: the transaction's).
 */
export function namedSlots(tree: CallFrame, pairs: ReadonlyMap<CallFrame, SourceFrame>): NamedSlots {
  const out: NamedSlots = new Map()
  const visit = (call: CallFrame, parentContext: string) => {
    const kind = call.type.toUpperCase()
    const context = kind === 'DELEGATECALL' || kind === 'CALLCODE' ? parentContext : (call.to ?? '').toLowerCase()
    for (const v of pairs.get(call)?.storage?.variables ?? []) {
      let slots = out.get(context)
      if (!slots) out.set(context, (slots = new Map()))
      const slot = v.slot.toLowerCase()
      const list = slots.get(slot) ?? []
      if (!list.some((w) => w.name === v.name)) list.push(v)
      slots.set(slot, list)
    }
    for (const c of call.calls ?? []) visit(c, context)
  }
  visit(tree, (tree.to ?? '').toLowerCase())
  return out
}

/** `after − before` of an integer variable, signed (`+100`, `-5`); undefined for other types. */
export function variableDelta(v: Pick<StorageVariable, 'type' | 'before' | 'after'>): string | undefined {
  if (!/^u?int\d*$/.test(v.type) || !/^-?\d+$/.test(v.before) || !/^-?\d+$/.test(v.after)) return undefined
  const d = BigInt(v.after) - BigInt(v.before)
  return `${d >= 0n ? '+' : ''}${d}`
}

/**
 * Whether a token's storage variable holds amounts of that token, by its name: its balances,
 * allowances and total supply (`balanceOf[0x…]`, `_balances[0x…]`, `allowance[0x…][0x…]`, `totalSupply`).
 */
export const isTokenAmountVariable = (v: Pick<StorageVariable, 'name' | 'type'>): boolean =>
  /^uint\d*$/.test(v.type) && /^_?(balances?|balanceOf|allowances?|allowed|allowance|totalSupply)(\[|$)/i.test(v.name)

/** The log entry's decoding by its emitter's ABI: each log matched once to an event of the source frames with the same address, topics and data. */
export function sourceEventsFor(
  logs: readonly { address: string; topics: readonly string[]; data: string }[],
  source: SourceFrame,
): (SourceEvent | undefined)[] {
  const events: SourceEvent[] = []
  const visit = (f: SourceFrame) => {
    events.push(...(f.events ?? []))
    for (const c of f.calls ?? []) visit(c)
  }
  visit(source)
  const key = (e: { address: string; topics: readonly string[]; data: string }) =>
    `${e.address.toLowerCase()}|${e.topics.join(',').toLowerCase()}|${e.data.toLowerCase()}`
  const used = new Set<number>()
  return logs.map((log) => {
    const k = key(log)
    const i = events.findIndex((e, j) => !used.has(j) && e.name !== null && key(e) === k)
    if (i < 0) return undefined
    used.add(i)
    return events[i]
  })
}

/** A revert error as one line (known accounts by name): `Custom(code: 7, who: alice)`, an Error(string)'s message (as the summary says it), `Panic(18): …`. */
export function revertErrorText(
  e: SourceRevertError,
  nameOf: (address: string) => string | undefined = () => undefined,
): string {
  const named = (v: unknown): string =>
    typeof v === 'string' && /^0x[0-9a-f]{40}$/.test(v) ? (nameOf(v) ?? v) : show(v)
  const args = () => e.args.map((a) => `${a.name ? `${a.name}: ` : ''}${named(a.value)}`).join(', ')
  if (e.kind === 'Error') return e.message ?? ''
  if (e.kind === 'Panic') return `Panic(${show(e.args[0]?.value ?? '')})${e.message ? `: ${e.message}` : ''}`
  if (e.kind === 'custom') return `${e.name ?? 'custom error'}(${args()})`
  return e.data === '0x' ? 'reverted without data' : `unknown error ${e.data.slice(0, 10)}`
}

const show = (v: unknown): string => (Array.isArray(v) ? `[${v.map(show).join(', ')}]` : String(v))

/** One box of the flame graph: its label, gas (its width), whether it failed, what it called. */
export type FlameNode = {
  label: string
  gas: number
  title?: string | undefined
  failed?: boolean
  children: FlameNode[]
}

/**
 * The flame graph by Solidity function: each frame (`Token.transfer`) with the functions it called
 * internally (the source tracer's internal calls; ranges no function names — the ABI decoder,
 * the dispatcher — are left out, what they called moved up to their caller) and, beneath, the frames it called.
 * The tracer does not say which function made an external call (its gas is within the calling
 * line): a frame's calls are put under the deepest function whose own gas (less its internal calls')
 * holds them all, else under the frame.
 */
export function functionFlame(frame: SourceFrame): FlameNode {
  const scope = (c: InternalCall): FlameNode[] => {
    const children = c.internalCalls.flatMap(scope)
    if (c.function === null) return children
    return [{ label: c.function, gas: c.gasUsed, title: c.file ? `${c.file}:${c.line}` : undefined, children }]
  }
  const name = frame.contract
    ? `${frame.contract}.${frame.function ?? (frame.type.startsWith('CREATE') ? 'constructor' : 'fallback')}`
    : `${frame.address ? `${frame.address.slice(0, 6)}…${frame.address.slice(-4)}` : frame.type}${frame.function ? `.${frame.function}` : ''}`
  const node: FlameNode = {
    label: name,
    gas: frame.gasUsed,
    failed: frame.reverted || frame.error !== null,
    children: frame.internalCalls.flatMap(scope),
  }
  const calls = (frame.calls ?? []).map(functionFlame)
  const needed = calls.reduce((n, c) => n + c.gas, 0)
  const own = (n: FlameNode) => n.gas - n.children.reduce((s, c) => s + c.gas, 0)
  const deepest = (n: FlameNode): FlameNode | undefined => {
    for (const c of n.children) {
      const d = deepest(c)
      if (d) return d
    }
    return own(n) >= needed ? n : undefined
  }
  ;(deepest(node) ?? node).children.push(...calls)
  return node
}

/**
 * The step each failed call of the tree stopped at, for the stepper to show: the first REVERT or
 * failing step from the frame's start (the step index's frames, aligned to the calls: alignFrames; the
 * top call from step 0, its stop the last). A frame whose child failed before it is taken to that child's step.
 */
export function failedSteps(
  tree: CallFrame,
  index: { frames: readonly FrameEntry[]; revert: readonly number[]; error: readonly number[] },
): Map<CallFrame, number> {
  const stops = [...index.revert, ...index.error].sort((a, b) => a - b)
  const starts = new Map<CallFrame, number>([[tree, 0]])
  alignFrames(tree, index.frames).forEach((call, i) => {
    if (call && !starts.has(call)) starts.set(call, index.frames[i]![0])
  })
  const out = new Map<CallFrame, number>()
  for (const [call, start] of starts) {
    if (!call.error) continue
    // The top call stops last: nothing runs after it.
    const stop = call === tree ? stops.at(-1) : stops.find((s) => s >= start)
    if (stop !== undefined) out.set(call, stop)
  }
  return out
}
