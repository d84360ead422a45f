import { abiSelectors } from '../../../sources/abiSelectors.js'
import { type SourceLocation, type SourceLocator, createSourceLocator } from '../../../sources/createSourceLocator.js'
import type { SourceRegistry } from '../../../sources/createSourceRegistry.js'
import type { DecodedStorage } from '../../../sources/decodeStorage.js'
import type { SourceContract } from '../../../sources/types.js'
import type { Hex } from '../../../types/hex.js'
import type { StateAccess } from '../../state/collectStateAccess.js'
import type { CallTraceArena, CallTraceNode, VmOp } from '../../recorder/types.js'
import { type SourceCall, type SourceEvent, type SourceRevertError, decodeFrameAbi } from './decodeFrameAbi.js'
import { frameStorage } from './frameStorage.js'

/** Gas and steps of one source statement (file and line null: instructions the source map gives no source). */
export type SourceStep = { file: string | null; line: number | null; gasUsed: number; count: number }

/** A function's share of a frame: its statements in first-run order, and the internal calls it made. */
export type SourceScope = { steps: SourceStep[]; internalCalls: InternalCall[] }

/** An internal (JUMP) call reconstructed from the source map's `i`/`o` jump types. */
export type InternalCall = SourceScope & {
  /** From the called code's first source range when it begins `function name(`; else null. */
  function: string | null
  /** Where the call was made. */
  file: string | null
  line: number | null
  gasUsed: number
}

/** One call frame at the source level. */
export type SourceFrame = SourceScope & {
  type: string
  address: Hex | null
  /** The matched contract's name (a creation's: by its init code); null when its code matched no known contract. */
  contract: string | null
  /** Why a lookup of its sources gave none (Sourcify: not verified, unreachable, refused); absent otherwise. */
  sources?: string
  /**
   * The function by the contract's ABI, else the 4-byte selector; null without calldata. A creation:
   * `constructor` when its init code matched a contract's creation bytecode, else null.
   */
  function: string | null
  /**
   * The call's input decoded (the contract's ABI, else the bundled signatures); null when neither knows it.
   * A creation whose init code matched: `constructor` and its arguments (those after the creation
   * bytecode, by the ABI's constructor entry; none without one); else null.
   */
  call: SourceCall | null
  /** The logs the frame emitted, decoded the same way. */
  events: SourceEvent[]
  /**
   * The storage the frame read or wrote, before and after the transaction: variables named by the
   * contract's storage layout, the rest raw. Null when it touched none.
   */
  storage: DecodedStorage | null
  /** The gas the frame's instructions consumed (calls into other frames included in their call's line). */
  gasUsed: number
  reverted: boolean
  error: string | null
  /** The last statement the frame ran when it reverted or failed; null otherwise or without sources. */
  revert: { file: string; line: number } | null
  /** The revert data of a frame that reverted (REVERT, not another failure) decoded: Error, Panic, a custom error; else null. */
  revertError: SourceRevertError | null
  calls: SourceFrame[]
}

/** Ops that write memory (or call out): a block with one prepares its own revert data. */
const WRITES_MEMORY = new Set([0x52, 0x53, 0x37, 0x39, 0x3c, 0x3e, 0x5e, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa])

const FUNCTION = /^function\s+([A-Za-z_$][\w$]*)\s*\(/

/** The gas an op consumed: before it less after it (a call's callee included); a failed op, all it had. */
const consumed = (op: VmOp) => Number(op.used === undefined ? op.gas : op.gas - op.used)

export function codeOf(access: StateAccess | undefined, address: Hex | undefined): Uint8Array | undefined {
  if (!access || !address) return undefined
  const key = address.toLowerCase() as Hex
  const pre = access.pre.get(key)?.code
  if (pre && pre.length > 0) return pre
  return access.post.get(key)?.code
}

/**
 * The source-level trace of a recorded run: per frame the contract its code matched (by runtime code,
 * never its address), the function called, gas per source statement, internal calls, the revert line.
 */
export function toSourceFrames(
  arena: CallTraceArena,
  access: StateAccess | undefined,
  registry: SourceRegistry | undefined,
  /** Per address (lowercase): why a lookup of its code's sources gave none. */
  notes?: ReadonlyMap<string, string>,
): SourceFrame | null {
  if (arena.nodes.length === 0) return null
  const opsOf = new Map<number, VmOp[]>()
  for (const f of arena.vmFrames) opsOf.set(f.node, f.ops)
  const locators = new Map<string, Map<SourceContract, SourceLocator>>()
  const locatorOf = (c: SourceContract, part: 'runtime' | 'creation') => {
    let byContract = locators.get(part)
    if (!byContract) locators.set(part, (byContract = new Map()))
    let l = byContract.get(c)
    if (!l) {
      l = createSourceLocator(c, part)
      byContract.set(c, l)
    }
    return l
  }
  const frame = (node: CallTraceNode): SourceFrame => {
    const creation = node.kind === 'CREATE' || node.kind === 'CREATE2'
    const code = creation ? undefined : codeOf(access, node.to)
    // A creation runs init code: the contract whose creation bytecode it begins with (its
    // constructor's arguments follow), located by that code's source map.
    const contract = creation
      ? registry?.matchCreation(node.input)
      : code && registry
        ? registry.match(code)
        : undefined
    const locator = contract ? locatorOf(contract, creation ? 'creation' : 'runtime') : undefined
    const ops = opsOf.get(node.index) ?? []
    const { scope: root, last: lastAt } = walk(ops, locator)
    const failed = node.reverted || node.error !== undefined
    // A creation's storage layout, events and errors are those of its contract; where its init code
    // matched none (a build output without creation code), of the contract its deployed code matches.
    const deployed = creation && !contract && registry ? codeOf(access, node.to) : undefined
    const described = contract ?? (deployed ? registry?.match(deployed) : undefined)
    const { call, events, revertError } = decodeFrameAbi(node, described, creation && contract !== undefined)
    const note = contract || !node.to ? undefined : notes?.get(node.to.toLowerCase())
    return {
      type: node.kind,
      address: node.to ?? null,
      contract: contract?.name ?? null,
      ...(note !== undefined ? { sources: note } : {}),
      function: creation ? (contract ? 'constructor' : null) : functionOf(node.input, contract),
      call,
      events,
      storage: frameStorage(node, ops, access, described, arena.preimages),
      gasUsed: ops.reduce((sum, op) => sum + consumed(op), 0),
      reverted: node.reverted,
      error: node.error ?? null,
      revert: failed && lastAt ? { file: lastAt.file, line: lastAt.line } : null,
      revertError,
      steps: root.steps,
      internalCalls: root.internalCalls,
      calls: node.children.map((i) => frame(arena.nodes[i]!)),
    }
  }
  return frame(arena.nodes[0]!)
}

function functionOf(input: Uint8Array, contract: SourceContract | undefined): string | null {
  if (input.length < 4) return null
  let selector = '0x'
  for (const b of input.subarray(0, 4)) selector += b.toString(16).padStart(2, '0')
  return (contract && abiSelectors(contract.abi).get(selector)?.name) ?? selector
}

/**
 * Walks a frame's ops into nested scopes: a JUMP marked `i` opens one, a JUMP marked `o` closes it.
 * `last` is the last statement run within the innermost function whose source range is known: the
 * optimizer shares code between functions (a revert's tail), which the source map gives to one of them.
 */
function walk(
  ops: VmOp[],
  locator: SourceLocator | undefined,
): { scope: SourceScope; last: SourceLocation | undefined } {
  type Range = { s: number; l: number; f: number }
  type Open = {
    scope: SourceScope
    call: InternalCall | undefined
    index: Map<string, SourceStep>
    named: boolean
    range: Range | undefined
  }
  const newOpen = (call: InternalCall | undefined): Open => ({
    scope: call ?? { steps: [], internalCalls: [] },
    call,
    index: new Map(),
    named: call === undefined,
    range: undefined,
  })
  const stack: Open[] = [newOpen(undefined)]
  let last: SourceLocation | undefined
  // The optimizer shares a revert's tail (`JUMPDEST PUSH1 0x40 MLOAD … REVERT`) between statements and
  // the source map gives it to one of them: a final block entered by a plain JUMP that writes no
  // memory reverts with data the code before the jump prepared, so that code's statement is the revert's.
  let beforeJump: SourceLocation | undefined
  let tailWrites = false
  let previous: VmOp | undefined
  let previousJump: SourceLocation['jump'] | undefined
  for (const op of ops) {
    const at = locator?.at(op.pc)
    if (op.op === 0x5b) {
      const plainJump = previous?.op === 0x56 && previousJump !== 'o'
      beforeJump = plainJump ? last : undefined
      tailWrites = false
    } else if (WRITES_MEMORY.has(op.op)) tailWrites = true
    previous = op
    previousJump = at?.jump
    const top = stack[stack.length - 1]!
    if (!top.named) {
      top.named = true
      const name = at && FUNCTION.exec(at.text)?.[1]
      if (name && top.call) {
        top.call.function = name
        top.range = locator?.range(op.pc)
      }
    }
    if (at) {
      const r = locator!.range(op.pc)!
      const within = [...stack].reverse().find((o) => o.range)?.range
      if (!within || (r.f === within.f && r.s >= within.s && r.s + r.l <= within.s + within.l)) last = at
    }
    const gas = consumed(op)
    const key = at ? `${at.file}:${at.line}` : ''
    let step = top.index.get(key)
    if (!step) {
      step = { file: at?.file ?? null, line: at?.line ?? null, gasUsed: 0, count: 0 }
      top.index.set(key, step)
      top.scope.steps.push(step)
    }
    step.gasUsed += gas
    step.count++
    for (const open of stack) if (open.call) open.call.gasUsed += gas
    if (op.op !== 0x56 || !at) continue
    if (at.jump === 'i') {
      const call: InternalCall = {
        function: null,
        file: at.file,
        line: at.line,
        gasUsed: 0,
        steps: [],
        internalCalls: [],
      }
      top.scope.internalCalls.push(call)
      stack.push(newOpen(call))
    } else if (at.jump === 'o' && stack.length > 1) {
      stack.pop()
    }
  }
  if (previous?.op === 0xfd && beforeJump && !tailWrites) last = beforeJump
  return { scope: stack[0]!.scope, last }
}
