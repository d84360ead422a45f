import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeCall } from '../src/node/devnet/abi.js'
import { USAGE, parseCliArgs } from '../src/node/parseCliArgs.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { withDevnetAndEdgetrace } from './src/devnet.js'
import { rpc, rpcResult, storageContractInitCode, waitForReceipt } from './src/rpc.js'

// eth_estimateGas is the exact least gas a call runs with, as the reference daemon (Erigon's
// rpcdaemon) and anvil answer it; geth's 1.5% tolerance only behind --rpc.gasestimate.errorratio.

let devnet: Devnet
let edge: RunningEdgetrace
let tolerant: RunningEdgetrace
let stop: () => Promise<void>
let alice: `0x${string}`
let c: Record<string, `0x${string}`>

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withDevnetAndEdgetrace())
  alice = devnet.accounts[0]!
  c = devnet.contracts
  // Slots to clear: `clear()` then earns a refund for each.
  const hash = await rpcResult(devnet.anvil.url, 'eth_sendTransaction', [
    { from: alice, to: c.Scenarios, data: encodeCall('fill(uint256)', [12]) },
  ])
  expect((await waitForReceipt(devnet.anvil.url, hash)).status).toBe('0x1')
  tolerant = await startEdgetrace({
    upstream: devnet.anvil.url,
    port: 0,
    hardfork: 'prague',
    engine: { estimateGasErrorRatio: 0.015 },
  })
}, 120_000)
afterAll(async () => {
  await tolerant?.close()
  await stop?.()
})

const estimate = async (url: string, call: Record<string, unknown>) => {
  const out = await rpc(url, 'eth_estimateGas', [call, 'latest'])
  if (out.error) throw new Error(JSON.stringify(out.error))
  return BigInt(out.result)
}

const scenarios = (): [name: string, call: Record<string, unknown>][] => [
  ['a value transfer to an account without code', { from: alice, to: `0x${'5e'.repeat(20)}`, value: '0x1' }],
  [
    'a token transfer (a contract call)',
    { from: alice, to: c.Token, data: encodeCall('transfer(address,uint256)', [c.Scenarios!, 5]) },
  ],
  [
    'nested calls that need the 63/64 rule (8 levels of external self-calls)',
    { from: alice, to: c.Scenarios, data: encodeCall('recurse(uint256)', [8]) },
  ],
  ['a CREATE from a contract (63/64 too)', { from: alice, to: c.Scenarios, data: encodeCall('create(uint256)', [7]) }],
  ['a refund-heavy call (12 storage slots cleared)', { from: alice, to: c.Scenarios, data: encodeCall('clear()') }],
  ['storage writes (8 new slots)', { from: alice, to: c.Scenarios, data: encodeCall('fill(uint256)', [8]) }],
  ['a contract deployment', { from: alice, data: storageContractInitCode(5) }],
]

describe('eth_estimateGas: the exact least gas, equal to anvil’s', () => {
  const NAMES = [
    'a value transfer to an account without code',
    'a token transfer (a contract call)',
    'nested calls that need the 63/64 rule (8 levels of external self-calls)',
    'a CREATE from a contract (63/64 too)',
    'a refund-heavy call (12 storage slots cleared)',
    'storage writes (8 new slots)',
    'a contract deployment',
  ]
  it.each(NAMES)('%s', async (name) => {
    const call = scenarios().find(([n]) => n === name)![1]
    const [ours, theirs] = await Promise.all([estimate(edge.url, call), estimate(devnet.anvil.url, call)])
    expect(ours).toBe(theirs)
    // The least: the call succeeds with it, and runs out of gas with one less.
    const at = (gas: bigint) => rpc(edge.url, 'eth_call', [{ ...call, gas: `0x${gas.toString(16)}` }, 'latest'])
    expect((await at(ours)).error).toBeUndefined()
    expect((await at(ours - 1n)).error).toBeDefined()
  })

  it('the refund-heavy call needs its gas before the refund: more than the gas it is charged', async () => {
    const call = { from: alice, to: c.Scenarios, data: encodeCall('clear()') }
    const ours = await estimate(edge.url, call)
    const list = await rpcResult(edge.url, 'eth_createAccessList', [call, 'latest'])
    expect(ours).toBeGreaterThan(BigInt(list.gasUsed))
  })

  it('with --rpc.gasestimate.errorratio 0.015 (geth’s) it may stop above the least, within 1.5%', async () => {
    let above = 0
    for (const [, call] of scenarios()) {
      const [loose, exact] = await Promise.all([estimate(tolerant.url, call), estimate(edge.url, call)])
      expect(loose).toBeGreaterThanOrEqual(exact)
      expect(Number(loose - exact) / Number(exact)).toBeLessThan(0.015)
      if (loose > exact) above++
    }
    // The tolerance is used: some answer is not the least.
    expect(above).toBeGreaterThan(0)
  })
})

describe('--rpc.gasestimate.errorratio', () => {
  it('is 0 (exact) by default, takes a fraction below 1, refuses anything else by name, and is in --help', () => {
    expect(parseCliArgs([]).estimateGasErrorRatio).toBe(0)
    expect(parseCliArgs(['--rpc.gasestimate.errorratio', '0.015']).estimateGasErrorRatio).toBe(0.015)
    expect(parseCliArgs(['--rpc.gasestimate.errorratio=0']).estimateGasErrorRatio).toBe(0)
    for (const bad of ['1', '1.5', '-0.1', 'abc', '']) {
      expect(() => parseCliArgs(['--rpc.gasestimate.errorratio', bad])).toThrow('--rpc.gasestimate.errorratio')
    }
    expect(USAGE).toContain('--rpc.gasestimate.errorratio R')
  })
})
