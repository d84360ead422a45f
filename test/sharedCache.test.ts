import { hexToBytes } from '@ethereumjs/util'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../src/node/devnet/startDevnet.js'
import { createRedisKv } from '../src/node/createRedisKv.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { HINT_MAX_ITEMS } from '../src/state/checkHint.js'
import { type SharedTierStats, createSharedTier } from '../src/state/createSharedTier.js'
import type { Hex } from '../src/types/hex.js'
import { type Proxy, createProxy } from './src/createProxy.js'
import { txByLabel } from './src/devnet.js'
import { rpcResult } from './src/rpc.js'
import { runCli } from './src/runCli.js'
import { type RedisServer, startRedis } from '../tools/fleet/startRedis.js'

// The shared verified cache tier (--cache.redis) on a real redis-server: servers in front of the
// same anvil (each through its own counting proxy) share what they proved, none trusts what it
// reads there, and none needs it to answer.

const PREFIX = 'edgetrace:v1:'
/** The state an answer is proven from: what a shared tier saves a server from asking. */
const STATE_METHODS = ['eth_getProof', 'eth_getCode'] as const

let devnet: Devnet
let redis: RedisServer
let client: Redis
const started: { edge: RunningEdgetrace; proxy: Proxy }[] = []
/** What the servers logged (the shared cache's going away and coming back). */
const logged: string[] = []

beforeAll(async () => {
  ;[devnet, redis] = await Promise.all([startDevnet(), startRedis()])
  client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 })
  client.on('error', () => {})
  await client.connect()
})
afterAll(async () => {
  for (const { edge, proxy } of started.splice(0)) {
    await edge.close()
    await proxy.stop()
  }
  client?.disconnect()
  await redis?.stop()
  await devnet?.stop()
})

/** A server with the shared tier, in front of anvil through a proxy that counts its calls. */
async function server(cacheRedis = redis.url) {
  const proxy = await createProxy(devnet.anvil.url)
  const edge = await startEdgetrace({
    upstream: proxy.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'debug', 'trace', 'erigon'],
    cacheRedis,
    // Generous, for a machine busy with the rest of the suite: a read given up at the default 250 ms
    // would make a hint or a poisoned entry a plain miss, not the rejection a test counts.
    // (2 s was passed once in a CI rehearsal: a second server asked the upstream for a block the tier held.)
    cacheRedisTimeoutMs: 5_000,
    log: (line) => logged.push(line),
  })
  started.push({ edge, proxy })
  return { edge, proxy, stats: () => edge.engine.persistent!.store.stats() as SharedTierStats }
}

const stateCalls = (proxy: Proxy) => STATE_METHODS.reduce((n, m) => n + (proxy.calls.get(m) ?? 0), 0)
/** What a block's receipts are asked for with. */
const receiptCalls = (proxy: Proxy) =>
  (proxy.calls.get('eth_getBlockReceipts') ?? 0) + (proxy.calls.get('eth_getTransactionReceipt') ?? 0)

/** The store's keys of one kind (the prefix left on). */
async function keysOf(kind: string): Promise<string[]> {
  const [, keys] = await client.scan('0', 'MATCH', `${PREFIX}${kind}:*`, 'COUNT', 10_000)
  return keys
}

/** Rewrites an entry's text in place, under the same key; returns the poisoned text. */
async function poison(key: string, change: (text: string) => string): Promise<string> {
  const before = await client.get(key)
  expect(before, key).not.toBeNull()
  const text = change(before!)
  expect(text, key).not.toBe(before)
  await client.set(key, text)
  return text
}

/** The hash of the devnet block a transaction is in. */
async function blockHashOf(tx: { blockNumber: number }): Promise<string> {
  const block = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', [`0x${tx.blockNumber.toString(16)}`, false])
  return block.hash
}

/** The traces a wallet and an explorer ask for one transaction: its calls, its state diff, its struct logs. */
async function traces(url: string, hash: string) {
  return {
    calls: await rpcResult(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]),
    diff: await rpcResult(url, 'debug_traceTransaction', [
      hash,
      { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
    ]),
    replay: await rpcResult(url, 'trace_replayTransaction', [hash, ['trace', 'stateDiff']]),
  }
}

describe('--cache.redis: one verified cache for many servers', () => {
  const label = 'nested token calls (transferFrom, transfer, balanceOf)'

  it("a second server's first cold trace asks the upstream for none of the state the first proved", async () => {
    await client.flushdb()
    const tx = txByLabel(devnet, label)
    const first = await server()
    const expected = await traces(first.edge.url, tx.hash)
    expect(stateCalls(first.proxy)).toBeGreaterThan(0)
    await first.edge.engine.persistent!.flush()
    expect(first.stats().writes).toBeGreaterThan(0)
    expect(await client.dbsize()).toBeGreaterThan(0)

    const second = await server()
    expect(await traces(second.edge.url, tx.hash)).toEqual(expected)
    expect(stateCalls(second.proxy)).toBe(0)
    expect(second.stats()).toMatchObject({ rejected: 0, failures: 0 })
    expect(second.stats().hits).toBeGreaterThan(0)
    // erigon_nodeInfo names the tiers.
    const [info] = await rpcResult(second.edge.url, 'erigon_nodeInfo', [])
    expect(info.protocols.edgetrace.cache).toEqual(['memory', 'shared'])
  })

  it('a poisoned entry (a trie node, code, a header) is refused, deleted and fetched again, and the answer is right', async () => {
    // Only this trace's entries in the store: every one of them is on the fresh server's path.
    await client.flushdb()
    const tx = txByLabel(devnet, label)
    const reference = await server()
    const expected = await traces(reference.edge.url, tx.hash)
    await reference.edge.engine.persistent!.flush()

    // Every entry of each kind the trace reads: its bytes changed in place, under the same key. Of
    // the headers, the block's and its parent's (a server also keeps the headers it resolves when it
    // starts, which another one may not read).
    const blockHash = await blockHashOf(tx)
    const { parentHash } = await rpcResult(devnet.anvil.url, 'eth_getBlockByHash', [blockHash, false])
    const poisoned: string[] = []
    const poisonedText = new Map<string, string>()
    for (const kind of ['tn', 'c', 'h']) {
      const keys = kind === 'h' ? [blockHash, parentHash].map((h) => `${PREFIX}h:${h}`) : await keysOf(kind)
      expect(keys.length, `entries of kind ${kind}`).toBeGreaterThan(0)
      for (const key of keys) {
        const text = (await client.get(key))!
        // Every byte string in the value: its first byte changed (a node still decodes, but no longer hashes to its key).
        const bad = text.replace(/"0x([0-9a-f]{2})/g, (_m, b: string) => `"0x${b === 'ff' ? '00' : 'ff'}`)
        expect(bad).not.toBe(text)
        await client.set(key, bad)
        poisoned.push(key)
        poisonedText.set(key, bad)
      }
    }

    const fresh = await server()
    expect(await traces(fresh.edge.url, tx.hash)).toEqual(expected)
    expect(fresh.stats().rejected).toBeGreaterThan(0)
    expect(stateCalls(fresh.proxy)).toBeGreaterThan(0)
    // What was refused is deleted, then written again from what the upstream proved.
    await fresh.edge.engine.persistent!.flush()
    // Every poisoned entry was on this trace's path: none is left as it was poisoned.
    const left = await Promise.all(poisoned.map(async (key) => ({ key, text: await client.get(key) })))
    expect(left.filter((e) => e.text === poisonedText.get(e.key)).map((e) => e.key)).toEqual([])
    const again = await server()
    expect(await traces(again.edge.url, tx.hash)).toEqual(expected)
    expect(again.stats().rejected).toBe(0)
    expect(stateCalls(again.proxy)).toBe(0)
  })

  it("a block's receipts and raw block come from the tier, checked against its header: a second server asks the upstream for neither", async () => {
    await client.flushdb()
    const tx = txByLabel(devnet, label)
    const blockHash = await blockHashOf(tx)
    const first = await server()
    const receipts = await rpcResult(first.edge.url, 'debug_getRawReceipts', [blockHash])
    const expected = await traces(first.edge.url, tx.hash)
    expect(receiptCalls(first.proxy)).toBeGreaterThan(0)
    await first.edge.engine.persistent!.flush()
    expect(await client.exists(`${PREFIX}R:${blockHash}`, `${PREFIX}B:${blockHash}`)).toBe(2)

    const second = await server()
    expect(await rpcResult(second.edge.url, 'debug_getRawReceipts', [blockHash])).toEqual(receipts)
    expect(await traces(second.edge.url, tx.hash)).toEqual(expected)
    expect(receiptCalls(second.proxy)).toBe(0)
    expect(second.proxy.calls.get('eth_getBlockByHash') ?? 0).toBe(0)
    expect(stateCalls(second.proxy)).toBe(0)
    expect(second.stats()).toMatchObject({ rejected: 0, failures: 0 })

    // Kept without their block's header, receipts cannot be checked: a miss, not a rejection (nor deleted).
    const kv = createRedisKv({ url: redis.url })
    try {
      // Connected (a command before that fails at once: nothing is queued).
      await expect
        .poll(
          () =>
            kv.getMany(['none']).then(
              () => true,
              () => false,
            ),
          { interval: 200 },
        )
        .toBe(true)
      const tier = createSharedTier({ kv })
      expect(await tier.getMany([`R:${blockHash}`])).toEqual([receipts.map((r: Hex) => hexToBytes(r))])
      await client.rename(`${PREFIX}h:${blockHash}`, `${PREFIX}aside`)
      expect(await tier.getMany([`R:${blockHash}`])).toEqual([undefined])
      expect(tier.stats()).toMatchObject({ rejected: 0, failures: 0 })
      expect(await client.exists(`${PREFIX}R:${blockHash}`)).toBe(1)
      await client.rename(`${PREFIX}aside`, `${PREFIX}h:${blockHash}`)
    } finally {
      await kv.close()
    }
  })

  it('poisoned receipts, raw block summaries and raw block transactions are refused, deleted and fetched again; the answers stay the verified ones', async () => {
    await client.flushdb()
    const tx = txByLabel(devnet, label)
    const blockHash = await blockHashOf(tx)
    const reference = await server()
    const receipts = await rpcResult(reference.edge.url, 'debug_getRawReceipts', [blockHash])
    const expected = await traces(reference.edge.url, tx.hash)
    const block = await rpcResult(reference.edge.url, 'eth_getBlockByHash', [blockHash, true])
    await reference.edge.engine.persistent!.flush()
    const receiptsKey = `${PREFIX}R:${blockHash}`
    const blockKey = `${PREFIX}B:${blockHash}`
    const rawBlock = (await client.get(blockKey))!

    /** A fresh server's answers, once `key` holds `bad`: equal to the reference's, the entry refused and no longer `bad`. */
    async function refused(key: string, bad: string, ask: (url: string) => Promise<void>) {
      const fresh = await server()
      await ask(fresh.edge.url)
      // The tier's figures in the message: a failure under load says whether the entry was read at all.
      expect(fresh.stats().rejected, `${key}: ${JSON.stringify(fresh.stats())}`).toBeGreaterThan(0)
      await fresh.edge.engine.persistent!.flush()
      expect(await client.get(key)).not.toBe(bad)
      return fresh
    }

    // Receipts with one byte of a receipt changed: they no longer hash to the header's receiptsRoot.
    const badReceipts = await poison(receiptsKey, (text) =>
      text.replace(/"\$b":"0x(..)/, (_m, b: string) => `"$b":"0x${b === '02' ? '01' : '02'}`),
    )
    const afterReceipts = await refused(receiptsKey, badReceipts, async (url) => {
      expect(await rpcResult(url, 'debug_getRawReceipts', [blockHash])).toEqual(receipts)
    })
    expect(receiptCalls(afterReceipts.proxy)).toBeGreaterThan(0)

    // A receipt summary's gas used changed (the receipts kept beside it say otherwise): a replay
    // would fail on it, so the raw block is refused whole.
    const badSummary = await poison(blockKey, (text) => {
      const raw = JSON.parse(text)
      raw.receipts[0].gasUsed = `0x${(BigInt(raw.receipts[0].gasUsed) + 1n).toString(16)}`
      return JSON.stringify(raw)
    })
    const afterSummary = await refused(blockKey, badSummary, async (url) => {
      expect(await traces(url, tx.hash)).toEqual(expected)
    })
    expect(afterSummary.proxy.calls.get('eth_getBlockByHash') ?? 0).toBeGreaterThan(0)

    // A transaction's value changed: the block no longer hashes to its header's transactionsRoot
    // (fetchVerifiedBlock: refused, and not written again), nor the transaction to the hash the block
    // lists (loadBlock: refused, and written again from the upstream's).
    const badTransaction = (text: string) => {
      const raw = JSON.parse(text)
      raw.json.transactions[0].value = `0x${(BigInt(raw.json.transactions[0].value) + 1n).toString(16)}`
      return JSON.stringify(raw)
    }
    await refused(blockKey, await poison(blockKey, badTransaction), async (url) => {
      expect(await rpcResult(url, 'eth_getBlockByHash', [blockHash, true])).toEqual(block)
    })
    expect(await client.exists(blockKey)).toBe(0)
    await client.set(blockKey, rawBlock)
    await refused(blockKey, await poison(blockKey, badTransaction), async (url) => {
      expect(await traces(url, tx.hash)).toEqual(expected)
    })

    // What the refusals wrote back is served to the next server unrefused.
    const again = await server()
    expect(await rpcResult(again.edge.url, 'debug_getRawReceipts', [blockHash])).toEqual(receipts)
    expect(await traces(again.edge.url, tx.hash)).toEqual(expected)
    expect(again.stats().rejected).toBe(0)
    expect(receiptCalls(again.proxy)).toBe(0)
  })

  it('a malformed or oversized hint (an access list, a footprint) is refused and deleted; the call answers as anvil does', async () => {
    await client.flushdb()
    const tx = txByLabel(devnet, label)
    const blockHash = await blockHashOf(tx)
    // balanceOf(the first dev account), at the block by hash: its header, and so its access list, are read from the tier.
    const call = { to: devnet.contracts.Token, data: `0x70a08231${devnet.accounts[0]!.slice(2).padStart(64, '0')}` }
    const at = { blockHash }
    const expected = await rpcResult(devnet.anvil.url, 'eth_call', [call, at])
    const first = await server()
    expect(await rpcResult(first.edge.url, 'eth_call', [call, at])).toBe(expected)
    await first.edge.engine.persistent!.flush()
    const [listKey] = await keysOf('al')
    const [footprintKey] = await keysOf('fp')
    expect(listKey && footprintKey && (await keysOf('cc')).length).toBeTruthy()

    // Warm, each hint is read and used: the call's access list spares eth_createAccessList.
    const warm = await server()
    expect(await rpcResult(warm.edge.url, 'eth_call', [call, at])).toBe(expected)
    expect(warm.proxy.calls.get('eth_createAccessList') ?? 0).toBe(0)
    expect(warm.stats().rejected).toBe(0)

    // An access list naming no address, and a footprint listing more accounts than a hint may.
    const badList = await poison(listKey!, () => JSON.stringify([{ address: 'not an address', storageKeys: [] }]))
    const many = Array.from({ length: HINT_MAX_ITEMS.footprint + 1 }, (_, i) => ({
      address: `0x${(i + 1).toString(16).padStart(40, '0')}`,
      slots: [],
    }))
    const badFootprint = await poison(footprintKey!, (text) => JSON.stringify({ ...JSON.parse(text), entries: many }))
    const fresh = await server()
    expect(await rpcResult(fresh.edge.url, 'eth_call', [call, at])).toBe(expected)
    expect(fresh.stats().rejected).toBe(2)
    // Refused, the list was asked of the upstream again; none of the footprint's accounts was proven.
    expect(fresh.proxy.calls.get('eth_createAccessList') ?? 0).toBe(1)
    expect(fresh.proxy.calls.get('eth_getProof') ?? 0).toBeLessThan(10)
    await fresh.edge.engine.persistent!.flush()
    expect(await client.get(listKey!)).not.toBe(badList)
    expect(await client.get(footprintKey!)).not.toBe(badFootprint)
  })

  it('with Redis killed mid-run every request still succeeds from the upstream, and the cache is used again once it is back', async () => {
    const tx = txByLabel(devnet, label)
    const edge = await server()
    const expected = await traces(edge.edge.url, tx.hash)

    await edge.edge.engine.persistent!.flush()
    logged.length = 0
    await redis.kill()
    const down = await server()
    const started = Date.now()
    expect(await traces(down.edge.url, tx.hash)).toEqual(expected)
    // Bounded: a store that is gone costs a request next to nothing (no command waits on it).
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(down.stats().failures).toBeGreaterThan(0)
    expect(stateCalls(down.proxy)).toBeGreaterThan(0)

    await redis.start()
    // The same server, on transactions it has not traced (of other blocks): its client reconnects
    // (within 2 s), its breaker closes (within 5 s), and what it proves is written again.
    const others = devnet.transactions.filter((t) => t.blockNumber !== tx.blockNumber)
    let next = 0
    await expect
      .poll(
        async () => {
          const t = others[next++ % others.length]!
          await rpcResult(down.edge.url, 'debug_traceTransaction', [t.hash, { tracer: 'callTracer' }])
          await down.edge.engine.persistent!.flush()
          return client.dbsize()
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBeGreaterThan(0)
    // Said once each way, naming the store without its credentials.
    expect(logged.filter((l) => l.includes('failed') && l.startsWith('shared cache:'))).toHaveLength(1)
    expect(logged.filter((l) => l.endsWith('answers again; used again'))).toHaveLength(1)
    expect(logged.join('\n')).not.toMatch(/redis:\/\/[^\s]*@/)
  })
})

describe('--cache.redis on the command line', () => {
  it('the banner names the tier (no credentials); a URL of another scheme is refused, naming the flag', async () => {
    const cli = await runCli(
      [
        '--upstream',
        devnet.anvil.url,
        '--hardfork',
        'prague',
        '--http.port',
        '0',
        '--cache.redis',
        redis.url.replace('//', '//user:secret@'),
      ],
      /listening: +http:\/\/\S+/,
    )
    try {
      expect(cli.output).toContain(
        `  cache:      memory, then shared on ${redis.url} (--cache.redis; every entry read is checked)`,
      )
      expect(cli.output).not.toContain('secret')
    } finally {
      cli.kill()
    }
    const refused = await runCli(['--upstream', devnet.anvil.url, '--cache.redis', 'http://127.0.0.1:6379'], /never/)
    expect(refused.code).toBe(1)
    expect(refused.output).toContain('--cache.redis needs a redis:// or rediss:// URL, got "http://127.0.0.1:6379"')
  })
})
