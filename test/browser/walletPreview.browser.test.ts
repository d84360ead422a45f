import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import {
  type EdgetraceEip1193Provider,
  type PreviewHook,
  createEip1193Provider,
} from '../../src/browser/createEip1193Provider.js'
import { eip2612PermitTypes } from '../../demo/preview/eip2612PermitTypes.js'
import type { TransactionsPreview, TypedDataPreview, WalletPreview } from '../../src/browser/previewWalletRequest.js'
import { encodeCall } from '../../src/node/devnet/abi.js'
import { type DevnetInfo, anvilResult, startWorker } from './support.js'

// createEip1193Provider(client, { wallet, preview }) in Chromium: a mocked wallet provider (it
// records what reaches it and answers as a wallet would, sending through anvil's unlocked dev
// account) behind the preview wrapper, on a devnet of this file's own.

const ETHER = 10n ** 18n
const FEES = { maxFeePerGas: '0x4a817c800', maxPriorityFeePerGas: '0x3b9aca00', gas: '0x30d40' }

type Seen = { method: string; params: unknown }

/** A wallet provider: what reaches it is recorded; it signs and sends with anvil's dev accounts. */
function mockWallet(anvilUrl: string, account: string) {
  const seen: Seen[] = []
  const sentCalls: string[][] = []
  const wallet = {
    seen,
    sentCalls,
    async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
      seen.push({ method, params })
      const p = (params ?? []) as any[]
      switch (method) {
        case 'eth_accounts':
        case 'eth_requestAccounts':
          return [account]
        case 'eth_chainId':
          return '0x7a69'
        case 'eth_sendTransaction':
        case 'eth_signTypedData_v4':
          return anvilResult(anvilUrl, method, p)
        case 'wallet_sendCalls': {
          const hashes: string[] = []
          for (const c of p[0].calls) {
            hashes.push(await anvilResult(anvilUrl, 'eth_sendTransaction', [{ from: p[0].from ?? account, ...c }]))
          }
          sentCalls.push(hashes)
          return { id: hashes.at(-1) }
        }
        default:
          throw Object.assign(new Error(`the mock wallet does not do ${method}`), { code: 4200 })
      }
    },
  }
  return wallet
}

describe('createEip1193Provider({ wallet, preview })', () => {
  let devnet: DevnetInfo
  let alice: `0x${string}`
  let bob: `0x${string}`
  let carol: `0x${string}`
  let token: `0x${string}`
  let wallet: ReturnType<typeof mockWallet>
  let provider: EdgetraceEip1193Provider
  /** What the hook decides next, and what it was handed. */
  let decide: (result: WalletPreview) => boolean = () => false
  const handed: { request: unknown; result: WalletPreview }[] = []
  const hook: PreviewHook = async (request, result) => {
    handed.push({ request, result })
    return decide(result)
  }

  beforeAll(async () => {
    devnet = await commands.startDevnet()
    ;[alice, bob, carol] = devnet.accounts as [`0x${string}`, `0x${string}`, `0x${string}`]
    token = devnet.contracts.Token!
    wallet = mockWallet(devnet.anvilUrl, alice)
    provider = createEip1193Provider(await startWorker({ upstream: devnet.anvilUrl }), { wallet, preview: hook })
  })
  afterAll(async () => {
    await provider?.close()
    if (devnet) await commands.stopDevnet(devnet.anvilUrl)
  })

  const tokenBalance = async (who: string) =>
    BigInt(
      await anvilResult(devnet.anvilUrl, 'eth_call', [
        { to: token, data: encodeCall('balanceOf(address)', [who as `0x${string}`]) },
        'latest',
      ]),
    )
  const etherBalance = async (who: string) =>
    BigInt(await anvilResult(devnet.anvilUrl, 'eth_getBalance', [who, 'latest']))
  const receipt = async (hash: string) => {
    for (let i = 0; i < 100; i++) {
      const r = await anvilResult(devnet.anvilUrl, 'eth_getTransactionReceipt', [hash])
      if (r) return r
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`${hash} was not mined`)
  }
  const sent = (method: string) => wallet.seen.filter((s) => s.method === method)
  const q = (v: bigint) => `0x${v.toString(16)}`

  it('reads go through edgetrace, account methods to the wallet', async () => {
    const before = wallet.seen.length
    expect(await provider.request({ method: 'eth_blockNumber' })).toBe(
      await anvilResult(devnet.anvilUrl, 'eth_blockNumber', []),
    )
    expect(wallet.seen.length).toBe(before)
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([alice])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(wallet.seen.slice(before).map((s) => s.method)).toEqual(['eth_accounts', 'eth_chainId'])
  })

  it('a token transfer: the hook sees its token and ether changes; refused, the wallet never sees it (4001)', async () => {
    const tx = { from: alice, to: token, data: encodeCall('transfer(address,uint256)', [bob, 5n * ETHER]), ...FEES }
    const head = await anvilResult(devnet.anvilUrl, 'eth_blockNumber', [])
    const pre = await tokenBalance(alice)
    decide = () => false
    const err = await provider.request({ method: 'eth_sendTransaction', params: [tx] }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 4001, message: 'User rejected the request.' })
    expect(sent('eth_sendTransaction')).toEqual([])
    expect(await anvilResult(devnet.anvilUrl, 'eth_blockNumber', [])).toBe(head)

    const { request, result } = handed.at(-1)!
    expect(request).toEqual({ method: 'eth_sendTransaction', params: [tx] })
    const preview = result as TransactionsPreview
    expect(preview).toMatchObject({
      kind: 'transactions',
      method: 'eth_sendTransaction',
      account: alice,
      chainId: '0x7a69',
      error: null,
    })
    expect(preview.preview!.block.number).toBe(head)
    expect(preview.preview!.calls.map((c) => c.status)).toEqual(['success'])
    const [eth, edge] = preview.preview!.assetChanges
    expect(eth).toMatchObject({ token: { standard: 'native', symbol: 'ETH' }, value: { diff: '0x0' } })
    expect(BigInt(eth!.gasPaid as string)).toBeGreaterThan(0n)
    expect(edge).toEqual({
      token: { address: token.toLowerCase(), standard: 'erc20', symbol: 'EDGE', name: 'Edge Token', decimals: 18 },
      value: { pre: q(pre), post: q(pre - 5n * ETHER), diff: `-${q(5n * ETHER)}` },
    })
  })

  it('approved, the same transfer reaches the wallet as it was asked and is mined as previewed', async () => {
    const tx = { from: alice, to: token, data: encodeCall('transfer(address,uint256)', [bob, 5n * ETHER]), ...FEES }
    decide = () => true
    const hash = (await provider.request({ method: 'eth_sendTransaction', params: [tx] })) as string
    expect(sent('eth_sendTransaction').map((s) => s.params)).toEqual([[tx]])
    const previewed = (handed.at(-1)!.result as TransactionsPreview).preview!
    const mined = await receipt(hash)
    expect(mined.status).toBe('0x1')
    expect(q(await tokenBalance(alice))).toBe(previewed.assetChanges[1]!.value!.post)
    expect(q(BigInt(mined.gasUsed) * BigInt(mined.effectiveGasPrice))).toBe(previewed.assetChanges[0]!.gasPaid)
  })

  it('wallet_sendCalls is previewed as one sequence, then sent; a sequence whose second call fails is refused', async () => {
    const tokenBefore = await tokenBalance(alice)
    const carolBefore = await etherBalance(carol)
    const batch = {
      version: '2.0.0',
      chainId: '0x7a69',
      from: alice,
      atomicRequired: false,
      calls: [
        { to: token, data: encodeCall('transfer(address,uint256)', [bob, 7n * ETHER]) },
        { to: carol, value: q(ETHER) },
      ],
    }
    decide = () => true
    await provider.request({ method: 'wallet_sendCalls', params: [batch] })
    const preview = handed.at(-1)!.result as TransactionsPreview
    expect(preview.method).toBe('wallet_sendCalls')
    expect(preview.calls).toEqual(batch.calls.map((c) => ({ ...c, from: alice })))
    expect(preview.preview!.calls.map((c) => c.status)).toEqual(['success', 'success'])
    const [eth, edge] = preview.preview!.assetChanges
    expect(eth!.value!.diff).toBe(`-${q(ETHER)}`)
    expect(edge!.value).toEqual({ pre: q(tokenBefore), post: q(tokenBefore - 7n * ETHER), diff: `-${q(7n * ETHER)}` })
    expect(sent('wallet_sendCalls').map((s) => s.params)).toEqual([[batch]])
    for (const hash of wallet.sentCalls.at(-1)!) expect((await receipt(hash)).status).toBe('0x1')
    expect(await tokenBalance(alice)).toBe(tokenBefore - 7n * ETHER)
    expect(await etherBalance(carol)).toBe(carolBefore + ETHER)

    // All but one token to bob, then two to carol: the second fails only because the first ran.
    const all = await tokenBalance(alice)
    const dependent = {
      ...batch,
      calls: [
        { to: token, data: encodeCall('transfer(address,uint256)', [bob, all - 1n]) },
        { to: token, data: encodeCall('transfer(address,uint256)', [carol, 2n]) },
      ],
    }
    decide = (r) => (r as TransactionsPreview).preview!.calls.every((c) => c.status === 'success')
    await expect(provider.request({ method: 'wallet_sendCalls', params: [dependent] })).rejects.toMatchObject({
      code: 4001,
    })
    expect((handed.at(-1)!.result as TransactionsPreview).preview!.calls.map((c) => c.status)).toEqual([
      'success',
      'failure',
    ])
    expect(sent('wallet_sendCalls')).toHaveLength(1)
  })

  it("with options.abi the app's ABIs name the called function and its custom error; the app is asked per called address", async () => {
    const scenarios = devnet.contracts.Scenarios!
    const asked: string[] = []
    const abi = async (address: string) => {
      asked.push(address)
      if (address !== scenarios.toLowerCase()) return undefined
      return [
        { type: 'function', name: 'revertWithCustom', inputs: [{ name: 'code', type: 'uint256' }] },
        {
          type: 'error',
          name: 'Custom',
          inputs: [
            { name: 'code', type: 'uint256' },
            { name: 'who', type: 'address' },
          ],
        },
      ]
    }
    const own = createEip1193Provider(await startWorker({ upstream: devnet.anvilUrl }), { wallet, preview: hook, abi })
    try {
      decide = () => false
      const tx = { from: alice, to: scenarios, data: encodeCall('revertWithCustom(uint256)', [7n]) }
      await expect(own.request({ method: 'eth_sendTransaction', params: [tx] })).rejects.toMatchObject({ code: 4001 })
      expect(asked).toEqual([scenarios.toLowerCase()])
      const [call] = (handed.at(-1)!.result as TransactionsPreview).preview!.calls
      expect(call).toMatchObject({
        status: 'failure',
        function: { name: 'revertWithCustom', signature: 'revertWithCustom(uint256)' },
        revert: {
          type: 'custom',
          name: 'Custom',
          signature: 'Custom(uint256,address)',
          args: [
            { name: 'code', type: 'uint256', value: '0x7' },
            { name: 'who', type: 'address', value: alice.toLowerCase() },
          ],
        },
      })
      // Without the hook the same call's error stays raw, its function unnamed.
      await expect(provider.request({ method: 'eth_sendTransaction', params: [tx] })).rejects.toMatchObject({
        code: 4001,
      })
      expect((handed.at(-1)!.result as TransactionsPreview).preview!.calls[0]).toMatchObject({
        function: null,
        revert: { type: 'unknown' },
      })
      // A hook that fails fails the preview (handed on with its error); one whose ABI edgetrace refuses, with -32602.
      const failing = createEip1193Provider(await startWorker({ upstream: devnet.anvilUrl }), {
        wallet,
        preview: hook,
        abi: (address) => (address === scenarios.toLowerCase() ? Promise.reject(new Error('no ABI here')) : [{}]),
      })
      try {
        await expect(failing.request({ method: 'eth_sendTransaction', params: [tx] })).rejects.toMatchObject({
          code: 4001,
        })
        expect(handed.at(-1)!.result).toMatchObject({
          preview: null,
          error: { code: -32603, message: `options.abi(${scenarios.toLowerCase()}): no ABI here` },
        })
        const bad = { ...tx, to: bob }
        await expect(failing.request({ method: 'eth_sendTransaction', params: [bad] })).rejects.toMatchObject({
          code: 4001,
        })
        expect((handed.at(-1)!.result as TransactionsPreview).error).toMatchObject({ code: -32602 })
        expect((handed.at(-1)!.result as TransactionsPreview).error!.message).toContain('options.abis')
      } finally {
        await failing.close()
      }
      expect(sent('eth_sendTransaction').filter((s) => (s.params as any[])[0].to === scenarios)).toEqual([])
    } finally {
      await own.close()
    }
  })

  it('eth_signTypedData_v4 reaches the hook decoded and previewed (edgetrace_previewTypedData); approved, the wallet signs', async () => {
    const typed = {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        Permit: eip2612PermitTypes().Permit,
      },
      primaryType: 'Permit',
      domain: { name: 'Edge Token', chainId: 31337, verifyingContract: token },
      message: { owner: alice, spender: bob, value: '1000', nonce: 0, deadline: 4102444800 },
    }
    decide = () => false
    await expect(
      provider.request({ method: 'eth_signTypedData_v4', params: [alice, JSON.stringify(typed)] }),
    ).rejects.toMatchObject({ code: 4001 })
    expect(sent('eth_signTypedData_v4')).toEqual([])
    // Previewed by edgetrace_previewTypedData in the worker: an EIP-2612 permit of the demo token to bob.
    expect(handed.at(-1)!.result).toMatchObject({
      kind: 'typedData',
      account: alice.toLowerCase(),
      decoded: typed,
      preview: {
        recognized: true,
        kind: 'eip2612',
        owner: alice.toLowerCase(),
        spender: bob.toLowerCase(),
        deadline: { value: '0xf4865700', passed: false },
        grants: [
          {
            token: {
              address: token.toLowerCase(),
              standard: 'erc20',
              symbol: 'EDGE',
              name: 'Edge Token',
              decimals: 18,
            },
            amount: '0x3e8',
            current: { amount: '0x0' },
          },
        ],
      },
      error: null,
    } satisfies Omit<TypedDataPreview, 'account' | 'preview'> & { account: string; preview: object })

    decide = () => true
    const signature = await provider.request({ method: 'eth_signTypedData_v4', params: [alice, JSON.stringify(typed)] })
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
    expect(sent('eth_signTypedData_v4')).toHaveLength(1)
  })

  it('a preview that cannot be computed is handed to the hook with its error', async () => {
    decide = () => false
    const tx = { from: alice, to: bob, value: '0x1', chainId: '0x1' }
    await expect(provider.request({ method: 'eth_sendTransaction', params: [tx] })).rejects.toMatchObject({
      code: 4001,
    })
    expect(handed.at(-1)!.result).toMatchObject({
      kind: 'transactions',
      preview: null,
      error: {
        code: 4901,
        message: 'the request is for chain 0x1, edgetrace follows chain 0x7a69: no preview on another chain',
      },
    })
  })

  it('a preview whose upstream is gone is handed to the hook with its error, and the app may still approve', async () => {
    const away = await commands.startDevnet()
    const own = createEip1193Provider(await startWorker({ upstream: away.anvilUrl }), { wallet, preview: hook })
    try {
      await commands.stopDevnet(away.anvilUrl)
      decide = () => true
      const tx = { from: alice, to: carol, value: '0x1' }
      const hash = (await own.request({ method: 'eth_sendTransaction', params: [tx] })) as string
      const { result } = handed.at(-1)!
      expect(result).toMatchObject({ kind: 'transactions', account: alice, preview: null, error: { code: -32000 } })
      expect((result as TransactionsPreview).error!.message).toMatch(/upstream unreachable/)
      expect(sent('eth_sendTransaction').at(-1)!.params).toEqual([tx])
      expect((await receipt(hash)).status).toBe('0x1')
    } finally {
      await own.close()
    }
  })

  it("passes the wallet's accountsChanged and chainChanged on, and stops listening to the wallet once closed", async () => {
    const listeners = new Map<string, Set<(...args: never[]) => void>>()
    const evented = {
      ...mockWallet(devnet.anvilUrl, alice),
      on(event: string, listener: (...args: never[]) => void) {
        if (!listeners.has(event)) listeners.set(event, new Set())
        listeners.get(event)!.add(listener)
      },
      removeListener(event: string, listener: (...args: never[]) => void) {
        listeners.get(event)?.delete(listener)
      },
    }
    const own = createEip1193Provider(await startWorker({ upstream: devnet.anvilUrl }), {
      wallet: evented,
      preview: hook,
    })
    const heard: unknown[] = []
    own.on('accountsChanged', (a) => heard.push(['accountsChanged', a]))
    own.on('chainChanged', (c) => heard.push(['chainChanged', c]))
    for (const l of listeners.get('accountsChanged') ?? []) (l as (a: string[]) => void)([bob])
    for (const l of listeners.get('chainChanged') ?? []) (l as (c: string) => void)('0x1')
    expect(heard).toEqual([
      ['accountsChanged', [bob]],
      ['chainChanged', '0x1'],
    ])
    await own.close()
    expect([...listeners.values()].every((set) => set.size === 0)).toBe(true)
  })

  it('refuses options without a wallet provider or a preview function, or with an abi that is not one (-32602)', async () => {
    const client = await startWorker({ upstream: devnet.anvilUrl })
    try {
      expect(() => createEip1193Provider(client, { wallet: {} as never, preview: hook })).toThrow(
        expect.objectContaining({ code: -32602, message: 'options.wallet: expected an EIP-1193 provider (request)' }),
      )
      expect(() => createEip1193Provider(client, { wallet, preview: undefined as never })).toThrow(
        expect.objectContaining({ code: -32602, message: 'options.preview: expected a function (request, result)' }),
      )
      expect(() => createEip1193Provider(client, { wallet, preview: hook, abi: 'abi' as never })).toThrow(
        expect.objectContaining({ code: -32602, message: 'options.abi: expected a function (address) => JSON ABI' }),
      )
    } finally {
      await client.close()
    }
  })

  it('a malformed request is -32602 naming its argument, and reaches neither the hook nor the wallet', async () => {
    const handedBefore = handed.length
    const seenBefore = wallet.seen.length
    const cases: [unknown, string][] = [
      [
        { method: 'eth_sendTransaction', params: [{ from: alice, to: 'nope' }] },
        'eth_sendTransaction: params[0]: field "to": ',
      ],
      [{ method: 'eth_sendTransaction', params: 'tx' }, 'eth_sendTransaction: params: expected an array'],
      [
        { method: 'wallet_sendCalls', params: [{ chainId: '0x7a69', calls: [] }] },
        'wallet_sendCalls: params[0].calls: expected a non-empty array',
      ],
      [
        { method: 'wallet_sendCalls', params: [{ calls: [{ to: alice, value: '0x01' }] }] },
        'wallet_sendCalls: params[0].calls[0]: field "value": ',
      ],
      [{ method: 'eth_signTypedData_v4', params: [alice, '{not json'] }, 'eth_signTypedData_v4: params[1]: not JSON'],
      [{ method: 'eth_signTypedData_v4', params: ['0x12', '{}'] }, 'eth_signTypedData_v4: params[0]: '],
    ]
    for (const [request, message] of cases) {
      const err = (await provider.request(request as never).catch((e: unknown) => e)) as {
        code: number
        message: string
      }
      expect(err.code).toBe(-32602)
      expect(err.message.startsWith(message), err.message).toBe(true)
    }
    expect(handed.length).toBe(handedBefore)
    expect(wallet.seen.length).toBe(seenBefore)
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69')
  })
})
