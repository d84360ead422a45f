import { readFileSync } from 'node:fs'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type FixtureNode, startFixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { createProxy } from './src/createProxy.js'
import { rpc, rpcResult } from './src/rpc.js'

// parity_listStorageKeys: keys enumerated by an upstream with debug_storageRangeAt (the fixture node
// on Besu's trace chain), ordered by the key itself as the reference daemon orders them, each
// returned key proven non-empty; a forged key refused; anvil (no debug_storageRangeAt) a clear error.

const chain = new URL('./fixtures/besu/trace-chain/chain-data/', import.meta.url)
const genesis = JSON.parse(readFileSync(new URL('genesis.json', chain), 'utf8')) as Record<string, unknown>
const SETTER = '0x0010000000000000000000000000000000000000' // stores the key/value pairs of its input
const TOKEN = '0xbaaa2a3237035a2c7fa2a33c76b44a8c6fe18e87' // a token contract with several slots
const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

let node: FixtureNode
let edge: RunningEdgetrace
beforeAll(async () => {
  node = await startFixtureNode({ genesis, blocks: new Uint8Array(readFileSync(new URL('blocks.bin', chain))) })
  edge = await startEdgetrace({ upstream: node.url, port: 0, api: ['eth', 'parity'], genesis: genesis as never })
}, 60_000)
afterAll(async () => {
  await edge?.close()
  await node?.close()
})

/**
 * TOKEN's keys at the head as the fixture node's own debug_storageRangeAt lists them (hashed order),
 * sorted by key, each non-zero by eth_getStorageAt.
 */
async function keysAtHead(): Promise<string[]> {
  const head = await rpcResult(node.url, 'eth_getBlockByNumber', ['latest', false])
  const range = await rpcResult(node.url, 'debug_storageRangeAt', [
    head.hash,
    head.transactions.length,
    TOKEN,
    '0x00',
    1000,
  ])
  const keys = Object.values(range.storage as Record<string, { key: string }>).map((e) => e.key)
  for (const k of keys) expect(BigInt(await rpcResult(node.url, 'eth_getStorageAt', [TOKEN, k, 'latest']))).not.toBe(0n)
  // Hashed order (the upstream's) is not key order: the answer must be reordered.
  expect(keys).not.toEqual([...keys].sort())
  return keys.sort()
}

describe('parity_listStorageKeys', () => {
  it('lists the keys in ascending key order, from offset (inclusive), at most quantity', async () => {
    const expected = await keysAtHead()
    expect(expected.length).toBeGreaterThan(3)
    const all = await rpcResult(edge.url, 'parity_listStorageKeys', [TOKEN, 100, null, 'latest'])
    expect(all).toEqual(expected)
    expect(await rpcResult(edge.url, 'parity_listStorageKeys', [TOKEN, -1, null, 'latest'])).toEqual(expected)
    expect(await rpcResult(edge.url, 'parity_listStorageKeys', [TOKEN, 2, null, 'latest'])).toEqual(
      expected.slice(0, 2),
    )
    expect(await rpcResult(edge.url, 'parity_listStorageKeys', [TOKEN, 0, null, 'latest'])).toEqual([])
    // The offset is inclusive, and compared byte-wise (a shorter offset is a prefix).
    expect(await rpcResult(edge.url, 'parity_listStorageKeys', [TOKEN, 2, expected[1], 'latest'])).toEqual(
      expected.slice(1, 3),
    )
    expect(await rpcResult(edge.url, 'parity_listStorageKeys', [TOKEN, 100, '0xff', 'latest'])).toEqual([])
    expect(await rpcResult(edge.url, 'parity_listStorageKeys', [TOKEN, 100, '0x00', 'latest'])).toEqual(expected)
  })

  it('pages through every key, two a page, the next offset just past the last key', async () => {
    const expected = await keysAtHead()
    const seen: string[] = []
    let offset: string | null = null
    for (let page = 0; page <= expected.length; page++) {
      const keys = (await rpcResult(edge.url, 'parity_listStorageKeys', [TOKEN, 2, offset, 'latest'])) as string[]
      seen.push(...keys)
      if (keys.length < 2) break
      // The offset is inclusive: the next page starts at the key after the last one seen.
      offset = `0x${(BigInt(keys[1]!) + 1n).toString(16).padStart(64, '0')}`
    }
    expect(seen).toEqual(expected)
    expect(new Set(seen).size).toBe(seen.length)
  })

  it('refuses a block other than latest, an unknown account and bad arguments in the reference words', async () => {
    const wrongTag = `listStorageKeys wrong block tag or number: must be '0x${'0'.repeat(52)}6c6174657374' ('latest')`
    for (const block of ['0x1', 'earliest', 'pending']) {
      const out = await rpc(edge.url, 'parity_listStorageKeys', [SETTER, 10, null, block])
      expect(out.error).toEqual({ code: -32000, message: wrongTag })
    }
    const none = await rpc(edge.url, 'parity_listStorageKeys', [`0x${'ab'.repeat(20)}`, 10, null, 'latest'])
    expect(none.error).toEqual({ code: -32000, message: 'acc not found' })
    expect((await rpc(edge.url, 'parity_listStorageKeys', [SETTER, 10, null])).error).toEqual({
      code: -32602,
      message: 'missing value for required argument 3',
    })
    expect((await rpc(edge.url, 'parity_listStorageKeys', [SETTER, '0xa', null, 'latest'])).error).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal string into Go value of type int',
    })
    expect((await rpc(edge.url, 'parity_listStorageKeys', ['0x12', 10, null, 'latest'])).error?.message).toMatch(
      /^invalid argument 0: /,
    )
    expect((await rpc(edge.url, 'parity_listStorageKeys', [SETTER, 10, 'zz', 'latest'])).error?.message).toMatch(
      /^invalid argument 2: /,
    )
    // Still serving.
    expect(await rpcResult(edge.url, 'parity_listStorageKeys', [TOKEN, 1, null, 'latest'])).toHaveLength(1)
  })

  it('refuses a key the verified state holds empty', async () => {
    const proxy = await createProxy(node.url, {
      transform: (call, result: any) => {
        if (call.method === 'debug_storageRangeAt' && result.nextKey === null) {
          // A made-up slot 0x…77, filed under its right hash: only its proof can refute it.
          const key = slot(0x77)
          const hashed = `0x${Buffer.from(keccak_256(Buffer.from(key.slice(2), 'hex'))).toString('hex')}`
          result.storage[hashed] = { key, value: slot(5) }
        }
        return result
      },
    })
    const lying = await startEdgetrace({
      upstream: proxy.url,
      port: 0,
      api: ['eth', 'parity'],
      genesis: genesis as never,
    })
    try {
      const out = await rpc(lying.url, 'parity_listStorageKeys', [TOKEN, 100, null, 'latest'])
      expect(out.error?.code).toBe(-32000)
      expect(out.error?.message).toMatch(
        /^state does not verify: block \d+: the upstream lists a slot the verified state holds empty$/,
      )
      expect(out.error?.data).toMatchObject({ address: TOKEN, slot: slot(0x77) })
    } finally {
      await lying.close()
      await proxy.stop()
    }
  })

  it('says clearly that an upstream without debug_storageRangeAt (anvil) cannot enumerate storage', async () => {
    const anvil = await startAnvil()
    const e = await startEdgetrace({ upstream: anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'parity'] })
    try {
      await rpcResult(anvil.url, 'anvil_setStorageAt', [SETTER, slot(1), slot(1)])
      await rpcResult(anvil.url, 'anvil_setCode', [SETTER, '0x00'])
      await rpcResult(anvil.url, 'evm_mine', [])
      const out = await rpc(e.url, 'parity_listStorageKeys', [SETTER, 10, null, 'latest'])
      expect(out.error?.code).toBe(-32000)
      expect(out.error?.message).toMatch(/^parity_listStorageKeys needs an upstream that enumerates storage/)
    } finally {
      await e.close()
      await anvil.stop()
    }
  })
})
