import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { replayTransaction } from '../src/exec/replayTransaction.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { withDevnetAndEdgetrace } from './src/devnet.js'
import { rpcResult } from './src/rpc.js'

// The embedded devnet, and every one of its transactions replayed on verified state: each replay
// checks gas used and status against anvil's receipt (a mismatch throws).

let devnet: Devnet
let edge: RunningEdgetrace

let stop: () => Promise<void>

beforeAll(async () => {
  ;({ devnet, edge, stop } = await withDevnetAndEdgetrace())
})
afterAll(() => stop())

describe('embedded devnet', () => {
  it('has its contracts deployed and every transaction mined with the status it was meant to have', async () => {
    for (const address of Object.values(devnet.contracts)) {
      expect((await rpcResult(devnet.anvil.url, 'eth_getCode', [address, 'latest'])).length).toBeGreaterThan(4)
    }
    for (const tx of devnet.transactions) {
      const receipt = await rpcResult(devnet.anvil.url, 'eth_getTransactionReceipt', [tx.hash])
      expect(receipt.status).toBe(tx.status === 'success' ? '0x1' : '0x0')
    }
    expect(new Set(devnet.transactions.map((t) => t.type))).toEqual(new Set([0, 1, 2, 4]))
    // The EIP-7702 authorities carry the delegation designators (to Scenarios, to its helper instance),
    // and the first EOA's counter (slot 0) was written by both calls into it: its own increment(),
    // and the helper's increment() reached by DELEGATECALL through the second EOA.
    expect(await rpcResult(devnet.anvil.url, 'eth_getCode', [devnet.contracts.DelegatedEOA, 'latest'])).toBe(
      `0xef0100${devnet.contracts.Scenarios!.slice(2)}`,
    )
    expect(await rpcResult(devnet.anvil.url, 'eth_getCode', [devnet.contracts.SecondDelegatedEOA, 'latest'])).toBe(
      `0xef0100${devnet.contracts.Helper!.slice(2)}`,
    )
    expect(
      BigInt(await rpcResult(devnet.anvil.url, 'eth_getStorageAt', [devnet.contracts.DelegatedEOA, '0x0', 'latest'])),
    ).toBe(2n)
    const type4 = devnet.transactions.filter((t) => t.label.startsWith('EIP-7702 (type 4)'))
    expect(type4).toHaveLength(2)
    for (const tx of type4) {
      const receipt = await rpcResult(devnet.anvil.url, 'eth_getTransactionReceipt', [tx.hash])
      expect([receipt.type, receipt.status], tx.label).toEqual(['0x4', '0x1'])
    }
    expect(
      devnet.transactions.filter((t) => t.label.startsWith('block of several')).map((t) => t.blockNumber),
    ).toSatisfy((blocks: number[]) => blocks.length > 1 && new Set(blocks).size === 1)
  })

  it('replays every devnet transaction with the gas and status of its receipt', async () => {
    for (const tx of devnet.transactions) {
      const replayed = await replayTransaction(edge.engine, tx.hash)
      expect(replayed.result.execResult.exceptionError === undefined, tx.label).toBe(tx.status === 'success')
    }
  })

  it('a warm replay costs one upstream call: where the transaction is', async () => {
    const tx = devnet.transactions.find((t) => t.label === 'nested token calls (transferFrom, transfer, balanceOf)')!
    await replayTransaction(edge.engine, tx.hash)
    edge.upstream.resetStats()
    await replayTransaction(edge.engine, tx.hash)
    // Only the transaction's position is asked again (a pending or re-orged transaction can move); block and state are cached.
    expect(edge.upstream.stats()).toMatchObject({ calls: 1, roundTrips: 1 })
  })
})
