import { expect, it } from 'vitest'
import type { SourceFrame } from '../../src/tracing/render/source/toSourceFrames.js'
import type { CallFrame } from '../traceTypes.js'
import { lineGasOf } from './lineGas.js'
import { call as callFrame } from './testCalls.js'

// Gas per line from edgetrace_sourceTracer's frames, matched to the call tree's calls by position.
const call = (to: string, calls: CallFrame[] = []): CallFrame => callFrame('CALL', to, '0x', calls)
const frame = (contract: string | null, steps: SourceFrame['steps'], rest: Partial<SourceFrame> = {}): SourceFrame =>
  ({
    type: 'CALL',
    address: null,
    contract,
    function: null,
    gasUsed: 0,
    reverted: false,
    error: null,
    revert: null,
    steps,
    internalCalls: [],
    calls: [],
    ...rest,
  }) as SourceFrame

it('sums each line’s gas within a call, internal calls at their own lines; unmatched frames have none', () => {
  const token = call('0xb')
  const raw = call('0xc')
  const tree = call('0xa', [token, raw])
  const source = frame('Scenarios', [{ file: 'S.sol', line: 3, gasUsed: 40, count: 4 }], {
    calls: [
      frame('Token', [{ file: 'T.sol', line: 9, gasUsed: 5, count: 1 }], {
        internalCalls: [
          {
            function: '_move',
            file: 'T.sol',
            line: 9,
            gasUsed: 30,
            steps: [
              { file: 'T.sol', line: 20, gasUsed: 22, count: 3 },
              { file: null, line: null, gasUsed: 8, count: 2 },
            ],
            internalCalls: [],
          },
        ],
      }),
      frame(null, [{ file: null, line: null, gasUsed: 9, count: 3 }]),
    ],
  })
  const gas = lineGasOf(tree, source)
  expect(gas.get(tree)).toEqual(new Map([['S.sol:3', 40]]))
  expect(gas.get(token)).toEqual(
    new Map([
      ['T.sol:9', 5],
      ['T.sol:20', 22],
    ]),
  )
  expect(gas.has(raw)).toBe(false)
  // Trees that are not the same run's: nothing.
  expect(lineGasOf(call('0xa'), source).size).toBe(0)
})
