import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { encodeCall } from '../src/node/devnet/abi.js'
import { type Devnet, startDevnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type Proxy, type ProxyHooks, createProxy } from './src/createProxy.js'
import { rpc } from './src/rpc.js'

// eth_simulateV1 runs on verified state: a lying upstream (a tampering proxy in front of the devnet's
// anvil) gets an error naming block and address, never a result; and a cold simulation costs few
// sequential round trips (the header with the calls' access lists, then one batch of proofs), a warm
// one none.

let devnet: Devnet
let proxy: Proxy
let edge: RunningEdgetrace | undefined
let block: { number: string; hash: string }

beforeAll(async () => {
  devnet = await startDevnet()
  proxy = await createProxy(devnet.anvil.url)
  block = (await rpc(devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])).result
})
afterEach(async () => {
  await edge?.close()
  edge = undefined
})
afterAll(async () => {
  await proxy.stop()
  await devnet.stop()
})

async function edgeVia(hooks: ProxyHooks, unverified = false) {
  proxy.hooks = hooks
  edge = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague', engine: { unverified } })
  return edge
}

const transfer = () => ({
  blockStateCalls: [
    {
      calls: [
        {
          from: devnet.accounts[0],
          to: devnet.contracts.Token,
          data: encodeCall('transfer(address,uint256)', [devnet.accounts[1]!, 5n]),
        },
      ],
    },
  ],
  traceTransfers: true,
})

describe('eth_simulateV1 on verified state', () => {
  it('refuses a sender balance the proof does not prove, naming block and address', async () => {
    const alice = devnet.accounts[0]!.toLowerCase()
    const e = await edgeVia({
      transform: (c, result: any) =>
        c.method === 'eth_getProof' && String(c.params[0]).toLowerCase() === alice
          ? { ...result, balance: '0x1' }
          : result,
    })
    const { result, error } = await rpc(e.url, 'eth_simulateV1', [transfer(), block.number])
    expect(result).toBeUndefined()
    expect(error.code).toBe(-32000)
    expect(error.message).toContain('account fields differ from what the proof proves')
    expect(error.data.address).toBe(alice)
    expect(error.data.block).toEqual({ number: block.number, hash: block.hash })
    expect((await rpc(e.url, 'eth_chainId')).result).toBeDefined()
  })

  it('refuses a token balance slot the proof does not prove', async () => {
    const e = await edgeVia({
      // Only the token's slots (the block's system calls read other contracts' slots too).
      transform: (c, result: any) =>
        c.method === 'eth_getProof' &&
        String((c.params as unknown[])[0]).toLowerCase() === devnet.contracts.Token!.toLowerCase() &&
        result.storageProof?.length > 0
          ? { ...result, storageProof: result.storageProof.map((s: any) => ({ ...s, value: '0x2b' })) }
          : result,
    })
    const { error } = await rpc(e.url, 'eth_simulateV1', [transfer(), block.number])
    expect(error.message).toContain('storage value differs from what the proof proves')
    expect(error.data.address).toBe(devnet.contracts.Token!.toLowerCase())
  })

  it('refuses to give a post-state root the upstream proofs do not support, naming block and address', async () => {
    const alice = devnet.accounts[0]!.toLowerCase()
    let asked = 0
    const e = await edgeVia({
      // The first proof of the sender (read for execution) is honest; the one asked to compute the
      // root comes without its last node, as if the upstream had lost it.
      transform: (c, result: any) => {
        if (c.method !== 'eth_getProof' || String(c.params[0]).toLowerCase() !== alice) return result
        asked++
        return asked === 1 ? result : { ...result, accountProof: result.accountProof.slice(0, -1) }
      },
    })
    const { result, error } = await rpc(e.url, 'eth_simulateV1', [transfer(), block.number])
    expect(asked).toBe(2)
    expect(result).toBeUndefined()
    expect(error.code).toBe(-32000)
    expect(error.message).toContain(
      `the post-state root of simulated block ${BigInt(block.number) + 1n} needs a trie node the upstream's proofs did not bring`,
    )
    expect(error.data.block).toEqual({ number: block.number, hash: block.hash })
    expect(error.data.address).toBe(alice)
  })

  it('a cold simulation takes 3 sequential round trips, a warm one none', async () => {
    const e = await edgeVia({})
    const before = proxy.requests
    const cold = await rpc(e.url, 'eth_simulateV1', [transfer(), { blockHash: block.hash }])
    expect(cold.error).toBeUndefined()
    expect(cold.result[0].calls[0].status).toBe('0x1')
    expect(proxy.requests - before).toBeLessThanOrEqual(3)
    const warmBefore = proxy.requests
    const warm = await rpc(e.url, 'eth_simulateV1', [transfer(), { blockHash: block.hash }])
    expect(warm.result).toEqual(cold.result)
    expect(proxy.requests - warmBefore).toBe(0)
  })

  it('with --unverified (an upstream without eth_getProof) simulates, its stateRoot the zero hash', async () => {
    const e = await edgeVia({ refuseMethods: ['eth_getProof'] }, true)
    const proofsBefore = proxy.calls.get('eth_getProof') ?? 0
    const { result, error } = await rpc(e.url, 'eth_simulateV1', [transfer(), block.number])
    expect(error).toBeUndefined()
    expect(result[0].calls[0].status).toBe('0x1')
    expect(result[0].stateRoot).toBe(`0x${'0'.repeat(64)}`)
    expect(proxy.calls.get('eth_getProof') ?? 0).toBe(proofsBefore)
  })
})
