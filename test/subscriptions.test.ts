import { WebSocketProvider } from 'ethers'
import { createPublicClient, webSocket } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type Proxy, createProxy } from './src/createProxy.js'
import { subscriptionHubOf } from '../src/rpc/eth/subscriptions/subscriptionHub.js'
import { DEV_ACCOUNT, rpc, rpcResult, waitForReceipt } from './src/rpc.js'

// eth_subscribe over WebSocket against anvil (blocks mined on demand): what edgetrace pushes —
// verified headers, logs from verified receipts — beside what anvil pushes for the same blocks.

let anvil: AnvilInstance
let proxy: Proxy
let edge: RunningEdgetrace

type Message = {
  id?: number
  result?: unknown
  error?: unknown
  method?: string
  params?: { subscription: string; result: unknown }
}

/** A WebSocket JSON-RPC client that keeps every notification. */
async function connect(url: string) {
  const socket = new WebSocket(url)
  await new Promise((resolve, reject) => {
    socket.once('open', resolve)
    socket.once('error', reject)
  })
  let nextId = 1
  const waiting = new Map<number, (m: Message) => void>()
  const notes: { subscription: string; result: unknown }[] = []
  socket.on('message', (data) => {
    const m = JSON.parse(data.toString()) as Message
    if (m.method === 'eth_subscription' && m.params) notes.push(m.params)
    else if (typeof m.id === 'number') waiting.get(m.id)?.(m)
  })
  const call = (method: string, params: unknown[] = []) =>
    new Promise<Message>((resolve) => {
      const id = nextId++
      waiting.set(id, resolve)
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    })
  const of = (subscription: unknown) => notes.filter((n) => n.subscription === subscription).map((n) => n.result)
  const until = async (subscription: unknown, count: number, ms = 5000) => {
    const end = Date.now() + ms
    while (of(subscription).length < count && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
    return of(subscription)
  }
  return { socket, call, of, until, close: () => socket.close() }
}

/** Init code that emits LOG1(topic) with 32 bytes of data (42), then deploys nothing. */
const TOPIC = `0x${'ab'.repeat(32)}`
const initCode = `0x602a600052${`7f${TOPIC.slice(2)}`}60206000a100`

beforeAll(async () => {
  anvil = await startAnvil({ args: ['--no-mining'] })
  await rpcResult(anvil.url, 'evm_mine', [])
  proxy = await createProxy(anvil.url)
  edge = await startEdgetrace({
    upstream: proxy.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth'],
    engine: { subscriptionPollMs: 50 },
  })
}, 60_000)

afterAll(async () => {
  await edge?.close()
  await proxy?.stop()
  await anvil?.stop()
})

describe('eth_subscribe over WebSocket', () => {
  it('newHeads and logs: each mined block pushed once, in order, as anvil pushes them', async () => {
    const ours = await connect(edge.wsUrl)
    const theirs = await connect(anvil.url.replace(/^http/, 'ws'))
    try {
      const heads = (await ours.call('eth_subscribe', ['newHeads'])).result
      const logs = (await ours.call('eth_subscribe', ['logs', { topics: [TOPIC] }])).result
      expect(heads).toMatch(/^0x[0-9a-f]{32}$/)
      const theirHeads = (await theirs.call('eth_subscribe', ['newHeads'])).result
      const theirLogs = (await theirs.call('eth_subscribe', ['logs', { topics: [TOPIC] }])).result
      const hash = await rpcResult(anvil.url, 'eth_sendTransaction', [
        { from: DEV_ACCOUNT, data: initCode, gas: '0x30000' },
      ])
      for (let i = 0; i < 3; i++) await rpcResult(anvil.url, 'evm_mine', [])
      await waitForReceipt(anvil.url, hash)
      const pushed = await ours.until(heads, 3)
      const expected = await theirs.until(theirHeads, 3)
      expect(pushed.map((h) => (h as { hash: string }).hash)).toEqual(expected.map((h) => (h as { hash: string }).hash))
      // anvil pushes the whole block; geth and the reference daemon push the header (RPCMarshalHeader):
      // every header field is anvil's, and anvil's extra fields are the block's.
      for (const [i, header] of pushed.entries()) {
        const block = expected[i] as Record<string, unknown>
        expect(header).toEqual(Object.fromEntries(Object.keys(header as object).map((k) => [k, block[k]])))
        expect(
          Object.keys(block)
            .filter((k) => !(k in (header as object)))
            .sort(),
        ).toEqual(['size', 'totalDifficulty', 'transactions', 'uncles', 'withdrawals'])
      }
      const ourLogs = await ours.until(logs, 1)
      const anvilLogs = await theirs.until(theirLogs, 1)
      expect(ourLogs).toEqual(anvilLogs)
      expect((await ours.call('eth_unsubscribe', [heads])).result).toBe(true)
      expect((await ours.call('eth_unsubscribe', [heads])).error).toEqual({
        code: -32000,
        message: 'subscription not found',
      })
    } finally {
      ours.close()
      theirs.close()
    }
  })

  it('a reorg: the new branch pushed, the old branch’s logs again with removed: true', async () => {
    const client = await connect(edge.wsUrl)
    try {
      const heads = (await client.call('eth_subscribe', ['newHeads'])).result
      const logs = (await client.call('eth_subscribe', ['logs', { topics: [TOPIC] }])).result
      const snapshot = await rpcResult(anvil.url, 'evm_snapshot', [])
      const hash = await rpcResult(anvil.url, 'eth_sendTransaction', [
        { from: DEV_ACCOUNT, data: initCode, gas: '0x30000' },
      ])
      await rpcResult(anvil.url, 'evm_mine', [])
      const mined = await waitForReceipt(anvil.url, hash)
      expect(await client.until(logs, 1)).toHaveLength(1)
      const before = (await client.until(heads, 1)).length
      await rpcResult(anvil.url, 'evm_revert', [snapshot])
      // The other branch: two blocks at a later time, without the log.
      await rpcResult(anvil.url, 'evm_setNextBlockTimestamp', [Number(BigInt(mined.blockNumber) + 10_000_000_000n)])
      await rpcResult(anvil.url, 'evm_mine', [])
      await rpcResult(anvil.url, 'evm_mine', [])
      const pushedLogs = await client.until(logs, 2)
      expect(pushedLogs[1]).toEqual({ ...(pushedLogs[0] as object), removed: true })
      const pushed = (await client.until(heads, before + 2)).slice(before) as { number: string; hash: string }[]
      const head = await rpcResult(anvil.url, 'eth_getBlockByNumber', ['latest', false])
      expect(pushed.map((h) => h.number)).toEqual([mined.blockNumber, head.number])
      expect(pushed[1]!.hash).toBe(head.hash)
      expect(pushed[0]!.hash).not.toBe(mined.blockHash)
    } finally {
      client.close()
    }
  })

  it('pushes no header that does not verify: a tampered head is left out, the next good one pushed', async () => {
    const client = await connect(edge.wsUrl)
    try {
      const heads = (await client.call('eth_subscribe', ['newHeads'])).result
      proxy.hooks.transform = (call, result) => {
        if (call.method !== 'eth_getBlockByNumber' || result === null) return result
        return { ...(result as object), extraData: '0x1234' } // no longer hashes to its hash
      }
      await rpcResult(anvil.url, 'evm_mine', [])
      await new Promise((r) => setTimeout(r, 400))
      expect(client.of(heads)).toEqual([])
      delete proxy.hooks.transform
      const pushed = (await client.until(heads, 1)) as { hash: string; extraData: string }[]
      const head = await rpcResult(anvil.url, 'eth_getBlockByNumber', ['latest', false])
      expect(pushed.map((h) => h.hash)).toEqual([head.hash])
      expect(pushed[0]!.extraData).toBe(head.extraData)
    } finally {
      delete proxy.hooks.transform
      client.close()
    }
  })

  it('pushes no log that does not verify, and no head twice: a tampered receipt holds the block back until it checks', async () => {
    const client = await connect(edge.wsUrl)
    try {
      const heads = (await client.call('eth_subscribe', ['newHeads'])).result
      const logs = (await client.call('eth_subscribe', ['logs', { topics: [TOPIC] }])).result
      proxy.hooks.transform = (call, result) => {
        if (!/Receipt/.test(call.method) || result === null) return result
        const tamper = (r: { logs?: { data: string }[] }) => {
          for (const log of r.logs ?? []) log.data = `0x${'00'.repeat(31)}2b` // 43 instead of 42
          return r
        }
        const copy = structuredClone(result) as { logs?: { data: string }[] } | { logs?: { data: string }[] }[]
        return Array.isArray(copy) ? copy.map(tamper) : tamper(copy)
      }
      const hash = await rpcResult(anvil.url, 'eth_sendTransaction', [
        { from: DEV_ACCOUNT, data: initCode, gas: '0x30000' },
      ])
      await rpcResult(anvil.url, 'evm_mine', [])
      await waitForReceipt(anvil.url, hash)
      await new Promise((r) => setTimeout(r, 400))
      expect(client.of(logs)).toEqual([])
      expect(client.of(heads)).toEqual([])
      delete proxy.hooks.transform
      const pushed = (await client.until(logs, 1)) as { data: string; transactionHash: string }[]
      expect(pushed).toHaveLength(1)
      expect(pushed[0]!.data).toBe(`0x${'00'.repeat(31)}2a`)
      expect(pushed[0]!.transactionHash).toBe(hash)
      await new Promise((r) => setTimeout(r, 200))
      expect(client.of(heads)).toHaveLength(1)
    } finally {
      delete proxy.hooks.transform
      client.close()
    }
  })

  it('drops a client that never reads, with a reason, while another keeps receiving', async () => {
    const small = await startEdgetrace({
      upstream: anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth'],
      engine: { subscriptionPollMs: 20 },
      maxQueuedBytes: 64 * 1024,
    })
    const slow = await connect(small.wsUrl)
    const reader = await connect(small.wsUrl)
    try {
      const closed = new Promise<[number, string]>((resolve) =>
        slow.socket.once('close', (code, reason) => resolve([code, reason.toString()])),
      )
      await slow.call('eth_subscribe', ['logs', {}])
      const readerHeads = (await reader.call('eth_subscribe', ['newHeads'])).result
      ;(slow.socket as unknown as { _socket: { pause(): void } })._socket.pause()
      let dropped: [number, string] | undefined
      void closed.then((c) => {
        dropped = c
      })
      // Blocks of 20 transactions, each logging 100 kB (200 kB of hex a notification), until the
      // unread notifications pass the kernel's socket buffers and then the limit.
      const bigLog = '0x620186a06000a000' // LOG0 over 100,000 bytes of (zero) memory, then STOP
      const hub = subscriptionHubOf(small.engine)
      for (let block = 0; block < 6 && hub.size() > 1; block++) {
        for (let i = 0; i < 20; i++)
          await rpcResult(anvil.url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT, data: bigLog, gas: '0xf4240' }])
        await rpcResult(anvil.url, 'evm_mine', [])
        const until = Date.now() + 3000
        while (hub.size() > 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
      }
      // Its subscription ended on the server; reading again, it finds the close frame and its reason.
      expect(hub.size()).toBe(1)
      ;(slow.socket as unknown as { _socket: { resume(): void } })._socket.resume()
      await closed
      expect(dropped).toEqual([1008, 'too slow: over 65536 bytes of notifications unread'])
      const before = reader.of(readerHeads).length
      expect(before).toBeGreaterThan(0)
      await rpcResult(anvil.url, 'evm_mine', [])
      expect((await reader.until(readerHeads, before + 1)).length).toBeGreaterThan(before)
    } finally {
      slow.socket.terminate()
      reader.close()
      await small.close()
    }
  }, 120_000)

  it('newPendingTransactions: hashes, or whole transactions with true, as the pool takes them in', async () => {
    const node = await startEdgetrace({
      upstream: anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth'],
      engine: { subscriptionPollMs: 50 },
    })
    const client = await connect(node.wsUrl)
    try {
      const hashes = (await client.call('eth_subscribe', ['newPendingTransactions'])).result
      const full = (await client.call('eth_subscribe', ['newPendingTransactions', true])).result
      const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
      const nonce = Number(await rpcResult(anvil.url, 'eth_getTransactionCount', [account.address, 'pending']))
      const raw = await account.signTransaction({
        chainId: Number(await rpcResult(anvil.url, 'eth_chainId', [])),
        type: 'eip1559',
        to: '0x00000000000000000000000000000000000000ee',
        value: 1n,
        gas: 21_000n,
        nonce,
        maxFeePerGas: 10n ** 12n,
        maxPriorityFeePerGas: 10n ** 9n,
      })
      const sent = await rpcResult(node.url, 'eth_sendRawTransaction', [raw])
      expect(await client.until(hashes, 1)).toEqual([sent])
      const [tx] = (await client.until(full, 1)) as Record<string, unknown>[]
      expect(tx).toMatchObject({
        hash: sent,
        from: account.address.toLowerCase(),
        nonce: `0x${nonce.toString(16)}`,
        blockHash: null,
      })
      await rpcResult(anvil.url, 'evm_mine', [])
    } finally {
      client.close()
      await node.close()
    }
  })

  it('viem’s watchBlocks and watchEvent and ethers’ on("block") work unchanged over it', async () => {
    const client = createPublicClient({ transport: webSocket(edge.wsUrl) })
    const provider = new WebSocketProvider(edge.wsUrl)
    const blocks: bigint[] = []
    const events: { topic: string | undefined; block: bigint }[] = []
    const ethersBlocks: number[] = []
    const stopBlocks = client.watchBlocks({ onBlock: (b) => blocks.push(b.number) })
    const stopEvents = client.watchEvent({
      onLogs: (logs) => events.push(...logs.map((l) => ({ topic: l.topics[0], block: l.blockNumber! }))),
    })
    await provider.on('block', (n: number) => ethersBlocks.push(n))
    try {
      await new Promise((r) => setTimeout(r, 500)) // the subscriptions are made
      const start = BigInt(await rpcResult(anvil.url, 'eth_blockNumber', []))
      await rpcResult(anvil.url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT, data: initCode, gas: '0x30000' }])
      await rpcResult(anvil.url, 'evm_mine', [])
      await rpcResult(anvil.url, 'evm_mine', [])
      const until = Date.now() + 5000
      const ethersNew = () => ethersBlocks.filter((n) => n > Number(start)).length
      const eventsNew = () => events.filter((e) => e.block > start).map((e) => e.topic)
      while (
        (blocks.filter((n) => n > start).length < 2 || eventsNew().length < 1 || ethersNew() < 2) &&
        Date.now() < until
      )
        await new Promise((r) => setTimeout(r, 50))
      // A head mined by an earlier test that this server had not yet seen when the subscription was
      // made is a new head to it, and is pushed first on a loaded machine: only the ones after `start` count.
      expect(blocks.filter((n) => n > start)).toEqual([start + 1n, start + 2n])
      // The same for logs: those of blocks mined before `start` (other tests') may come first.
      expect(eventsNew()).toEqual([TOPIC])
      // ethers emits every block number since the first one it learned (with eth_blockNumber, as it sets
      // up): when that setup outlasts the wait above (a loaded machine), earlier numbers come first.
      expect(ethersBlocks.filter((n) => n > Number(start))).toEqual([Number(start) + 1, Number(start) + 2])
    } finally {
      stopBlocks()
      stopEvents()
      await provider.destroy()
    }
  })

  it('over HTTP: the reference daemon’s "notifications not supported"; an unknown name: geth’s words', async () => {
    expect((await rpc(edge.url, 'eth_subscribe', ['newHeads'])).error).toEqual({
      code: -32000,
      message: 'notifications not supported',
    })
    const client = await connect(edge.wsUrl)
    try {
      expect((await client.call('eth_subscribe', ['newBlocks'])).error).toEqual({
        code: -32601,
        message: 'no "newBlocks" subscription in eth namespace',
      })
    } finally {
      client.close()
    }
  })
})
