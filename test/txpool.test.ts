import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToHex } from '@ethereumjs/util'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type Proxy, createProxy } from './src/createProxy.js'
import { rpc, rpcResult } from './src/rpc.js'

// The txpool namespace against anvil with automine off: transactions sent through edgetrace's own
// eth_sendRawTransaction (checked here, then forwarded), anvil's pool read back, both sorted on state
// proven at the head — compared with anvil's own txpool_content. anvil has no baseFee sub-pool and
// sorts by nonce alone: where the reference's rules differ (a fee cap under the next base fee,
// cumulative funds), the split is checked against those rules instead.
const KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', // dev account 0
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d', // dev account 1
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a', // dev account 2
] as const
const [alice, bob, carol] = KEYS.map((k) => privateKeyToAccount(k))
const TO = '0x00000000000000000000000000000000000000ee'
const GWEI = 1_000_000_000n

let anvil: AnvilInstance
let proxy: Proxy
let edge: RunningEdgetrace
let chainId: number

async function sign(account: typeof alice, nonce: number, over: Record<string, unknown> = {}) {
  return account!.signTransaction({
    chainId,
    type: 'eip1559',
    to: TO,
    value: 1n,
    gas: 21_000n,
    nonce,
    maxFeePerGas: 100n * GWEI,
    maxPriorityFeePerGas: 1n * GWEI,
    ...over,
  } as never)
}
/**
 * A type-2 transaction with its tip above its fee cap, encoded by hand: viem and ethereumjs both
 * refuse to build one (the signature is a stand-in: the fee check comes first).
 */
function tipAboveFeeCap(nonce: number): string {
  const fields = [BigInt(chainId), BigInt(nonce), 200n * GWEI, 100n * GWEI, 21_000n, TO, 1n, '0x', [], 0n, 1n, 1n]
  const body = RLP.encode(fields.map((f) => (typeof f === 'bigint' ? bigIntToUnpaddedBytes(f) : f)) as never)
  return bytesToHex(Uint8Array.from([2, ...body]))
}
const send = (raw: string) => rpc(edge.url, 'eth_sendRawTransaction', [raw])

/** sender → nonce → hash, lowercased, from a txpool_content sub-pool. */
const hashes = (pool: Record<string, Record<string, { hash: string }>>) =>
  Object.fromEntries(
    Object.entries(pool).map(([sender, byNonce]) => [
      sender.toLowerCase(),
      Object.fromEntries(Object.entries(byNonce).map(([n, tx]) => [n, tx.hash])),
    ]),
  )

beforeAll(async () => {
  anvil = await startAnvil({ args: ['--no-mining'] })
  await rpcResult(anvil.url, 'evm_mine', []) // state from block 1 on verifies
  chainId = Number(await rpcResult(anvil.url, 'eth_chainId', []))
  proxy = await createProxy(anvil.url)
  edge = await startEdgetrace({
    upstream: proxy.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'txpool', 'debug', 'trace'],
  })
}, 60_000)

afterAll(async () => {
  await edge?.close()
  await proxy?.stop()
  await anvil?.stop()
})

describe('txpool on anvil with automine off', () => {
  it('keeps contiguous nonces pending and a gap queued, as anvil does; mining drains what was pending', async () => {
    const sent = []
    for (const nonce of [0, 1, 3]) {
      const answer = await send(await sign(alice, nonce))
      expect(answer.error).toBeUndefined()
      sent.push(answer.result as string)
    }
    const ours = await rpcResult(edge.url, 'txpool_content', [])
    const theirs = await rpcResult(anvil.url, 'txpool_content', [])
    expect(Object.keys(ours).sort()).toEqual(['baseFee', 'pending', 'queued'])
    expect(hashes(ours.pending)).toEqual(hashes(theirs.pending))
    expect(hashes(ours.queued)).toEqual(hashes(theirs.queued))
    expect(hashes(ours.pending)).toEqual({ [alice!.address.toLowerCase()]: { 0: sent[0], 1: sent[1] } })
    expect(hashes(ours.queued)).toEqual({ [alice!.address.toLowerCase()]: { 3: sent[2] } })
    // The reference's shapes: checksummed sender keys, decimal nonce keys, null block fields, no gasPrice for type 2.
    const tx = ours.pending[alice!.address][0]
    expect(tx).toMatchObject({
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      hash: sent[0],
      nonce: '0x0',
    })
    expect(tx).not.toHaveProperty('gasPrice')
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x2', baseFee: '0x0', queued: '0x1' })
    // The reference has no txpool_inspect (commented out there): method not found.
    expect((await rpc(edge.url, 'txpool_inspect', [])).error).toEqual({
      code: -32601,
      message: 'the method txpool_inspect does not exist/is not available',
    })
    expect(hashes({ x: (await rpcResult(edge.url, 'txpool_contentFrom', [alice!.address])).queued })).toEqual({
      x: { 3: sent[2] },
    })

    await rpcResult(anvil.url, 'evm_mine', [])
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x0', baseFee: '0x0', queued: '0x1' })
    // The gap filled: nonce 2 sent, then 2 and 3 are pending.
    expect((await send(await sign(alice, 2))).error).toBeUndefined()
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x2', baseFee: '0x0', queued: '0x0' })
    await rpcResult(anvil.url, 'evm_mine', [])
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x0', baseFee: '0x0', queued: '0x0' })
  })

  it('replaces a transaction only for 10% more tip and fee cap', async () => {
    const nonce = Number(await rpcResult(edge.url, 'eth_getTransactionCount', [bob!.address, 'latest']))
    const first = await send(await sign(bob, nonce))
    expect(first.error).toBeUndefined()
    const cheap = await send(
      await sign(bob, nonce, { maxFeePerGas: 105n * GWEI, maxPriorityFeePerGas: (105n * GWEI) / 100n }),
    )
    expect(cheap.error).toEqual({ code: -32000, message: 'replacement transaction underpriced' })
    const again = await send(await sign(bob, nonce))
    expect(again.error).toEqual({ code: -32000, message: 'already known' })
    const better = await send(
      await sign(bob, nonce, { maxFeePerGas: 110n * GWEI, maxPriorityFeePerGas: (11n * GWEI) / 10n }),
    )
    expect(better.error).toBeUndefined()
    const pending = (await rpcResult(edge.url, 'txpool_contentFrom', [bob!.address])).pending
    expect(Object.values(pending).map((tx) => (tx as { hash: string }).hash)).toEqual([better.result])
    const theirs = await rpcResult(anvil.url, 'txpool_content', [])
    expect(hashes(theirs.pending)[bob!.address.toLowerCase()]).toEqual({ [nonce]: better.result })
    await rpcResult(anvil.url, 'evm_mine', [])
  })

  it('moves a transaction whose fee cap the next base fee passed to the baseFee sub-pool (anvil has none: it drops it)', async () => {
    const nonce = Number(await rpcResult(edge.url, 'eth_getTransactionCount', [carol!.address, 'latest']))
    const low = await send(await sign(carol, nonce, { maxFeePerGas: 100n * GWEI }))
    expect(low.error).toBeUndefined()
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x1', baseFee: '0x0', queued: '0x0' })
    // A block at 200 gwei leaves it out; the next base fee, computed from that verified header, stays above its cap.
    await rpcResult(anvil.url, 'anvil_setNextBlockBaseFeePerGas', [`0x${(200n * GWEI).toString(16)}`])
    await rpcResult(anvil.url, 'evm_mine', [])
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x0', baseFee: '0x1', queued: '0x0' })
    const content = await rpcResult(edge.url, 'txpool_content', [])
    expect(hashes(content.baseFee)).toEqual({ [carol!.address.toLowerCase()]: { [nonce]: low.result } })
    // anvil (no baseFee pool) dropped it when the base fee passed its cap; the reference's pool
    // keeps it, and so does edgetrace's — it is this daemon's own, sent through it.
    expect(JSON.stringify(await rpcResult(anvil.url, 'txpool_content', []))).not.toContain(low.result.slice(2))
    // A replacement paying more than the base fee makes it pending again.
    const high = await send(await sign(carol, nonce, { maxFeePerGas: 400n * GWEI, maxPriorityFeePerGas: 2n * GWEI }))
    expect(high.error).toBeUndefined()
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x1', baseFee: '0x0', queued: '0x0' })
    await rpcResult(anvil.url, 'evm_mine', [])
    expect(await rpcResult(edge.url, 'txpool_status', [])).toEqual({ pending: '0x0', baseFee: '0x0', queued: '0x0' })
  })
})

describe('the pending tag', () => {
  it('runs eth_call, eth_estimateGas, debug_traceCall and trace_call on the head with the pool applied, as anvil does', async () => {
    const fresh = '0x00000000000000000000000000000000000abcde'
    const nonce = Number(await rpcResult(edge.url, 'eth_getTransactionCount', [alice!.address, 'latest']))
    const funding = await send(
      await sign(alice, nonce, { to: fresh, value: 5n * 10n ** 18n, maxFeePerGas: 1000n * GWEI }),
    )
    expect(funding.error).toBeUndefined()
    const spend = { from: fresh, to: TO, value: `0x${(10n ** 18n).toString(16)}` }
    // On the head, the fresh account has nothing; with the pool applied, 5 ether.
    const latest = await rpc(edge.url, 'eth_call', [spend, 'latest'])
    expect(latest.error?.message).toMatch(/^insufficient funds for gas \* price \+ value/)
    expect(await rpc(edge.url, 'eth_call', [spend, 'pending'])).toEqual(
      await rpc(anvil.url, 'eth_call', [spend, 'pending']),
    )
    expect(await rpcResult(edge.url, 'eth_call', [spend, 'pending'])).toBe('0x')
    expect(await rpcResult(edge.url, 'eth_estimateGas', [spend, 'pending'])).toBe(
      await rpcResult(anvil.url, 'eth_estimateGas', [spend, 'pending']),
    )
    const prestate = await rpcResult(edge.url, 'debug_traceCall', [spend, 'pending', { tracer: 'prestateTracer' }])
    expect(BigInt(prestate[fresh].balance)).toBe(5n * 10n ** 18n)
    const traced = await rpcResult(edge.url, 'trace_call', [spend, ['trace'], 'pending'])
    expect(traced.trace[0]).toMatchObject({ action: { from: fresh, to: TO, value: spend.value }, type: 'call' })
    await rpcResult(anvil.url, 'evm_mine', [])
  })
})

describe('the upstream’s pending feed (WebSocket)', () => {
  it('takes in each transaction the feed announces, checked, with the upstream’s txpool_content out of the way', async () => {
    const ws = await startEdgetrace({
      upstream: anvil.url.replace(/^http/, 'ws'),
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'txpool'],
    })
    try {
      ws.engine.upstreamPool.offered = false // only the feed can tell it of what others send
      await new Promise((done) => setTimeout(done, 300)) // the subscription is made as the namespace is served
      const nonce = Number(await rpcResult(anvil.url, 'eth_getTransactionCount', [bob!.address, 'latest']))
      // Sent to anvil, not through edgetrace (anvil announces executable transactions only).
      const raw = await sign(bob, nonce, { maxFeePerGas: 1000n * GWEI })
      const hash = await rpcResult(anvil.url, 'eth_sendRawTransaction', [raw])
      let pending: Record<string, Record<string, { hash: string }>> = {}
      for (let i = 0; i < 50 && !JSON.stringify(pending).includes(hash); i++) {
        await new Promise((done) => setTimeout(done, 100))
        pending = (await rpcResult(ws.url, 'txpool_content', [])).pending
      }
      expect(hashes(pending)[bob!.address.toLowerCase()]).toEqual({ [nonce]: hash })
      expect(ws.engine.upstreamPool.dropped).toBe(0)
    } finally {
      await ws.close()
      await rpcResult(anvil.url, 'evm_mine', [])
    }
  })
})

describe('bad raw transactions: a clear error, and nothing forwarded', () => {
  const forwarded = () => proxy.log.filter((c) => c.method === 'eth_sendRawTransaction').length

  it('refuses each with geth’s words before the upstream hears of it', async () => {
    const nonce = Number(await rpcResult(edge.url, 'eth_getTransactionCount', [alice!.address, 'latest']))
    const before = forwarded()
    const cases: [string, string | RegExp][] = [
      ['0x02f8', /^transaction could not be decoded/],
      [
        await sign(alice, nonce, { chainId: chainId + 1 }),
        `invalid chain id for signer: have ${chainId + 1} want ${chainId}`,
      ],
      [
        await sign(alice, Math.max(nonce - 1, 0)),
        `nonce too low: address ${alice!.address}, tx: ${Math.max(nonce - 1, 0)} state: ${nonce}`,
      ],
      [
        await sign(alice, nonce, { value: 10n ** 30n }),
        /^insufficient funds for gas \* price \+ value: address 0x[0-9a-fA-F]{40} have \d+ want \d+$/,
      ],
      [await sign(alice, nonce, { gas: 20_000n }), 'intrinsic gas too low: gas 20000, minimum needed 21000'],
      [tipAboveFeeCap(nonce), 'max priority fee per gas higher than max fee per gas'],
      [await sign(alice, nonce, { gas: 10n ** 9n }), 'exceeds block gas limit'],
    ]
    // A bad signature: s flipped to an invalid value in an otherwise good transaction.
    const good = await sign(alice, nonce)
    cases.push([`${good.slice(0, -64)}${'f'.repeat(64)}`, /invalid sender|could not be decoded/])
    for (const [raw, message] of cases) {
      const answer = await send(raw)
      expect(answer.error?.code, raw).toBe(-32000)
      if (typeof message === 'string') expect(answer.error?.message).toBe(message)
      else expect(answer.error?.message).toMatch(message)
    }
    expect(forwarded()).toBe(before)
    expect(await rpcResult(edge.url, 'txpool_status', [])).toMatchObject({ pending: '0x0' })
  })
})

describe('a tampering upstream', () => {
  it('drops a pool entry whose hash or sender does not check, and never serves it', async () => {
    const nonce = Number(await rpcResult(anvil.url, 'eth_getTransactionCount', [carol!.address, 'latest']))
    const raw = await sign(carol, nonce, { maxFeePerGas: 300n * GWEI })
    const hash = await rpcResult(anvil.url, 'eth_sendRawTransaction', [raw])
    proxy.hooks.transform = (call, result) => {
      if (call.method !== 'txpool_content') return result
      const content = structuredClone(result) as Record<string, Record<string, Record<string, Record<string, string>>>>
      for (const bySender of Object.values(content.pending ?? {}))
        for (const tx of Object.values(bySender)) if (tx.hash === hash) tx.value = '0x2' // fields no longer hash to it
      return content
    }
    try {
      await new Promise((done) => setTimeout(done, 1100)) // past the pool's re-read interval
      const content = await rpcResult(edge.url, 'txpool_content', [])
      expect(JSON.stringify(content)).not.toContain(hash.slice(2))
      expect(edge.engine.upstreamPool.dropped).toBeGreaterThanOrEqual(1)
    } finally {
      delete proxy.hooks.transform
    }
    await new Promise((done) => setTimeout(done, 1100))
    const honest = await rpcResult(edge.url, 'txpool_content', [])
    expect(hashes(honest.pending)[carol!.address.toLowerCase()]).toMatchObject({ [nonce]: hash })
  })
})
