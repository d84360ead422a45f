import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type AnvilInstance } from '../src/node/devnet/startAnvil.js'
import { type FixtureNode, startFixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy } from './src/createProxy.js'
import { rpc, rpcResult } from './src/rpc.js'

// debug_storageRangeAt: enumerated by an upstream that offers it (the fixture node, serving Besu's
// trace chain), every listed slot checked against verified state; a forged value refused; an
// upstream without the method (anvil) answered with a clear error.

const chain = new URL('./fixtures/besu/trace-chain/chain-data/', import.meta.url)
const genesis = JSON.parse(readFileSync(new URL('genesis.json', chain), 'utf8')) as Record<string, unknown>
const SETTER = '0x0010000000000000000000000000000000000000' // stores the key/value pairs of its input

let node: FixtureNode
let edge: RunningEdgetrace
beforeAll(async () => {
  node = await startFixtureNode({ genesis, blocks: new Uint8Array(readFileSync(new URL('blocks.bin', chain))) })
  edge = await startEdgetrace({ upstream: node.url, port: 0, api: ['eth', 'debug'], genesis: genesis as never })
}, 60_000)
afterAll(async () => {
  await edge?.close()
  await node?.close()
})

describe('debug_storageRangeAt', () => {
  it('lists the slots the upstream enumerates, each verified, before and within a block', async () => {
    const block4 = await rpcResult(node.url, 'eth_getBlockByNumber', ['0x4', false])
    const block5 = await rpcResult(node.url, 'eth_getBlockByNumber', ['0x5', false])
    // Block 4's first transaction writes slots 1 and 2 (1, 2); its later ones leave slot 1 cleared
    // and slot 2 at 4 — so: nothing before the block, both slots inside it, one slot after it.
    const slots = (r: any) =>
      Object.values(r.storage as Record<string, { key: string; value: string }>).map((e) => [
        BigInt(e.key),
        BigInt(e.value),
      ])
    const before = await rpcResult(edge.url, 'debug_storageRangeAt', [block4.hash, 0, SETTER, '0x00', 10])
    const within = await rpcResult(edge.url, 'debug_storageRangeAt', [block4.hash, 1, SETTER, '0x00', 10])
    const after = await rpcResult(edge.url, 'debug_storageRangeAt', [block5.hash, 0, SETTER, '0x00', 10])
    expect(slots(before)).toEqual([])
    expect(slots(within)).toEqual(
      expect.arrayContaining([
        [1n, 1n],
        [2n, 2n],
      ]),
    )
    expect(slots(within)).toHaveLength(2)
    expect(slots(after)).toEqual([[2n, 4n]])
    expect(after).toEqual(await rpcResult(node.url, 'debug_storageRangeAt', [block5.hash, 0, SETTER, '0x00', 10]))
    const one = await rpcResult(edge.url, 'debug_storageRangeAt', [block4.hash, 1, SETTER, '0x00', 1])
    expect(Object.keys(one.storage)).toHaveLength(1)
    expect(one.nextKey).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('refuses a range whose value was changed on the way, naming block, address and slot in the error data', async () => {
    const proxy = await createProxy(node.url, {
      transform: (call, result: any) => {
        if (call.method === 'debug_storageRangeAt')
          for (const e of Object.values(result.storage) as any[]) e.value = `0x${'0'.repeat(63)}9`
        return result
      },
    })
    const lying = await startEdgetrace({
      upstream: proxy.url,
      port: 0,
      api: ['eth', 'debug'],
      genesis: genesis as never,
    })
    try {
      const block4 = await rpcResult(node.url, 'eth_getBlockByNumber', ['0x4', false])
      const out = await rpc(lying.url, 'debug_storageRangeAt', [block4.hash, 1, SETTER, '0x00', 10])
      expect(out.error?.message).toMatch(
        /^state does not verify: block 4: the upstream's value of the slot is not the verified state's$/,
      )
      // The same facts as structured data: block, address and slot.
      expect(out.error?.code).toBe(-32000)
      expect(out.error?.data).toEqual({
        block: { number: '0x4', hash: block4.hash },
        address: SETTER.toLowerCase(),
        slot: expect.stringMatching(/^0x0{63}[12]$/),
        expectedValue: expect.stringMatching(/^0x0{63}[12]$/),
        gotValue: `0x${'0'.repeat(63)}9`,
      })
    } finally {
      await lying.close()
      await proxy.stop()
    }
  })

  it("adds back the slots the block's earlier transactions wrote when the upstream leaves them out", async () => {
    const proxy = await createProxy(node.url, {
      transform: (call, result: any) =>
        call.method === 'debug_storageRangeAt' ? { storage: {}, nextKey: null } : result,
    })
    const forgetful = await startEdgetrace({
      upstream: proxy.url,
      port: 0,
      api: ['eth', 'debug'],
      genesis: genesis as never,
    })
    try {
      const block4 = await rpcResult(node.url, 'eth_getBlockByNumber', ['0x4', false])
      const out = await rpcResult(forgetful.url, 'debug_storageRangeAt', [block4.hash, 1, SETTER, '0x00', 10])
      expect(out).toEqual(await rpcResult(node.url, 'debug_storageRangeAt', [block4.hash, 1, SETTER, '0x00', 10]))
    } finally {
      await forgetful.close()
      await proxy.stop()
    }
  })

  it('says clearly that an upstream without the method cannot enumerate storage', async () => {
    const anvil: AnvilInstance = await startAnvil()
    await rpcResult(anvil.url, 'evm_mine', [])
    await rpcResult(anvil.url, 'evm_mine', [])
    const e = await startEdgetrace({ upstream: anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'debug'] })
    try {
      const head = await rpcResult(anvil.url, 'eth_getBlockByNumber', ['latest', false])
      const out = await rpc(e.url, 'debug_storageRangeAt', [head.hash, 0, SETTER, '0x00', 10])
      expect(out.error?.message).toMatch(/needs an upstream that enumerates storage/)
    } finally {
      await e.close()
      await anvil.stop()
    }
  })
})

describe('debug_accountRange', () => {
  it('lists the accounts the upstream enumerates, each verified by proof, in pages', async () => {
    const all = await rpcResult(edge.url, 'debug_accountRange', ['0x10', '0x', 0, false, false])
    expect(all.root).toBe((await rpcResult(node.url, 'eth_getBlockByNumber', ['0x10', false])).stateRoot)
    const addresses = Object.keys(all.accounts)
    expect(addresses.length).toBeGreaterThan(10)
    expect(all.accounts[SETTER].code).toBe('0x6020356000355560603560403555')
    // Pages: two accounts, then from `next` on (Erigon's older base64 start and byte arrays accepted too).
    const first = await rpcResult(edge.url, 'debug_accountRange', ['0x10', '0x', 2, true, true])
    expect(Object.keys(first.accounts)).toEqual(addresses.slice(0, 2))
    const nextHex = `0x${Buffer.from(first.next, 'base64').toString('hex')}`
    const second = await rpcResult(edge.url, 'debug_accountRange', ['0x10', first.next, 2, true, true])
    expect(Object.keys(second.accounts)).toEqual(addresses.slice(2, 4))
    expect(await rpcResult(edge.url, 'debug_accountRange', ['0x10', nextHex, 2, true, true])).toEqual(second)
    expect(
      await rpcResult(edge.url, 'debug_accountRange', ['0x10', [...Buffer.from(first.next, 'base64')], 2, true, true]),
    ).toEqual(second)
    expect((await rpc(edge.url, 'debug_accountRange', ['0x10', '0x', 2, true, true, true])).error?.message).toMatch(
      /incompletes is not supported/,
    )
    expect((await rpc(edge.url, 'debug_accountRange', ['pending', '0x', 2, true, true])).error?.message).toBe(
      'accountRange for pending block not supported',
    )
  })

  it('refuses an account whose balance was changed on the way', async () => {
    const proxy = await createProxy(node.url, {
      transform: (call, result: any) => {
        if (call.method === 'debug_accountRange')
          for (const a of Object.values(result.accounts) as any[]) a.balance = '12345'
        return result
      },
    })
    const lying = await startEdgetrace({
      upstream: proxy.url,
      port: 0,
      api: ['eth', 'debug'],
      genesis: genesis as never,
    })
    try {
      const out = await rpc(lying.url, 'debug_accountRange', ['0x10', '0x', 5, true, true])
      expect(out.error?.message).toMatch(
        /^state does not verify: block 16: the upstream's balance of the account is not the proven one$/,
      )
      expect(out.error?.data).toMatchObject({
        block: { number: '0x10' },
        address: expect.stringMatching(/^0x[0-9a-f]{40}$/),
        gotValue: '12345',
        expectedValue: expect.stringMatching(/^\d+$/),
      })
    } finally {
      await lying.close()
      await proxy.stop()
    }
  })
})
