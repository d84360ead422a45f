import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { createEdgetrace } from '../src/createEdgetrace.js'
import { createUpstream } from '../src/upstream/createUpstream.js'
import { createProxy } from './src/createProxy.js'
import { memoryStore } from './src/memoryStore.js'
import { DEV_ACCOUNT, deploy, rpcResult, storageContractInitCode, waitForReceipt } from './src/rpc.js'
import { wideReaderInitCode } from './src/wideReader.js'

// A call's footprint remembered: the next call of the same function, at a later block, asks for
// everything the last one read in its first round trip (with the header and eth_createAccessList).
describe('remembered call footprints', () => {
  let anvil: AnvilInstance
  let edge: RunningEdgetrace
  let reader: string
  let other: string
  const newBlock = async () => {
    const hash = await rpcResult(anvil.url, 'eth_sendTransaction', [
      { from: DEV_ACCOUNT, to: '0x00000000000000000000000000000000000000be', value: '0x1' },
    ])
    await waitForReceipt(anvil.url, hash)
  }
  beforeAll(async () => {
    anvil = await startAnvil()
    const callee = await deploy(anvil.url, storageContractInitCode(7))
    reader = await deploy(anvil.url, wideReaderInitCode(30, 10, callee))
    other = await deploy(anvil.url, wideReaderInitCode(5, 2, callee))
    edge = await startEdgetrace({ upstream: anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'debug'] })
  }, 60_000)
  afterAll(async () => {
    await edge?.close()
    await anvil?.stop()
  })

  it('a repeated call at a new block takes one round trip, and answers as anvil does', async () => {
    const call = { from: DEV_ACCOUNT, to: reader, data: '0x', gas: '0x1000000' }
    edge.upstream.resetStats()
    expect(await rpcResult(edge.url, 'eth_call', [call, 'latest'])).toBe(
      await rpcResult(anvil.url, 'eth_call', [call, 'latest']),
    )
    // Cold, nothing remembered: the header batch, then what the access list named.
    expect(edge.upstream.stats().roundTrips).toBe(2)
    for (let i = 0; i < 2; i++) {
      await newBlock()
      edge.upstream.resetStats()
      const traced = await rpcResult(edge.url, 'debug_traceCall', [call, 'latest', { tracer: 'callTracer' }])
      expect(edge.upstream.stats().roundTrips).toBe(1)
      const expected = await rpcResult(anvil.url, 'debug_traceCall', [call, 'latest', { tracer: 'callTracer' }])
      // anvil's top frame reports the gas left after the intrinsic cost; geth (and edgetrace) the call's gas.
      expect({ ...traced, gas: call.gas }).toEqual({ ...expected, gas: call.gas })
    }
  })

  it('another function or another contract is not predicted from it, and costs what it did before', async () => {
    await newBlock()
    edge.upstream.resetStats()
    const call = { from: DEV_ACCOUNT, to: other, data: '0x' }
    expect(await rpcResult(edge.url, 'eth_call', [call, 'latest'])).toBe(
      await rpcResult(anvil.url, 'eth_call', [call, 'latest']),
    )
    expect(edge.upstream.stats().roundTrips).toBe(2)
    edge.upstream.resetStats()
    const selector = { from: DEV_ACCOUNT, to: reader, data: '0x12345678' }
    expect(await rpcResult(edge.url, 'eth_call', [selector, 'latest'])).toBe(
      await rpcResult(anvil.url, 'eth_call', [selector, 'latest']),
    )
    expect(edge.upstream.stats().roundTrips).toBe(2)
  })

  it('a footprint that no longer fits (the code at the address changed) only costs what the access list finds', async () => {
    // `reader`'s footprint, remembered under its code hash, now offered for a different contract
    // at the same address (as after a redeployment through CREATE2 or a delegation change).
    const callee = await deploy(anvil.url, storageContractInitCode(9))
    const third = await deploy(anvil.url, wideReaderInitCode(3, 1, callee))
    const call = { from: DEV_ACCOUNT, to: third, data: '0x' }
    const readerHash = edge.engine.cache.get<string>(`cc:${reader.toLowerCase()}`)
    expect(readerHash).toMatch(/^0x[0-9a-f]{64}$/)
    edge.engine.cache.set(`cc:${third.toLowerCase()}`, readerHash, 160)
    edge.upstream.resetStats()
    expect(await rpcResult(edge.url, 'eth_call', [call, 'latest'])).toBe(
      await rpcResult(anvil.url, 'eth_call', [call, 'latest']),
    )
    expect(edge.upstream.stats().roundTrips).toBe(2)
  })

  it('a repeated call at a block number not yet final asks only which block it is (no eth_createAccessList again); after a reorg replaced that block, the new one', async () => {
    await newBlock()
    const number = await rpcResult(anvil.url, 'eth_blockNumber')
    const call = { from: DEV_ACCOUNT, to: reader, data: '0x0badf00d' }
    expect(await rpcResult(edge.url, 'eth_call', [call, number])).toBe(
      await rpcResult(anvil.url, 'eth_call', [call, number]),
    )
    edge.upstream.resetStats()
    expect(await rpcResult(edge.url, 'eth_call', [call, number])).toBe(
      await rpcResult(anvil.url, 'eth_call', [call, number]),
    )
    // One request: the block at that number, the same as before, so the access list kept for it holds.
    expect(edge.upstream.stats()).toMatchObject({ roundTrips: 1, calls: 1 })
    // A reorg: anvil drops that block and mines another at its number (a different transaction in it).
    const before = (await rpcResult(anvil.url, 'eth_getBlockByNumber', [number, false])).hash
    await rpcResult(anvil.url, 'anvil_rollback', [1])
    const hash = await rpcResult(anvil.url, 'eth_sendTransaction', [
      { from: DEV_ACCOUNT, to: '0x00000000000000000000000000000000000000bf', value: '0x2' },
    ])
    await waitForReceipt(anvil.url, hash)
    const after = (await rpcResult(anvil.url, 'eth_getBlockByNumber', [number, false])).hash
    expect(after).not.toBe(before)
    edge.upstream.resetStats()
    expect(await rpcResult(edge.url, 'eth_call', [call, number])).toBe(
      await rpcResult(anvil.url, 'eth_call', [call, number]),
    )
    // The guess failed: the block's header, then the batch for the new block.
    expect(edge.upstream.stats().roundTrips).toBeGreaterThanOrEqual(2)
  })

  it('kept in the persistent tier: a fresh daemon on the same store calls the same function at a new block in one round trip', async () => {
    const store = memoryStore()
    const proxy = await createProxy(anvil.url)
    const call = { from: DEV_ACCOUNT, to: reader, data: '0xabcdef01' }
    const daemonOn = async () => {
      const upstream = createUpstream({ url: proxy.url })
      const daemon = await createEdgetrace({ upstream, hardfork: 'prague', api: ['eth'], persistentStore: store })
      const ask = async () => {
        const text = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [call, 'latest'] })
        return JSON.parse((await daemon.handler.handleText(text))!).result
      }
      return { upstream, daemon, ask }
    }
    try {
      const first = await daemonOn()
      expect(await first.ask()).toBe(await rpcResult(anvil.url, 'eth_call', [call, 'latest']))
      await first.daemon.engine.persistent?.flush()
      await first.upstream.close()
      await newBlock()
      const second = await daemonOn()
      second.upstream.resetStats()
      const before = proxy.log.length
      expect(await second.ask()).toBe(await rpcResult(anvil.url, 'eth_call', [call, 'latest']))
      // One batch: the head, the access list, and the proofs and code the stored footprint named.
      expect(new Set(proxy.log.slice(before).map((c) => c.request)).size).toBe(1)
      expect(second.upstream.stats().roundTrips).toBe(1)
      await second.upstream.close()
    } finally {
      await proxy.stop()
    }
  })
})
