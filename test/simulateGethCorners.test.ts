import { toChecksumAddress } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { rpc } from './src/rpc.js'
import { useExecutionApisChain } from './src/useExecutionApisChain.js'

// eth_simulateV1's corners where geth's rules are easy to miss, on execution-apis' chain (its head
// runs Osaka's rules, the chain of the recorded geth cases in test/conformance).

const chain = useExecutionApisChain(['eth'])
const SENDER = '0xc000000000000000000000000000000000000000'
const RICH = '0x56bc75e2d63100000'

type SimulatedCall = { gasUsed: string; status: string; returnData: string }
const calls = (res: { result?: unknown; error?: unknown }) => {
  expect(res.error).toBeUndefined()
  return (res.result as { calls: SimulatedCall[] }[])[0]!.calls
}

describe('eth_simulateV1 against geth', () => {
  it('a sender at nonce 2^64-1 with validation: geth’s "nonce has max value", -32603', async () => {
    // geth's preCheck (core/state_transition.go): the nonce equals the state's but cannot be raised
    // (ErrNonceMax); its simulate maps that error to no code of its own (txValidationError's default:
    // errCodeInternalError, -32603), wrapped as every call's error is ("err: … (supplied gas N)").
    const res = await rpc(chain.edge.url, 'eth_simulateV1', [
      {
        validation: true,
        blockStateCalls: [
          {
            stateOverrides: { [SENDER]: { nonce: '0xffffffffffffffff', balance: RICH } },
            calls: [
              {
                from: SENDER,
                to: '0xc100000000000000000000000000000000000000',
                gas: '0x5208',
                maxFeePerGas: '0x174876e800',
                maxPriorityFeePerGas: '0x0',
              },
            ],
          },
        ],
      },
      'latest',
    ])
    expect(res.error).toEqual({
      code: -32603,
      message: `err: nonce has max value: address ${toChecksumAddress(SENDER)}, nonce: 18446744073709551615 (supplied gas 21000)`,
    })
    // Without validation geth skips its nonce checks: the call runs (execution-apis'
    // ethSimulate-overflow-nonce.io holds that one).
    const lenient = await rpc(chain.edge.url, 'eth_simulateV1', [
      {
        blockStateCalls: [
          {
            stateOverrides: { [SENDER]: { nonce: '0xffffffffffffffff' } },
            calls: [{ from: SENDER, to: '0xc100000000000000000000000000000000000000' }],
          },
        ],
      },
      'latest',
    ])
    expect(calls(lenient)[0]!.status).toBe('0x1')
  })

  it('a moved precompile: the address it left keeps its warmth, its new address starts cold (geth’s gas)', async () => {
    // sha256 (0x02) moved to 0x…123456, and 0x02 given code (PUSH0 POP STOP: 4 gas). Three callers,
    // each `PUSH1 0 ×5, PUSH20 target, GAS, CALL, POP, STOP` (5×3 + 3 + 2 + 2 = 22 gas besides the
    // CALL's access and what the callee uses), each called by its own transaction with no input
    // (21000 intrinsic, and EIP-7623's floor of 21000 adds nothing).
    //
    // geth warms, at every transaction's start, the fork's precompile addresses —
    // vm.ActivePrecompiles(rules) in core/state_transition.go's Prepare, not the set its simulate
    // moved (internal/ethapi/override: StateOverride.Apply only edits the EVM's running set). So:
    //  - calling 0x02, now plain code: warm (100) + 4           → 21000 + 22 + 100 + 4    = 21126
    //  - calling 0x…123456, now sha256 of nothing: cold (2600)
    //    + sha256's 60 + 12 × 0 words                            → 21000 + 22 + 2600 + 60  = 23682
    //  - calling ecrecover (0x01), untouched, with no input:
    //    warm (100) + 3000                                       → 21000 + 22 + 100 + 3000 = 24122
    const MOVED_TO = '0x0000000000000000000000000000000000123456'
    const caller = (target: string) => `0x${'6000'.repeat(5)}73${target.slice(2)}5af15000`
    const A = '0xca00000000000000000000000000000000000001'
    const B = '0xca00000000000000000000000000000000000002'
    const C = '0xca00000000000000000000000000000000000003'
    const res = await rpc(chain.edge.url, 'eth_simulateV1', [
      {
        blockStateCalls: [
          {
            stateOverrides: {
              '0x0000000000000000000000000000000000000002': { movePrecompileToAddress: MOVED_TO, code: '0x5f5000' },
              [A]: { code: caller('0x0000000000000000000000000000000000000002') },
              [B]: { code: caller(MOVED_TO) },
              [C]: { code: caller('0x0000000000000000000000000000000000000001') },
            },
            calls: [
              { from: SENDER, to: A },
              { from: SENDER, to: B },
              { from: SENDER, to: C },
            ],
          },
        ],
      },
      'latest',
    ])
    const [toOld, toMoved, toEcrecover] = calls(res)
    expect([toOld, toMoved, toEcrecover].map((c) => c!.status)).toEqual(['0x1', '0x1', '0x1'])
    expect([toOld, toMoved, toEcrecover].map((c) => Number(c!.gasUsed))).toEqual([21126, 23682, 24122])
  })
})
