import { bytesToHex } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../node/devnet/startAnvil.js'
import { createChainRules } from '../chain/createChainRules.js'
import { type VerifiedHeader, parseHeader } from '../chain/parseHeader.js'
import { createUpstream } from '../upstream/createUpstream.js'
import type { Upstream } from '../upstream/types.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import { createLruCache } from '../utils/createLruCache.js'
import { type Proxy, createProxy } from '../../test/src/createProxy.js'
import { deploy, rpcResult, storageContractInitCode } from '../../test/src/rpc.js'
import { createVerifiedStateSource } from './createVerifiedStateSource.js'
import type { Hex } from '../types/hex.js'

// The request pattern of the verified source's prefetch, against a real anvil behind the loopback
// proxy (which logs every call): what no tier holds leaves in one round trip, what is cached never.

let anvil: AnvilInstance
let proxy: Proxy
let upstream: Upstream
let contract: Hex
let block: VerifiedHeader
const ABSENT = '0x000000000000000000000000000000000000dead'
const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex

/** The calls the proxy saw during `run`, as "method address [slots]", one list per HTTP request. */
async function requestsDuring(run: () => Promise<unknown>) {
  const from = proxy.log.length
  upstream.resetStats()
  await run()
  const byRequest = new Map<number, string[]>()
  for (const c of proxy.log.slice(from)) {
    const [address, slots] = c.params as [string, unknown]
    const shown = `${c.method} ${address}${c.method === 'eth_getProof' ? ` [${(slots as string[]).length}]` : ''}`
    byRequest.set(c.request, [...(byRequest.get(c.request) ?? []), shown])
  }
  return { requests: [...byRequest.values()].map((calls) => calls.sort()), roundTrips: upstream.stats().roundTrips }
}

beforeAll(async () => {
  anvil = await startAnvil()
  contract = (await deploy(anvil.url, storageContractInitCode(42))).toLowerCase() as Hex
  await rpcResult(anvil.url, 'evm_mine', [])
  const json = await rpcResult(anvil.url, 'eth_getBlockByNumber', ['latest', false])
  block = parseHeader(json, createChainRules({ chainId: 31337n, hardfork: 'prague' }))
  proxy = await createProxy(anvil.url)
  upstream = createUpstream({ url: proxy.url })
})
afterAll(async () => {
  await upstream?.close()
  await proxy?.stop()
  await anvil?.stop()
})

describe('prefetch of the verified state source', () => {
  it("asks for an unknown account's proof, with its slots, and its code in one round trip; then reads need nothing", async () => {
    const source = createVerifiedStateSource({ upstream, cache: createLruCache(1 << 24) })
    const first = await requestsDuring(() =>
      source.prefetch(block, [{ address: contract, storageKeys: ['0x0', '0x1'] }]),
    )
    expect(first).toEqual({ requests: [[`eth_getCode ${contract}`, `eth_getProof ${contract} [2]`]], roundTrips: 1 })
    const reads = await requestsDuring(async () => {
      expect(await source.getStorage(block, contract, slot(0))).toEqual(new Uint8Array([42]))
      expect(await source.getStorage(block, contract, slot(1))).toEqual(new Uint8Array(0))
      expect(await source.getCode(block, contract)).toHaveLength(11)
    })
    expect(reads).toEqual({ requests: [], roundTrips: 0 })
  })

  it('for a known account, proves only the slots not cached, and asks nothing when all are', async () => {
    const source = createVerifiedStateSource({ upstream, cache: createLruCache(1 << 24) })
    await source.prefetch(block, [{ address: contract, storageKeys: [] }])
    const more = await requestsDuring(() =>
      source.prefetch(block, [{ address: contract, storageKeys: ['0x0', '0x1'] }]),
    )
    // Its code is cached already: no eth_getCode.
    expect(more).toEqual({ requests: [[`eth_getProof ${contract} [2]`]], roundTrips: 1 })
    const again = await requestsDuring(() =>
      source.prefetch(block, [{ address: contract, storageKeys: ['0x1', '0x0'] }]),
    )
    expect(again).toEqual({ requests: [], roundTrips: 0 })
  })

  it('an account proven absent has no slots or code to ask for', async () => {
    const source = createVerifiedStateSource({ upstream, cache: createLruCache(1 << 24) })
    const first = await requestsDuring(() => source.prefetch(block, [{ address: ABSENT, storageKeys: ['0x5'] }]))
    // Unknown until its proof is in, so its code is asked for beside it (and not needed).
    expect(first).toEqual({ requests: [[`eth_getCode ${ABSENT}`, `eth_getProof ${ABSENT} [1]`]], roundTrips: 1 })
    expect(await source.getAccount(block, ABSENT)).toBeUndefined()
    const again = await requestsDuring(async () => {
      await source.prefetch(block, [{ address: ABSENT, storageKeys: ['0x5', '0x6'] }])
      expect(await source.getStorage(block, ABSENT, slot(6))).toEqual(new Uint8Array(0))
      expect(await source.getCode(block, ABSENT)).toEqual(new Uint8Array(0))
    })
    expect(again).toEqual({ requests: [], roundTrips: 0 })
  })

  it('a known account whose code was evicted gets its code alone', async () => {
    const cache = createLruCache(1 << 24)
    const source = createVerifiedStateSource({ upstream, cache })
    await source.prefetch(block, [{ address: contract, storageKeys: [] }])
    const account = await source.getAccount(block, contract)
    cache.delete(cacheKeys.code(bytesToHex(account!.codeHash)))
    const code = await requestsDuring(() => source.prefetch(block, [{ address: contract, storageKeys: [] }]))
    expect(code).toEqual({ requests: [[`eth_getCode ${contract}`]], roundTrips: 1 })
  })
})
