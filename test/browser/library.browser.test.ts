import { BrowserProvider, JsonRpcProvider } from 'ethers'
import { createPublicClient, custom, http } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import { ProviderRpcError } from '../../src/errors/provider.js'
import {
  EdgetraceStartError,
  type EdgetraceProvider,
  connectEdgetraceWorker,
  createEdgetrace,
} from '../../src/browser/index.js'
import { expectSameViemReads } from '../src/expectSameViemReads.js'
import { env, freshCacheName, newWorker, nodeAnswer, txByLabel } from './support.js'

// The library API in Chromium (issue 35): createEdgetrace({ upstream }) from the browser entry —
// the daemon in a Web Worker — behind viem's custom() and ethers' BrowserProvider in the page, with
// a URL, with a provider of the page (its calls bridged from the worker through the page), and with
// a fallback list whose first entry is down; every value compared with anvil's own and the Node
// server's.

const opened: EdgetraceProvider[] = []
async function open(upstream: Parameters<typeof createEdgetrace>[0]['upstream']) {
  const edgetrace = await createEdgetrace({
    upstream,
    worker: newWorker(),
    hardfork: 'prague',
    cache: { name: freshCacheName('edgetrace-library') },
  })
  opened.push(edgetrace)
  return edgetrace
}
afterAll(async () => {
  for (const e of opened) await e.close()
})

const TRACED = 'recursion 5 deep'

describe('createEdgetrace in the browser', () => {
  it('viem custom(edgetrace) in the page reads the same block, balance and trace as anvil and the Node server', async () => {
    const edgetrace = await open(env().anvilUrl)
    const viaEdgetrace = createPublicClient({ transport: custom(edgetrace) })
    const viaAnvil = createPublicClient({ transport: http(env().anvilUrl) })
    const { blockNumber, hash } = txByLabel(TRACED)
    await expectSameViemReads(viaEdgetrace, viaAnvil, { blockNumber: BigInt(blockNumber), address: env().accounts[1]! })
    const tree = await edgetrace.trace(hash)
    expect(tree.calls?.length).toBeGreaterThan(0)
    expect(tree).toEqual((await nodeAnswer('debug_traceTransaction', [hash, { tracer: 'callTracer' }])).result)
    // Errors reach viem with their JSON-RPC code.
    await expect(
      viaEdgetrace.request({ method: 'eth_getBalance', params: ['0x12' as never, 'latest'] }),
    ).rejects.toMatchObject({ code: -32602 })
  })

  it('ethers BrowserProvider(edgetrace) in the page reads the same as ethers straight from anvil', async () => {
    const edgetrace = await open(env().anvilUrl)
    const ours = new BrowserProvider(edgetrace)
    const theirs = new JsonRpcProvider(env().anvilUrl, undefined, { staticNetwork: true })
    try {
      const { blockNumber } = txByLabel(TRACED)
      const [a, b] = await Promise.all([ours.getBlock(blockNumber), theirs.getBlock(blockNumber)])
      expect(a?.hash).toBe(b?.hash)
      expect(a?.transactions).toEqual(b?.transactions)
      const who = env().accounts[2]!
      expect(await ours.getBalance(who)).toBe(await theirs.getBalance(who))
      expect((await ours.getNetwork()).chainId).toBe((await theirs.getNetwork()).chainId)
    } finally {
      ours.destroy()
      theirs.destroy()
    }
  })

  it("a provider of the page as the upstream: the worker's reads are asked through the page, its errors kept", async () => {
    // viem's client in the page, talking to anvil; the worker never sees its URL.
    const pageProvider = createPublicClient({ transport: http(env().anvilUrl) })
    const asked: string[] = []
    const edgetrace = await open({
      request: (args: { method: string; params?: unknown }) => {
        asked.push(args.method)
        return pageProvider.request(args as never)
      },
    })
    const { hash } = txByLabel(TRACED)
    expect(await edgetrace.trace(hash)).toEqual(
      (await nodeAnswer('debug_traceTransaction', [hash, { tracer: 'callTracer' }])).result,
    )
    expect(asked).toContain('eth_getProof')
    // The upstream's JSON-RPC error comes back through the worker with anvil's code and message.
    const refused = await edgetrace
      .request({ method: 'eth_sign', params: ['0x1111111111111111111111111111111111111111', '0xdeadbeef'] })
      .catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(ProviderRpcError)
    expect(refused).toMatchObject({ code: -32602, message: 'No Signer available' })
  })

  it('refuses an upstream entry that is neither a URL nor a provider, naming its place (-32602)', async () => {
    const err = (await createEdgetrace({
      upstream: [env().anvilUrl, 42 as never],
      worker: newWorker(),
      cache: false,
    }).catch((e: unknown) => e)) as EdgetraceStartError
    expect(err).toBeInstanceOf(EdgetraceStartError)
    expect(err.error).toEqual({
      code: -32602,
      message:
        'invalid config.upstream[1]: expected an http(s):// or ws(s):// URL, or { page: i } (a provider of the page), got 42',
    })
    // A page's provider named in a worker's config without the page to answer for it.
    const unbridged = (await connectEdgetraceWorker(newWorker(), {
      upstream: [{ page: 0 }],
      cache: false,
    }).catch((e: unknown) => e)) as EdgetraceStartError
    expect(unbridged.error.code).toBe(-32602)
    expect(unbridged.error.message).toMatch(/^invalid config\.upstream\[0\]: expected a URL: a page's provider needs/)
  })

  it('a fallback list whose first entry is down: the next one answers', async () => {
    const pageProvider = createPublicClient({ transport: http(env().anvilUrl) })
    const edgetrace = await open(['http://127.0.0.1:9/', pageProvider])
    const viaEdgetrace = createPublicClient({ transport: custom(edgetrace) })
    const who = env().accounts[3]!
    const viaAnvil = createPublicClient({ transport: http(env().anvilUrl) })
    expect(await viaEdgetrace.getBalance({ address: who })).toBe(await viaAnvil.getBalance({ address: who }))
    const { hash } = txByLabel(TRACED)
    expect(await edgetrace.trace(hash)).toEqual(
      (await nodeAnswer('debug_traceTransaction', [hash, { tracer: 'callTracer' }])).result,
    )
  })
})
