import { BrowserProvider, JsonRpcProvider } from 'ethers'
import { createPublicClient, custom, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type EdgetraceProvider,
  ProviderRpcError,
  UpstreamUnavailableError,
  createEdgetrace,
  createUpstream,
} from '../src/node/index.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { createProxy } from './src/createProxy.js'
import { txByLabel, withDevnet } from './src/devnet.js'
import { eip2612PermitTypes } from './src/eip2612PermitTypes.js'
import { expectSameViemReads } from './src/expectSameViemReads.js'
import { rpcResult } from './src/rpc.js'

// The library API (issue 35): createEdgetrace({ upstream }) in Node — a URL, an EIP-1193 provider
// (viem's client and transport, ethers' provider wrapped), a fallback list whose first entry is
// down — and the provider it returns behind viem's custom() and ethers' BrowserProvider, every
// value compared with what anvil itself answers.

let devnet: Devnet
const opened: EdgetraceProvider[] = []
const open = async (options: Parameters<typeof createEdgetrace>[0]) => {
  const edgetrace = await createEdgetrace({ hardfork: 'prague', ...options })
  opened.push(edgetrace)
  return edgetrace
}

beforeAll(async () => {
  devnet = await withDevnet()
}, 120_000)
afterAll(async () => {
  for (const e of opened) await e.close()
  await devnet?.stop()
})

/** anvil's own callTracer frame, made comparable (test/differential/anvilTracers.test.ts, deviation A: root gas). */
async function anvilCallFrame(hash: string, ours: { gas: string }) {
  const theirs = await rpcResult(devnet.anvil.url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])
  return { ...theirs, gas: ours.gas }
}

const TRACED = 'recursion 5 deep'

describe('createEdgetrace({ upstream: URL })', () => {
  it('answers EIP-1193 requests as anvil does, and traces a transaction on verified state', async () => {
    const edgetrace = await open({ upstream: devnet.anvil.url })
    expect(await edgetrace.request({ method: 'eth_blockNumber' })).toBe(
      await rpcResult(devnet.anvil.url, 'eth_blockNumber'),
    )
    expect(await edgetrace.request({ method: 'eth_getBalance', params: [devnet.accounts[1], 'latest'] })).toBe(
      await rpcResult(devnet.anvil.url, 'eth_getBalance', [devnet.accounts[1], 'latest']),
    )
    const { hash } = txByLabel(devnet, TRACED)
    const tree = await edgetrace.trace(hash)
    expect(tree.calls?.length).toBeGreaterThan(0)
    expect(tree).toEqual(await anvilCallFrame(hash, tree))
    // The same as the method itself.
    expect(
      await edgetrace.request({ method: 'debug_traceTransaction', params: [hash, { tracer: 'callTracer' }] }),
    ).toEqual(tree)
  })

  it('rejects as EIP-1193 says: ProviderRpcError with the JSON-RPC code, message and data', async () => {
    const edgetrace = await open({ upstream: devnet.anvil.url })
    const bad = await edgetrace
      .request({ method: 'eth_getBalance', params: ['0x12', 'latest'] })
      .catch((err: unknown) => err)
    expect(bad).toBeInstanceOf(ProviderRpcError)
    expect((bad as ProviderRpcError).code).toBe(-32602)
    expect((bad as ProviderRpcError).message).toMatch(/invalid argument 0/)
    const missing = await edgetrace.request({ method: 'nope_nothing' }).catch((err: unknown) => err)
    expect((missing as ProviderRpcError).code).toBe(-32601)
    // A revert's data comes along (geth's -32000 … execution reverted, data the revert's bytes).
    const reverted = (await edgetrace
      .request({
        method: 'eth_call',
        params: [{ to: devnet.contracts.Scenarios, data: '0x5b2dd100' /* revertWithReason() */ }, 'latest'],
      })
      .catch((err: unknown) => err)) as ProviderRpcError
    expect(reverted.code).toBe(3)
    expect(reverted.data).toMatch(/^0x08c379a0/)
    const notArgs = await edgetrace.request('eth_blockNumber' as never).catch((err: unknown) => err)
    expect((notArgs as ProviderRpcError).code).toBe(-32600)
  })

  it('refuses an upstream that is neither a URL nor a provider, naming it (-32602)', async () => {
    await expect(createEdgetrace({ upstream: 'ftp://example.org' })).rejects.toMatchObject({
      code: -32602,
      shortMessage: expect.stringMatching(/^invalid upstream: expected an http\(s\):\/\/ or ws\(s\):\/\/ URL/),
    })
    await expect(createEdgetrace({ upstream: [devnet.anvil.url, 42 as never] })).rejects.toMatchObject({
      code: -32602,
      shortMessage: expect.stringMatching(/^invalid upstream\[1\]: .* got number$/),
    })
    await expect(createEdgetrace({ upstream: [] })).rejects.toMatchObject({ code: -32602 })
  })

  it('takes a ws:// URL, and an upstream client made with createUpstream', async () => {
    const ws = await open({ upstream: devnet.anvil.url.replace(/^http/, 'ws') })
    const made = await open({ upstream: createUpstream({ url: devnet.anvil.url, retries: 1 }) })
    const { hash } = txByLabel(devnet, TRACED)
    const expected = await (await open({ upstream: devnet.anvil.url })).trace(hash)
    expect(await ws.trace(hash)).toEqual(expected)
    expect(await made.trace(hash)).toEqual(expected)
  })

  it('previewTransactions and previewTypedData are their methods, typed', async () => {
    const edgetrace = await open({ upstream: devnet.anvil.url })
    const [from, to] = [devnet.accounts[0]!, devnet.accounts[5]!]
    const calls = [{ from, to, value: '0xde0b6b3a7640000' as const }]
    const preview = await edgetrace.previewTransactions(calls)
    expect(preview.calls.map((c) => c.status)).toEqual(['success'])
    expect(preview.account).toBe(from)
    expect(preview.assetChanges[0]?.token.standard).toBe('native')
    const asked = await edgetrace.request({ method: 'edgetrace_previewTransactions', params: [calls, 'latest'] })
    expect({ ...preview, signals: undefined, trust: undefined }).toEqual({
      ...(asked as object),
      signals: undefined,
      trust: undefined,
    })
    const typed = await edgetrace.previewTypedData(from, {
      types: { EIP712Domain: [{ name: 'name', type: 'string' }], Note: [{ name: 'text', type: 'string' }] },
      primaryType: 'Note',
      domain: { name: 'notes' },
      message: { text: 'hello' },
    })
    expect(typed.recognized).toBe(false)
  })

  it('JavaScript tracers run on a worker thread with a URL upstream; with a provider they are refused, saying why', async () => {
    const tracer =
      '{ n: 0, step: function () { this.n++ }, fault: function () {}, result: function () { return this.n } }'
    const { hash } = txByLabel(devnet, TRACED)
    const withUrl = await open({ upstream: devnet.anvil.url })
    // The thread started for it (seconds on a loaded machine) does not count against the tracer's
    // timeout (5 s by default), which is left as it is.
    const steps = await withUrl.request({ method: 'debug_traceTransaction', params: [hash, { tracer }] })
    expect(typeof steps === 'number' && steps > 100).toBe(true)
    const withProvider = await open({ upstream: createPublicClient({ transport: http(devnet.anvil.url) }) })
    await expect(
      withProvider.request({ method: 'debug_traceTransaction', params: [hash, { tracer }] }),
    ).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(/JavaScript tracers run on worker threads/),
    })
  })

  it('eth_subscribe: notifications are EIP-1193 message events', async () => {
    const edgetrace = await open({ upstream: devnet.anvil.url, engine: { subscriptionPollMs: 100 } })
    const heads: { number: string }[] = []
    let id: unknown
    edgetrace.on('message', ({ type, data }) => {
      const note = data as { subscription: string; result: { number: string } }
      if (type === 'eth_subscription' && note.subscription === id) heads.push(note.result)
    })
    id = await edgetrace.request({ method: 'eth_subscribe', params: ['newHeads'] })
    expect(typeof id).toBe('string')
    await rpcResult(devnet.anvil.url, 'evm_mine')
    const mined = await rpcResult(devnet.anvil.url, 'eth_blockNumber')
    await expect.poll(() => heads.map((h) => h.number), { timeout: 10_000 }).toContain(mined)
    expect(await edgetrace.request({ method: 'eth_unsubscribe', params: [id] })).toBe(true)
  })

  it('close() ends it: later requests reject with 4900', async () => {
    const edgetrace = await createEdgetrace({ upstream: devnet.anvil.url, hardfork: 'prague' })
    let disconnected: ProviderRpcError | undefined
    edgetrace.on('disconnect', (err) => {
      disconnected = err
    })
    await edgetrace.close()
    expect(disconnected?.code).toBe(4900)
    await expect(edgetrace.request({ method: 'eth_blockNumber' })).rejects.toMatchObject({ code: 4900 })
  })
})

describe('createEdgetrace({ upstream: EIP-1193 provider })', () => {
  it('reads through viem (a client, and the http transport itself) and ethers (JsonRpcProvider wrapped)', async () => {
    const { hash } = txByLabel(devnet, TRACED)
    const viemClient = createPublicClient({ transport: http(devnet.anvil.url) })
    const viemTransport = http(devnet.anvil.url)({})
    const ethers = new JsonRpcProvider(devnet.anvil.url, undefined, { staticNetwork: true })
    const ethersEip1193 = {
      request: ({ method, params }: { method: string; params?: unknown }) =>
        ethers.send(method, (params as unknown[]) ?? []),
    }
    const expected = await (await open({ upstream: devnet.anvil.url })).trace(hash)
    for (const upstream of [viemClient, viemTransport, ethersEip1193]) {
      const edgetrace = await open({ upstream })
      expect(await edgetrace.trace(hash)).toEqual(expected)
      expect(await edgetrace.request({ method: 'eth_getBalance', params: [devnet.accounts[2], 'latest'] })).toBe(
        await rpcResult(devnet.anvil.url, 'eth_getBalance', [devnet.accounts[2], 'latest']),
      )
      // The upstream's own JSON-RPC error comes through with its code and message (eth_sign is
      // forwarded as it is; anvil holds no key for this account).
      const signParams = ['0x1111111111111111111111111111111111111111', '0xdeadbeef']
      const direct = await fetch(devnet.anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sign', params: signParams }),
      }).then((r) => r.json())
      expect(direct.error).toEqual({ code: -32602, message: 'No Signer available' })
      const refused = await edgetrace.request({ method: 'eth_sign', params: signParams }).catch((err: unknown) => err)
      expect(refused).toBeInstanceOf(ProviderRpcError)
      expect(refused).toMatchObject(direct.error)
    }
    ethers.destroy()
  })

  it('a provider that cannot reach its node fails the start as unreachable', async () => {
    const down = createPublicClient({ transport: http('http://127.0.0.1:9/', { retryCount: 0 }) })
    await expect(createEdgetrace({ upstream: down, hardfork: 'prague' })).rejects.toBeInstanceOf(
      UpstreamUnavailableError,
    )
  })
})

describe('createEdgetrace({ upstream: [fallbacks] })', () => {
  it('uses the next entry when the first is down, and the first again once it answers', async () => {
    // The first entry: a real proxy in front of anvil, dropping every connection while `down`.
    let down = true
    const proxy = await createProxy(devnet.anvil.url, { onRequest: () => (down ? 'drop' : undefined) })
    const logs: string[] = []
    try {
      const edgetrace = await open({
        upstream: [proxy.url, devnet.anvil.url],
        upstreamOptions: { unreachableCooldownMs: 200 },
        onLog: (line) => logs.push(line),
      })
      const { hash } = txByLabel(devnet, TRACED)
      const tree = await edgetrace.trace(hash)
      expect(tree).toEqual(await anvilCallFrame(hash, tree))
      expect(logs.some((l) => l.includes(`${devnet.anvil.url}`) && l.includes('answers'))).toBe(true)
      const before = proxy.requests
      // Meanwhile the first entry is skipped at once (its cooldown), not asked per call.
      expect(await edgetrace.request({ method: 'eth_getBalance', params: [devnet.accounts[3], 'latest'] })).toBe(
        await rpcResult(devnet.anvil.url, 'eth_getBalance', [devnet.accounts[3], 'latest']),
      )
      expect(proxy.requests - before).toBeLessThanOrEqual(2)
      // Back up: past its cooldown the first entry answers again.
      down = false
      await new Promise((resolve) => setTimeout(resolve, 300))
      const asked = proxy.log.length
      await edgetrace.request({ method: 'eth_getBalance', params: [devnet.accounts[4], 'latest'] })
      expect(proxy.log.length).toBeGreaterThan(asked)
    } finally {
      await proxy.stop()
    }
  })

  it("a JSON-RPC error is the first entry's answer: the next entry is not asked", async () => {
    const refusing = await createProxy(devnet.anvil.url, { refuseMethods: ['eth_getProof'] })
    const second = await createProxy(devnet.anvil.url)
    try {
      const edgetrace = await open({ upstream: [refusing.url, second.url] })
      const err = (await edgetrace
        .request({ method: 'eth_getBalance', params: [devnet.accounts[6], 'latest'] })
        .catch((e: unknown) => e)) as ProviderRpcError
      expect(err).toBeInstanceOf(ProviderRpcError)
      expect(err.message).toMatch(/eth_getProof/)
      expect(refusing.calls.get('eth_getProof')).toBeGreaterThan(0)
      expect(second.calls.get('eth_getProof') ?? 0).toBe(0)
      expect(second.requests).toBe(0)
    } finally {
      await refusing.stop()
      await second.stop()
    }
  })

  it('fails with every entry named when none answers', async () => {
    const err = await createEdgetrace({
      upstream: ['http://127.0.0.1:9/', 'http://127.0.0.1:7/'],
      hardfork: 'prague',
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamUnavailableError)
    expect((err as UpstreamUnavailableError).shortMessage).toMatch(
      /no upstream answered eth_chainId \(http:\/\/127\.0\.0\.1:9.*; http:\/\/127\.0\.0\.1:7/,
    )
  })
})

describe('createEdgetrace behind viem and ethers', () => {
  it('viem custom(edgetrace) and ethers BrowserProvider(edgetrace) read the same as straight from anvil', async () => {
    const edgetrace = await open({ upstream: devnet.anvil.url })
    const viaEdgetrace = createPublicClient({ transport: custom(edgetrace) })
    const viaAnvil = createPublicClient({ transport: http(devnet.anvil.url) })
    const { blockNumber: txBlock, hash } = txByLabel(devnet, TRACED)
    await expectSameViemReads(viaEdgetrace, viaAnvil, { blockNumber: BigInt(txBlock), address: devnet.accounts[1]! })
    // anvil adds two fields of its own to a receipt (blobGasPrice on a transaction without blobs, blockTimestamp).
    const { blobGasPrice: _, blockTimestamp: __, ...anvilReceipt } = await viaAnvil.getTransactionReceipt({ hash })
    expect(await viaEdgetrace.getTransactionReceipt({ hash })).toEqual(anvilReceipt)
    // A trace through viem's request: the same tree anvil computes.
    const tree = (await viaEdgetrace.request({
      method: 'debug_traceTransaction' as never,
      params: [hash, { tracer: 'callTracer' }] as never,
    })) as { gas: string }
    expect(tree).toEqual(await anvilCallFrame(hash, tree))
    // An error through viem keeps its code.
    await expect(
      viaEdgetrace.request({ method: 'eth_getBalance', params: ['0x12' as never, 'latest'] }),
    ).rejects.toMatchObject({ code: -32602 })

    const ethersOurs = new BrowserProvider(edgetrace)
    const ethersTheirs = new JsonRpcProvider(devnet.anvil.url, undefined, { staticNetwork: true })
    try {
      const [a, b] = await Promise.all([ethersOurs.getBlock(txBlock), ethersTheirs.getBlock(txBlock)])
      expect(a?.hash).toBe(b?.hash)
      expect(a?.transactions).toEqual(b?.transactions)
      expect(a?.gasUsed).toBe(b?.gasUsed)
      expect(await ethersOurs.getBalance(devnet.accounts[1]!)).toBe(await ethersTheirs.getBalance(devnet.accounts[1]!))
      expect((await ethersOurs.getNetwork()).chainId).toBe((await ethersTheirs.getNetwork()).chainId)
      expect(await ethersOurs.send('debug_traceTransaction', [hash, { tracer: 'callTracer' }])).toEqual(tree)
    } finally {
      ethersOurs.destroy()
      ethersTheirs.destroy()
    }
  })
})

describe('createEdgetrace: previewTypedData(account, typedData, block, options)', () => {
  it("hands options (the spender signals' windows) to edgetrace_previewTypedData: newContract flagged by default, not with newContractDays 0", async () => {
    const edgetrace = await open({ upstream: devnet.anvil.url })
    const account = devnet.accounts[0]!
    // An EIP-2612 permit for the devnet's token whose spender is a contract the devnet deployed (days young).
    const spender = devnet.contracts.Scenarios! as `0x${string}`
    const permit = {
      types: eip2612PermitTypes(),
      primaryType: 'Permit',
      domain: {
        name: 'Edge Token',
        version: '1',
        chainId: Number(await rpcResult(devnet.anvil.url, 'eth_chainId')),
        verifyingContract: devnet.contracts.Token!,
      },
      message: { owner: account, spender, value: '5', nonce: '0', deadline: '99999999999' },
    }
    const kinds = (p: Record<string, unknown>) => (p.signals as { kind: string }[]).map((s) => s.kind)
    const byDefault = await edgetrace.previewTypedData(account, permit)
    expect(byDefault.recognized).toBe(true)
    expect(kinds(byDefault)).toContain('newContract')
    const options = { newContractDays: 0, firstInteractionBlocks: 0 }
    const off = await edgetrace.previewTypedData(account, permit, undefined, options)
    expect(kinds(off)).not.toContain('newContract')
    expect(kinds(off)).not.toContain('firstInteraction')
    const asked = await edgetrace.request({
      method: 'edgetrace_previewTypedData',
      params: [account, permit, 'latest', options],
    })
    expect({ ...off, trust: undefined }).toEqual({ ...(asked as object), trust: undefined })
    // The options are checked as the method checks them.
    await expect(edgetrace.previewTypedData(account, permit, 'latest', { newContractDays: -1 })).rejects.toMatchObject({
      code: -32602,
    })
  })
})
