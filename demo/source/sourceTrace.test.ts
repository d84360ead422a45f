import { describe, expect, it } from 'vitest'
import type { InternalCall, SourceFrame } from '../../src/tracing/render/source/toSourceFrames.js'
import type { CallFrame } from '../traceTypes.js'
import {
  failedSteps,
  functionFlame,
  isTokenAmountVariable,
  namedSlots,
  pairSourceFrames,
  revertErrorText,
  sourceEventsFor,
  variableDelta,
} from './sourceTrace.js'
import { call as callFrame } from './testCalls.js'

// What the explorer's views take from edgetrace_sourceTracer's answer (shapes as the devnet's Token
// and Scenarios give them).
const call = (to: string, calls: CallFrame[] = [], type = 'CALL'): CallFrame => callFrame(type, to, '0x', calls)
const frame = (rest: Partial<SourceFrame> = {}): SourceFrame =>
  ({
    type: 'CALL',
    address: null,
    contract: 'Token',
    function: 'transfer',
    call: null,
    events: [],
    storage: null,
    gasUsed: 0,
    reverted: false,
    error: null,
    revert: null,
    revertError: null,
    steps: [],
    internalCalls: [],
    calls: [],
    ...rest,
  }) as SourceFrame
const internal = (fn: string | null, gasUsed: number, internalCalls: InternalCall[] = []): InternalCall => ({
  function: fn,
  file: 'Token.sol',
  line: 1,
  gasUsed,
  steps: [],
  internalCalls,
})
const SLOT = `0x${'a3'.repeat(32)}`
const variable = (name: string, before: string, after: string) => ({
  name,
  type: 'uint256',
  slot: SLOT,
  offset: 0,
  before,
  after,
  changed: before !== after,
})

describe('pairSourceFrames', () => {
  it('pairs calls and frames depth first, and nothing when the trees differ in size', () => {
    const inner = call('0xb')
    const tree = call('0xa', [inner])
    const child = frame({ contract: 'Inner' })
    const source = frame({ calls: [child] })
    const pairs = pairSourceFrames(tree, source)
    expect(pairs.get(tree)).toBe(source)
    expect(pairs.get(inner)).toBe(child)
    expect(pairSourceFrames(tree, frame()).size).toBe(0)
  })
})

describe('namedSlots', () => {
  it('names slots in the account whose storage the frame runs on (a DELEGATECALL’s: its caller’s)', () => {
    const delegated = call('0xlib', [], 'DELEGATECALL')
    const tree = call('0xAA', [delegated])
    const storage = (name: string) => ({ variables: [variable(name, '1', '2')], raw: [] })
    const pairs = pairSourceFrames(
      tree,
      frame({ storage: storage('balanceOf[0x1]'), calls: [frame({ storage: storage('x') })] }),
    )
    const named = namedSlots(tree, pairs)
    expect([...named.keys()]).toEqual(['0xaa'])
    expect(
      named
        .get('0xaa')
        ?.get(SLOT)
        ?.map((v) => v.name),
    ).toEqual(['balanceOf[0x1]', 'x'])
  })
})

it('variableDelta: signed difference of integers only', () => {
  expect(variableDelta({ type: 'uint256', before: '100', after: '40' })).toBe('-60')
  expect(variableDelta({ type: 'uint256', before: '0', after: '7' })).toBe('+7')
  expect(variableDelta({ type: 'address', before: '0x1', after: '0x2' })).toBeUndefined()
})

it('sourceEventsFor: each log matched once to a decoded event with the same address, topics and data', () => {
  const event = { address: '0xAA', name: 'Transfer', signature: 'Transfer(address,address,uint256)', args: [] }
  const log = { address: '0xaa', topics: ['0x01'], data: '0x02' }
  const source = frame({
    events: [{ ...event, topics: ['0x01'], data: '0x02' }] as SourceFrame['events'],
  })
  const found = sourceEventsFor([log, log, { ...log, data: '0x03' }], source)
  expect(found.map((e) => e?.name)).toEqual(['Transfer', undefined, undefined])
})

it('revertErrorText: Error, Panic, custom and unknown', () => {
  const e = { name: null, signature: null, message: null, args: [], data: '0x' as const }
  expect(revertErrorText({ ...e, kind: 'Error', message: 'scenario reverted' })).toBe('scenario reverted')
  expect(
    revertErrorText({
      ...e,
      kind: 'custom',
      name: 'Custom',
      args: [
        { name: 'code', type: 'uint256', value: '7' },
        { name: 'who', type: 'address', value: '0xf3' },
      ],
    }),
  ).toBe('Custom(code: 7, who: 0xf3)')
  const who = { name: 'who', type: 'address', value: `0x${'ab'.repeat(20)}` }
  expect(revertErrorText({ ...e, kind: 'custom', name: 'Custom', args: [who] }, () => 'alice')).toBe(
    'Custom(who: alice)',
  )
  expect(
    revertErrorText({
      ...e,
      kind: 'Panic',
      message: 'division by zero',
      args: [{ name: 'code', type: 'uint256', value: '18' }],
    }),
  ).toBe('Panic(18): division by zero')
  expect(revertErrorText({ ...e, kind: 'unknown' })).toBe('reverted without data')
})

describe('functionFlame', () => {
  it('functions by name (unnamed ranges left out), external calls under the function that holds their gas', () => {
    const transferFrom = frame({ contract: 'Token', function: 'transferFrom', gasUsed: 30_000 })
    const pull = frame({
      contract: 'Scenarios',
      function: 'pull',
      gasUsed: 43_871,
      internalCalls: [
        internal(null, 114),
        internal('pull', 43_379, [internal(null, 4_928, [internal('_check', 900)])]),
      ],
      calls: [transferFrom],
    })
    const flame = functionFlame(pull)
    expect(flame.label).toBe('Scenarios.pull')
    expect(flame.children.map((c) => c.label)).toEqual(['pull'])
    expect(flame.children[0]!.children.map((c) => [c.label, c.gas])).toEqual([
      ['_check', 900],
      ['Token.transferFrom', 30_000],
    ])
  })
  it('a frame’s calls stay under the frame when no function holds them, and a reverted frame is marked failed', () => {
    const child = frame({ gasUsed: 500 })
    const flame = functionFlame(
      frame({ gasUsed: 600, reverted: true, internalCalls: [internal('f', 450)], calls: [child] }),
    )
    expect(flame.failed).toBe(true)
    expect(flame.children.map((c) => c.label)).toEqual(['f', 'Token.transfer'])
  })
})

it('isTokenAmountVariable: balances, allowances and the total supply of a token', () => {
  expect(isTokenAmountVariable({ name: 'balanceOf[0x1]', type: 'uint256' })).toBe(true)
  expect(isTokenAmountVariable({ name: '_balances[0x1]', type: 'uint256' })).toBe(true)
  expect(isTokenAmountVariable({ name: 'allowance[0x1][0x2]', type: 'uint256' })).toBe(true)
  expect(isTokenAmountVariable({ name: 'totalSupply', type: 'uint256' })).toBe(true)
  expect(isTokenAmountVariable({ name: 'balanceOfOwner', type: 'uint256' })).toBe(false)
  expect(isTokenAmountVariable({ name: 'owner', type: 'address' })).toBe(false)
  expect(isTokenAmountVariable({ name: 'balances[0x1].locked', type: 'bool' })).toBe(false)
})

it('failedSteps: each failed call’s first REVERT or failing step from its start', () => {
  const failed = { ...call('0xb'), error: 'execution reverted' }
  const ok = call('0xc')
  const tree = { ...call('0xa', [ok, failed]), error: 'execution reverted' }
  const steps = failedSteps(tree, {
    frames: [
      [10, 2, '0xc'],
      [40, 2, '0xb'],
    ],
    revert: [55, 90],
    error: [],
  })
  expect(steps.get(failed)).toBe(55)
  expect(steps.get(tree)).toBe(90)
  expect(steps.has(ok)).toBe(false)
})
