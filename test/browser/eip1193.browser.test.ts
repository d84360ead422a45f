import { BrowserProvider } from 'ethers'
import { createPublicClient, custom } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EdgetraceClient } from '../../src/browser/connectEdgetraceWorker.js'
import {
  type EdgetraceEip1193Provider,
  ProviderRpcError,
  createEip1193Provider,
} from '../../src/browser/createEip1193Provider.js'
import { env, nodeAnswer, startWorker, traceCallParams, txByLabel } from './support.js'

// The EIP-1193 provider over the worker, unchanged as viem's custom() transport and as ethers'
// BrowserProvider: answers equal the Node server's, errors keep their JSON-RPC code and message.
describe('EIP-1193 provider', () => {
  let client: EdgetraceClient
  let provider: EdgetraceEip1193Provider
  const connects: unknown[] = []
  beforeAll(async () => {
    client = await startWorker()
    provider = createEip1193Provider(client)
    provider.on('connect', (info) => connects.push(info))
  })
  afterAll(async () => {
    await provider?.close()
  })

  it('emits connect with the chain id, and answers request({ method, params })', async () => {
    await Promise.resolve()
    expect(connects).toEqual([{ chainId: '0x7a69' }])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69')
    const params = traceCallParams()
    expect(await provider.request({ method: 'debug_traceCall', params })).toEqual(
      (await nodeAnswer('debug_traceCall', params)).result,
    )
  })

  it('rejects with ProviderRpcError carrying the JSON-RPC code, message and data', async () => {
    const err = await provider.request({ method: 'debug_traceTransaction', params: ['0x12'] }).catch((e: unknown) => e)
    const want = (await nodeAnswer('debug_traceTransaction', ['0x12'])).error
    expect(err).toBeInstanceOf(ProviderRpcError)
    expect({ code: (err as ProviderRpcError).code, message: (err as ProviderRpcError).message }).toEqual({
      code: want.code,
      message: want.message,
    })
    const revert = await provider
      .request({ method: 'eth_call', params: [{ to: env().contracts.Scenarios, data: '0x5b2dd100' }, 'latest'] })
      .catch((e: unknown) => e)
    const wantRevert = (await nodeAnswer('eth_call', [{ to: env().contracts.Scenarios, data: '0x5b2dd100' }, 'latest']))
      .error
    expect(wantRevert.code).toBe(3)
    expect({
      code: (revert as ProviderRpcError).code,
      message: (revert as ProviderRpcError).message,
      data: (revert as ProviderRpcError).data,
    }).toEqual(wantRevert)
  })

  it('refuses a malformed request with -32600 and keeps serving', async () => {
    for (const bad of [undefined, null, 'eth_chainId', { params: [] }, { method: 7 }]) {
      await expect(provider.request(bad as never)).rejects.toMatchObject({
        code: -32600,
        message: 'request expects { method: string, params?: array | object }',
      })
    }
    const badParams = await provider
      .request({ method: 'debug_traceCall', params: [{ to: 'nope' }] })
      .catch((e: unknown) => e)
    expect((badParams as ProviderRpcError).code).toBe(-32602)
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69')
  })

  it('works as viem custom() transport', async () => {
    const viem = createPublicClient({ transport: custom(provider) })
    expect(await viem.getChainId()).toBe(31337)
    const { hash } = txByLabel('DELEGATECALL')
    const traced = await viem.request({ method: 'trace_transaction' as never, params: [hash] as never })
    expect(traced).toEqual((await nodeAnswer('trace_transaction', [hash])).result)
    const params = traceCallParams()
    expect(await viem.request({ method: 'debug_traceCall' as never, params: params as never })).toEqual(
      (await nodeAnswer('debug_traceCall', params)).result,
    )
    const err = await viem
      .request({ method: 'sidechain_getSnapshot' as never, params: [] as never })
      .catch((e: unknown) => e)
    expect((err as { code?: number }).code).toBe(-32601)
  })

  it('works as ethers BrowserProvider', async () => {
    const ethers = new BrowserProvider(provider)
    expect((await ethers.getNetwork()).chainId).toBe(31337n)
    const { hash } = txByLabel('CREATE')
    expect(await ethers.send('trace_transaction', [hash])).toEqual(
      (await nodeAnswer('trace_transaction', [hash])).result,
    )
    const params = traceCallParams()
    expect(await ethers.send('debug_traceCall', params)).toEqual((await nodeAnswer('debug_traceCall', params)).result)
    const err = await ethers.send('sidechain_getSnapshot', []).catch((e: unknown) => e)
    expect(JSON.stringify((err as { error?: unknown }).error ?? err)).toContain('-32601')
    ethers.destroy()
  })

  it('sends progress as EIP-1193 message events', async () => {
    const messages: { type: string; data: { method: string; done: number; total: number } }[] = []
    const listener = (m: { type: string; data: unknown }) => messages.push(m as never)
    provider.on('message', listener)
    const { blockNumber } = txByLabel('nested token calls (transferFrom, transfer, balanceOf)')
    await provider.request({ method: 'trace_block', params: [`0x${blockNumber.toString(16)}`] })
    provider.removeListener('message', listener)
    expect(messages.at(-1)).toMatchObject({
      type: 'edgetrace_progress',
      data: { method: 'trace_block', unit: 'transactions' },
    })
  })

  it('after close: disconnect (4900) and requests refused with 4900', async () => {
    const own = createEip1193Provider(await startWorker())
    const disconnects: ProviderRpcError[] = []
    own.on('disconnect', (e) => disconnects.push(e))
    await own.close()
    expect(disconnects.map((e) => e.code)).toEqual([4900])
    await expect(own.request({ method: 'eth_chainId' })).rejects.toMatchObject({ code: 4900 })
  })
})
