import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { replayTransaction } from '../src/exec/replayTransaction.js'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy, type Proxy } from './src/createProxy.js'
import { DEV_ACCOUNT, deploy, rpcResult, storageContractInitCode } from './src/rpc.js'

// Replay of mined transactions: parent state, system calls, earlier transactions, then the one
// asked for — checked against the chain at every step.

let anvil: AnvilInstance
let proxy: Proxy
const hashes: string[] = []
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

async function edge(): Promise<RunningEdgetrace> {
  return startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague' })
}

beforeAll(async () => {
  anvil = await startAnvil()
  await rpcResult(anvil.url, 'evm_mine', []) // state at block 0 of anvil does not verify: start at block 2
  const contract = await deploy(anvil.url, storageContractInitCode(5))
  // Several transactions of every type in one block, one of them failing.
  await rpcResult(anvil.url, 'evm_setAutomine', [false])
  const send = async (tx: Record<string, unknown>) =>
    hashes.push(await rpcResult(anvil.url, 'eth_sendTransaction', [tx]))
  await send({ from: DEV_ACCOUNT, to: OTHER, value: '0xde0b6b3a7640000', gasPrice: '0x77359400', type: '0x0' })
  await send({
    from: OTHER,
    to: contract,
    data: '0x',
    type: '0x1',
    accessList: [{ address: contract, storageKeys: [`0x${'0'.repeat(64)}`] }],
  })
  await send({
    from: DEV_ACCOUNT,
    to: contract,
    data: '0x01',
    maxFeePerGas: '0x77359400',
    maxPriorityFeePerGas: '0x3b9aca00',
  })
  await send({ from: DEV_ACCOUNT, to: contract, data: '0x', gas: '0x5208' }) // 21000: runs out of gas in the call
  await send({ from: OTHER, data: storageContractInitCode(9) }) // a creation
  await rpcResult(anvil.url, 'evm_mine', [])
  await rpcResult(anvil.url, 'evm_setAutomine', [true])
  proxy = await createProxy(anvil.url)
})
afterAll(async () => {
  await proxy.stop()
  await anvil.stop()
})

describe('replayTransaction', () => {
  it('replays every transaction of a block, matching the receipts', async () => {
    const e = await edge()
    const receipts = await Promise.all(hashes.map((h) => rpcResult(anvil.url, 'eth_getTransactionReceipt', [h])))
    expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(1)
    expect(receipts.map((r) => r.status)).toEqual(['0x1', '0x1', '0x1', '0x0', '0x1'])
    for (const [i, hash] of hashes.entries()) {
      const replayed = await replayTransaction(e.engine, hash)
      expect(replayed.index).toBe(Number(receipts[i].transactionIndex))
      expect(`0x${replayed.result.totalGasSpent.toString(16)}`).toBe(receipts[i].gasUsed)
      expect(replayed.result.execResult.exceptionError === undefined).toBe(receipts[i].status === '0x1')
      if (receipts[i].contractAddress)
        expect(replayed.result.createdAddress?.toString()).toBe(receipts[i].contractAddress)
    }
    await e.close()
  })

  it('refuses to replay when the upstream lies about gas used', async () => {
    proxy.hooks = {
      transform: (c, result: any) =>
        c.method === 'eth_getBlockReceipts' ? result.map((r: any) => ({ ...r, gasUsed: '0x5209' })) : result,
    }
    const e = await edge()
    await expect(replayTransaction(e.engine, hashes[0]!)).rejects.toThrow(
      /replay does not match the chain: transaction 0x[0-9a-f]+ \(index 0\) of block \d+ 0x[0-9a-f]+ used 21000 gas in replay, the upstream's receipt says 21001/,
    )
    await e.close()
    proxy.hooks = {}
  })

  it('refuses a block whose transactions do not hash to its transactionsRoot', async () => {
    proxy.hooks = {
      transform: (c, result: any) =>
        c.method === 'eth_getBlockByHash' && result?.transactions?.length
          ? {
              ...result,
              transactions: result.transactions.map((t: any, i: number) => (i === 0 ? { ...t, value: '0x1' } : t)),
            }
          : result,
    }
    const e = await edge()
    await expect(replayTransaction(e.engine, hashes[1]!)).rejects.toThrow(
      "transactions do not hash to the header's transactionsRoot",
    )
    await e.close()
    proxy.hooks = {}
  })

  it('says so when the transaction is unknown', async () => {
    const e = await edge()
    await expect(replayTransaction(e.engine, `0x${'12'.repeat(32)}`)).rejects.toThrow('not found')
    await e.close()
  })

  it('asks where a transaction is every time while its block is recent, never again once the block is final', async () => {
    const e = await edge()
    const calls = () => proxy.calls.get('eth_getTransactionByHash') ?? 0
    await replayTransaction(e.engine, hashes[2]!)
    const before = calls()
    await replayTransaction(e.engine, hashes[2]!)
    expect(calls()).toBe(before + 1) // recent block: a reorg may still move it
    await rpcResult(anvil.url, 'anvil_mine', ['0x48']) // 72 blocks on top
    await e.engine.headers.resolve({ kind: 'tag', tag: 'latest' }) // edgetrace sees the new head
    await replayTransaction(e.engine, hashes[2]!)
    const settled = calls()
    await replayTransaction(e.engine, hashes[2]!)
    expect(calls()).toBe(settled) // at least 64 blocks deep: the kept location is used
    await e.close()
  })
})
