import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { expectedRoot } from './src/borRootTree.js'
import { rpc, rpcResult } from './src/rpc.js'

describe('the sidechain namespace', () => {
  let anvil: AnvilInstance
  let offNetwork: RunningEdgetrace
  let bor: RunningEdgetrace
  beforeAll(async () => {
    // London headers (no withdrawals, blobs or beacon root), as a Bor chain's before Agra.
    anvil = await startAnvil({ hardfork: 'london' })
    await rpcResult(anvil.url, 'anvil_mine', ['0x30'])
    offNetwork = await startEdgetrace({ upstream: anvil.url, port: 0, hardfork: 'london', api: ['eth', 'sidechain'] })
    // The same node read as a Bor chain of its own: a geth-style genesis with a bor section.
    bor = await startEdgetrace({
      upstream: anvil.url,
      port: 0,
      api: ['eth', 'bor'],
      genesis: {
        config: {
          chainId: 31337,
          londonBlock: 0,
          bor: { period: { '0': 2 }, sprint: { '0': 16 }, jaipurBlock: 0, delhiBlock: 0, indoreBlock: 0 },
        },
        alloc: {},
      } as never,
    })
  }, 60_000)
  afterAll(async () => {
    await offNetwork?.close()
    await bor?.close()
    await anvil?.stop()
  })

  it('off a Bor chain, every method under either name does not exist (the reference’s -32601)', async () => {
    for (const method of ['sidechain_getAuthor', 'bor_getAuthor', 'sidechain_getRootHash', 'bor_getSnapshot']) {
      expect(await rpc(offNetwork.url, method, [])).toMatchObject({
        error: { code: -32601, message: `the method ${method} does not exist/is not available` },
      })
    }
  })

  it('getRootHash: the checkpoint tree of verified headers, hex without 0x, under both names', async () => {
    for (const [start, end] of [
      [1, 1],
      [1, 3],
      [5, 36],
      [10, 40],
    ] as const) {
      const expected = await expectedRoot(anvil.url, start, end)
      expect(await rpcResult(bor.url, 'bor_getRootHash', [start, end])).toBe(expected)
      expect(await rpcResult(bor.url, 'sidechain_getRootHash', [start, end])).toBe(expected)
    }
  })

  it('getRootHash: the reference’s checks, in its order, word for word', async () => {
    const head = Number(await rpcResult(anvil.url, 'eth_blockNumber', []))
    const error = async (params: unknown[]) => (await rpc(bor.url, 'bor_getRootHash', params)).error
    expect(await error([1, 32_769])).toEqual({
      code: -32000,
      message: 'Start: 1 and end block: 32769 exceed max allowed checkpoint length: 32768',
    })
    // uint64: an end before the start wraps to a length past the limit (the same error), unless by one.
    expect((await error([5, 3])).message).toBe('Start: 5 and end block: 3 exceed max allowed checkpoint length: 32768')
    expect(await error([5, 4])).toEqual({
      code: -32000,
      message: 'Invalid parameters start: 5 and end block: 4 params',
    })
    expect((await error([1, head + 1])).message).toBe(`Invalid parameters start: 1 and end block: ${head + 1} params`)
    expect(await error(['0x1', 2])).toMatchObject({ code: -32602 })
    expect((await error(['0x1', 2])).message).toMatch(/cannot unmarshal string into Go value of type uint64/)
  })

  it('getVoteOnHash: the end block’s hash compared, once 16 blocks confirm it', async () => {
    const head = Number(await rpcResult(anvil.url, 'eth_blockNumber', []))
    const end = head - 16
    const hash = (await rpcResult(anvil.url, 'eth_getBlockByNumber', [`0x${end.toString(16)}`, false])).hash
    expect(await rpcResult(bor.url, 'bor_getVoteOnHash', [1, end, hash, 'milestone-1'])).toBe(true)
    expect(await rpcResult(bor.url, 'bor_getVoteOnHash', [1, end, `0x${'ab'.repeat(32)}`, 'milestone-1'])).toBe(false)
    expect((await rpc(bor.url, 'bor_getVoteOnHash', [1, end + 1, hash, 'm'])).error).toEqual({
      code: -32000,
      message: 'failed to get tip confirmation block',
    })
  })

  it('getAuthor: a header with no seal gets the reference’s extraData error; an unknown block, `unknown block`', async () => {
    expect((await rpc(bor.url, 'bor_getAuthor', ['0x5'])).error).toEqual({
      code: -32000,
      message: 'extra-data 32 byte vanity prefix missing',
    })
    expect((await rpc(bor.url, 'bor_getAuthor', ['0xffffff'])).error).toMatchObject({
      code: -32000,
      message: 'unknown block',
    })
  })
})
