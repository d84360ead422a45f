import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeCall } from '../src/node/devnet/abi.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { withDevnetAndEdgetrace } from './src/devnet.js'
import { rpc } from './src/rpc.js'

// eth_simulateV1 through edgetrace (simulated locally on verified state) against anvil's own, on the
// devnet: an ERC-20 transfer (its Transfer log), a call that reverts (code 3, reason, data), and a
// value transfer with traceTransfers (ERC-7528 log from 0xEeee…EEeE). Compared per call: status,
// returnData, gasUsed, logs (address, topics, data) and error. Not the headers: anvil's simulated
// blocks carry a zero stateRoot and receipts of its own making (deviations); geth's headers are
// checked byte for byte in test/conformance/executionApisSimulate.test.ts.

let devnet: Devnet
let edge: RunningEdgetrace
let stop: () => Promise<void>
let block: string

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withDevnetAndEdgetrace())
  block = (await rpc(devnet.anvil.url, 'eth_blockNumber')).result
})
afterAll(() => stop())

const callView = (c: any) => ({
  status: c.status,
  returnData: c.returnData,
  gasUsed: c.gasUsed,
  logs: c.logs.map((l: any) => ({ address: l.address.toLowerCase(), topics: l.topics, data: l.data })),
  error: c.error ? { code: c.error.code, message: c.error.message } : undefined,
})

async function both(options: unknown) {
  const ours = await rpc(edge.url, 'eth_simulateV1', [options, block])
  const theirs = await rpc(devnet.anvil.url, 'eth_simulateV1', [options, block])
  expect(ours.error, JSON.stringify(ours.error)).toBeUndefined()
  expect(theirs.error, JSON.stringify(theirs.error)).toBeUndefined()
  return { ours: ours.result, theirs: theirs.result }
}

describe('eth_simulateV1 against anvil', () => {
  it('an ERC-20 transfer: its Transfer log and return value', async () => {
    const alice = devnet.accounts[0]!
    const bob = devnet.accounts[1]!
    const { ours, theirs } = await both({
      blockStateCalls: [
        {
          calls: [
            { from: alice, to: devnet.contracts.Token, data: encodeCall('transfer(address,uint256)', [bob, 5n]) },
          ],
        },
      ],
    })
    expect(ours[0].calls.map(callView)).toEqual(theirs[0].calls.map(callView))
    expect(ours[0].calls[0].logs).toHaveLength(1)
    // geth numbers the first simulated block base + 1; anvil (deviation) gave the base's own number.
    expect(BigInt(ours[0].number)).toBe(BigInt(block) + 1n)
  })

  it('a call that reverts: status 0 and code 3 with the reason and data', async () => {
    const { ours, theirs } = await both({
      blockStateCalls: [{ calls: [{ to: devnet.contracts.Scenarios, data: encodeCall('revertWithReason()') }] }],
    })
    expect(ours[0].calls[0].status).toBe('0x0')
    expect(ours[0].calls[0].error.code).toBe(3)
    // geth's returnData of a failed call is empty and the revert data is error.data; anvil (deviation)
    // gives it as returnData and its error has no data.
    expect(ours[0].calls[0].returnData).toBe('0x')
    expect(ours[0].calls[0].error.data).toBe(theirs[0].calls[0].returnData)
    expect(ours[0].calls[0].error.message).toBe('execution reverted: scenario reverted')
    // Status, gas and logs as anvil's (its error message is its own: a deviation).
    const pick = (c: any) => ({ status: c.status, gasUsed: c.gasUsed, logs: c.logs })
    expect(pick(ours[0].calls[0])).toEqual(pick(theirs[0].calls[0]))
  })

  it('a value transfer with traceTransfers: an ERC-7528 Transfer log from 0xEeee…EEeE', async () => {
    const from = '0xc000000000000000000000000000000000000000'
    const to = '0xc100000000000000000000000000000000000000'
    const { ours, theirs } = await both({
      blockStateCalls: [
        { stateOverrides: { [from]: { balance: '0x3e8' } }, calls: [{ from, to, value: '0x3e8' }] },
        { calls: [{ from: to, to: from, value: '0x1' }] },
      ],
      traceTransfers: true,
    })
    expect(ours[0].calls[0].logs[0].address.toLowerCase()).toBe('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')
    expect(ours.map((b: any) => b.calls.map(callView))).toEqual(theirs.map((b: any) => b.calls.map(callView)))
    // geth's default timestamps: the parent's + 12 s per block (anvil's differ: its own clock).
    const base = (await rpc(edge.url, 'eth_getBlockByNumber', [block, false])).result
    expect(BigInt(ours[1].timestamp)).toBe(BigInt(base.timestamp) + 24n)
  })

  it('refuses bad input with geth codes and keeps serving', async () => {
    const empty = await rpc(edge.url, 'eth_simulateV1', [{ blockStateCalls: [] }, block])
    expect(empty.error).toEqual({ code: -32602, message: 'empty input' })
    const order = await rpc(edge.url, 'eth_simulateV1', [
      { blockStateCalls: [{ blockOverrides: { number: '0x1' } }] },
      block,
    ])
    expect(order.error.code).toBe(-38020)
    const bad = await rpc(edge.url, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [{ to: 'nope' }] }] }, block])
    expect(bad.error.code).toBe(-32602)
    expect(bad.error.message).toContain('blockStateCalls[0]')
    expect((await rpc(edge.url, 'eth_chainId')).result).toBeDefined()
  })
})

describe('eth_simulateV1 semantics (geth)', () => {
  const a = '0xc000000000000000000000000000000000000000'
  const b = '0xc100000000000000000000000000000000000000'

  it('withdrawals credit their gwei after the block, for the next block to spend', async () => {
    const options = {
      blockStateCalls: [
        { blockOverrides: { withdrawals: [{ index: '0x0', validatorIndex: '0x1', address: a, amount: '0x1' }] } },
        { calls: [{ from: a, to: b, value: '0x3b9aca00' }] },
      ],
    }
    const { result, error } = await rpc(edge.url, 'eth_simulateV1', [options, block])
    expect(error).toBeUndefined()
    expect(result[0].withdrawals).toEqual([{ index: '0x0', validatorIndex: '0x1', address: a, amount: '0x1' }])
    expect(result[0].withdrawalsRoot).not.toBe('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421')
    expect(result[1].calls[0].status).toBe('0x1')
    // Without the withdrawal the sender has nothing to send.
    const without = await rpc(edge.url, 'eth_simulateV1', [{ blockStateCalls: [options.blockStateCalls[1]] }, block])
    expect(without.error.code).toBe(-38014)
  })

  it('--rpc.gascap bounds the whole request, not each call', async () => {
    const capped = await startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      engine: { gasCap: 50_000n },
    })
    try {
      const transfer = { from: a, to: b }
      const { error } = await rpc(capped.url, 'eth_simulateV1', [
        { blockStateCalls: [{ calls: [transfer] }, { calls: [transfer, transfer] }] },
        block,
      ])
      // 21000 + 21000 used: the third call gets what is left of the cap, 8000 gas.
      expect(error).toEqual({
        code: -38013,
        message: 'err: intrinsic gas too low: have 8000, want 21000 (supplied gas 8000)',
      })
    } finally {
      await capped.close()
    }
  })

  it('fills gaps with empty blocks 12 s apart and refuses more than 256 blocks', async () => {
    const { result } = await rpc(edge.url, 'eth_simulateV1', [
      { blockStateCalls: [{ blockOverrides: { number: `0x${(BigInt(block) + 3n).toString(16)}` } }] },
      block,
    ])
    expect(result.map((r: any) => BigInt(r.number) - BigInt(block))).toEqual([1n, 2n, 3n])
    expect(BigInt(result[2].timestamp) - BigInt(result[1].timestamp)).toBe(12n)
    expect(result[1].parentHash).toBe(result[0].hash)
    const far = await rpc(edge.url, 'eth_simulateV1', [
      { blockStateCalls: [{ blockOverrides: { number: `0x${(BigInt(block) + 257n).toString(16)}` } }] },
      block,
    ])
    expect(far.error).toEqual({ code: -38026, message: 'too many blocks' })
  })

  it('BASEFEE is the block’s base fee, also for a call without fees (geth)', async () => {
    // BASEFEE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    const code = '0x4860005260206000f3'
    const { result, error } = await rpc(edge.url, 'eth_simulateV1', [
      {
        blockStateCalls: [
          { blockOverrides: { baseFeePerGas: '0x7' }, stateOverrides: { [b]: { code } }, calls: [{ from: a, to: b }] },
        ],
      },
      block,
    ])
    expect(error).toBeUndefined()
    expect(result[0].baseFeePerGas).toBe('0x7')
    expect(BigInt(result[0].calls[0].returnData)).toBe(7n)
  })

  it('a create above EIP-3860’s initcode limit: -38025 with geth’s words', async () => {
    const data = `0x${'00'.repeat(49153)}`
    const { error } = await rpc(edge.url, 'eth_simulateV1', [
      { blockStateCalls: [{ calls: [{ from: a, data }] }] },
      block,
    ])
    // The call's gas defaults to the block's gas limit (below the gas cap here).
    const { gasLimit } = (await rpc(edge.url, 'eth_getBlockByNumber', [block, false])).result
    expect(error).toEqual({
      code: -38025,
      message: `err: max initcode size exceeded: code size 49153 limit 49152 (supplied gas ${BigInt(gasLimit)})`,
    })
  })
})
