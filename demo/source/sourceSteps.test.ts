import { describe, expect, it } from 'vitest'
import { createSourceLocator } from '../../src/sources/createSourceLocator.js'
import type { SourceContract } from '../../src/sources/types.js'
import type { CallFrame } from '../traceTypes.js'
import { alignFrames } from './alignFrames.js'
import { type FrameSource, type RawStep, callStack, createSourceStepAnnotator, stepTarget } from './sourceSteps.js'
import { call as callFrame } from './testCalls.js'

// The source-level stepper's logic on a hand-made contract: each instruction one byte, its source
// map written out by hand, so every step's line and jump type is known.
const A = [
  'contract A {', //               line 1
  '  function f() external {', //  line 2
  '    g();', //                   line 3
  '    x = 1;', //                 line 4
  '    b.call();', //              line 5
  '  }', //                        line 6
  '  function g() internal {', //  line 7
  '    y = 2;', //                 line 8
  '  }', //                        line 9
  '}', //                          line 10
].join('\n')
const span = (text: string, from = 0) => ({ s: A.indexOf(text, from), l: text.length })
const whole = { s: 0, l: A.length }
const fDef = span('function f() external {\n    g();\n    x = 1;\n    b.call();\n  }')
const gDef = span('function g() internal {\n    y = 2;\n  }')
// pc → [source range, jump type]: the instructions of A's runtime code.
const MAP: [{ s: number; l: number }, 'i' | 'o' | '-'][] = [
  [whole, '-'], // 0 dispatcher
  [fDef, 'i'], // 1 JUMP into f's body
  [fDef, '-'], // 2 JUMPDEST: f
  [span('g()'), '-'], // 3
  [span('g()'), 'i'], // 4 JUMP into g
  [gDef, '-'], // 5 JUMPDEST: g
  [span('y = 2'), '-'], // 6
  [gDef, 'o'], // 7 JUMP out of g
  [span('g()'), '-'], // 8 back in f
  [span('x = 1'), '-'], // 9
  [span('b.call()'), '-'], // 10 CALL
  [span('b.call()'), '-'], // 11 after the call
  [gDef, '-'], // 12 code the optimizer shares with g: no line while in f
  [fDef, 'o'], // 13 JUMP out of f
  [whole, '-'], // 14 STOP
]
const contract: SourceContract = {
  name: 'A',
  file: 'A.sol',
  runtime: new Uint8Array(MAP.length).fill(0x5b),
  sourceMap: MAP.map(([r, j]) => `${r.s}:${r.l}:0:${j}`).join(';'),
  masked: [],
  abi: [],
  storageLayout: undefined,
  sources: new Map([[0, { path: 'A.sol', content: A }]]),
}
const op = (pc: number) => (MAP[pc]![1] !== '-' ? 'JUMP' : pc === 10 ? 'CALL' : 'JUMPDEST')
// The transaction: A.f() calls g, then b (unknown code, 3 steps at depth 2), then returns.
const RAW: RawStep[] = [
  ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((pc) => ({ pc, op: op(pc), depth: 1 })),
  ...[0, 1, 2].map((pc) => ({ pc, op: 'PUSH1', depth: 2 })),
  ...[11, 12, 13, 14].map((pc) => ({ pc, op: op(pc), depth: 1 })),
]

function annotate() {
  const locator = createSourceLocator(contract)
  const frames: FrameSource[] = [{ label: 'A.f', locator }, { label: '0x00bb.call' }]
  let n = 0
  const annotator = createSourceStepAnnotator(() => frames[n++]!)
  annotator.add(RAW)
  return annotator.steps
}
const lineAt = (steps: ReturnType<typeof annotate>, i: number | undefined) =>
  i === undefined ? undefined : steps[i]!.at?.line

describe('source-level steps', () => {
  it('annotates each step with its line and function; code shared with another function has none', () => {
    const steps = annotate()
    expect(steps.map((s) => s.at?.line ?? null)).toEqual([
      1,
      2,
      2,
      3,
      3,
      7,
      8,
      7,
      3,
      4,
      5,
      null,
      null,
      null,
      5,
      null,
      2,
      null,
    ])
    expect(steps.map((s) => s.node.name)).toEqual([
      ...Array(5).fill('A.f'),
      ...Array(3).fill('g'),
      ...Array(3).fill('A.f'),
      ...Array(3).fill('0x00bb.call'),
      ...Array(4).fill('A.f'),
    ])
    // Once f returned, the frame's code outside f (the return's encoding, shared) has no line either.
    // Unlocated steps are said at their function's last line.
    expect(steps[15]!.near).toEqual({ file: 'A.sol', line: 5 })
  })

  it('steps into, over and out by source line', () => {
    const steps = annotate()
    // From `g();` (step 3): into enters g (its definition line), over goes to `x = 1`.
    expect(lineAt(steps, stepTarget('into', steps, 3))).toBe(7)
    expect(stepTarget('over', steps, 3)).toBe(9)
    // In g at `y = 2` (step 6): out lands back in f on the calling line, over goes to g's return.
    expect(stepTarget('out', steps, 6)).toBe(8)
    expect(steps[8]!.node.name).toBe('A.f')
    // g's last step (its definition again: the return) is no statement: over leaves g like out.
    expect(stepTarget('over', steps, 6)).toBe(8)
    // The dispatcher (the contract's whole range) is no statement: into goes to f's definition, once.
    expect(stepTarget('into', steps, 0)).toBe(1)
    expect(stepTarget('into', steps, 1)).toBe(3)
    // From `x = 1;` (step 9): into and over both go to `b.call();`; from there, b's code has no
    // source and f has no statement left (its return is its definition again): the trace ends.
    expect(stepTarget('into', steps, 9)).toBe(10)
    expect(stepTarget('over', steps, 9)).toBe(10)
    expect(stepTarget('over', steps, 10)).toBeUndefined()
    expect(stepTarget('into', steps, 10)).toBeUndefined()
    expect(stepTarget('out', steps, 10)).toBeUndefined()
  })

  it('reconstructs the call stack: external frames and internal calls, each at its line', () => {
    const steps = annotate()
    expect(callStack(steps[6]!)).toEqual([
      { kind: 'external', name: 'A.f', file: 'A.sol', line: 3 },
      { kind: 'internal', name: 'g', file: 'A.sol', line: 8 },
    ])
    expect(callStack(steps[12]!)).toEqual([
      { kind: 'external', name: 'A.f', file: 'A.sol', line: 5 },
      { kind: 'external', name: '0x00bb.call', file: undefined, line: undefined },
    ])
  })
})

describe('alignFrames', () => {
  const call = (type: string, to: string, calls: CallFrame[] = []): CallFrame => callFrame(type, to, '0x', calls)
  it('matches the step index’s frames to calls: DELEGATECALL by its caller’s context, calls that ran no code skipped', () => {
    const precompile = call('STATICCALL', '0x0000000000000000000000000000000000000001')
    const lib = call('DELEGATECALL', '0x000000000000000000000000000000000000000c')
    const token = call('CALL', '0x000000000000000000000000000000000000000b')
    const tree = call('CALL', '0x000000000000000000000000000000000000000a', [precompile, lib, token])
    const entries: [number, number, string][] = [
      [0, 1, '0x000000000000000000000000000000000000000A'],
      [10, 2, '0x000000000000000000000000000000000000000a'],
      [20, 2, '0x000000000000000000000000000000000000000b'],
    ]
    expect(alignFrames(tree, entries, (c) => c !== precompile)).toEqual([tree, lib, token])
  })
})
