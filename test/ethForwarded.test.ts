import { createPublicClient, http, parseAbiItem } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it, onTestFinished } from 'vitest'
import { WebSocket } from 'ws'
import { ETH_FORWARDED } from '../src/rpc/eth/ethNamespace.js'
import { filterStoreOf } from '../src/rpc/eth/filters/filterStore.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { DEV_ACCOUNT, rpc, rpcResult, waitForReceipt } from './src/rpc.js'
import { flipHexDigit, useDevnetBehindProxy } from './src/useDevnetBehindProxy.js'

// What used to reach the upstream through the eth and net namespaces' pass-through for every
// undeclared method: eth_getAccount and eth_getAccountInfo (foundry loads accounts with the latter)
// are now proven like eth_getBalance; the filter methods are served here on verified heads and logs;
// the few methods that carry no chain state are forwarded one by one, by name; anything else does
// not exist and never reaches the upstream.

const env = useDevnetBehindProxy()
const calls = (method: string) => env.proxy.calls.get(method) ?? 0

/** Init code that emits LOG1(TOPIC) with 32 bytes of data (42), then deploys nothing. */
const TOPIC = `0x${'ab'.repeat(32)}`
const initCode = `0x602a600052${`7f${TOPIC.slice(2)}`}60206000a100`

/** Mines a block on anvil with one transaction emitting a log; its receipt. */
async function emitLog() {
  const hash = await rpcResult(env.devnet.anvil.url, 'eth_sendTransaction', [
    { from: DEV_ACCOUNT, data: initCode, gas: '0x30000' },
  ])
  return waitForReceipt(env.devnet.anvil.url, hash)
}

/** Polls eth_getFilterChanges until it gives at least `count` items (or 5 s pass); everything gathered. */
async function changesUntil(url: string, id: string, count: number, ms = 5000): Promise<any[]> {
  const got: any[] = []
  const end = Date.now() + ms
  while (got.length < count && Date.now() < end) {
    got.push(...(await rpcResult(url, 'eth_getFilterChanges', [id])))
    if (got.length < count) await new Promise((r) => setTimeout(r, 30))
  }
  return got
}

/** The account lie: every balance the upstream gives for DEV_ACCOUNT, in any answer, is 1 wei. */
const lieAboutBalance = (call: { method: string; params: unknown[] }, result: any) => {
  const about = typeof call.params[0] === 'string' && call.params[0].toLowerCase() === DEV_ACCOUNT
  if (!about || result === null || result === undefined) return result
  if (call.method === 'eth_getBalance') return '0x1'
  if (typeof result === 'object' && 'balance' in result) return { ...result, balance: '0x1' }
  return result
}

describe('eth_getAccount and eth_getAccountInfo', () => {
  it("answer as anvil does, field for field and in anvil's order, for an account and a contract", async () => {
    const e = await env.edgeVia()
    const { anvil } = env.devnet
    const contract = (await rpcResult(anvil.url, 'eth_getTransactionReceipt', [env.devnet.transactions[0]!.hash]))
      .contractAddress as string
    for (const address of [DEV_ACCOUNT, contract, `0x${'00'.repeat(19)}77`]) {
      for (const method of ['eth_getAccount', 'eth_getAccountInfo']) {
        const ours = await rpcResult(e.url, method, [address, env.head.number])
        const theirs = await rpcResult(anvil.url, method, [address, env.head.number])
        expect(JSON.stringify(ours), `${method} ${address}`).toBe(JSON.stringify(theirs))
      }
    }
    expect((await rpcResult(e.url, 'eth_getAccountInfo', [contract])).code).toMatch(/^0x[0-9a-f]{10,}/)
    // Neither was asked of the upstream: both are read from proofs.
    expect(calls('eth_getAccount') + calls('eth_getAccountInfo')).toBe(0)
  })

  it('refuse a balance the proof does not prove, as eth_getBalance does (never the lie)', async () => {
    const e = await env.edgeVia({ transform: lieAboutBalance })
    // The lie is what the upstream itself answers.
    expect((await rpcResult(env.proxy.url, 'eth_getAccountInfo', [DEV_ACCOUNT, 'latest'])).balance).toBe('0x1')
    for (const method of ['eth_getBalance', 'eth_getAccount', 'eth_getAccountInfo']) {
      const { result, error } = await rpc(e.url, method, [DEV_ACCOUNT, 'latest'])
      expect(result, method).toBeUndefined()
      expect(error.code, method).toBe(-32000)
      expect(error.message, method).toContain('state does not verify')
      expect(error.data.address, method).toBe(DEV_ACCOUNT)
    }
    const { error } = await rpc(e.url, 'eth_getAccountInfo', ['0x12'])
    expect(error.code).toBe(-32602)
  })

  it('with --unverified, are passed through as they were sent (the upstream is trusted there)', async () => {
    const e = await env.edgeVia({ transform: lieAboutBalance }, { unverified: true, subscriptionPollMs: 20 })
    const before = calls('eth_getAccountInfo')
    expect((await rpcResult(e.url, 'eth_getAccountInfo', [DEV_ACCOUNT, 'latest'])).balance).toBe('0x1')
    expect(calls('eth_getAccountInfo')).toBe(before + 1)
    // Filters are served here in that mode too (the upstream's own are not used).
    const logs = await rpcResult(e.url, 'eth_newFilter', [{ topics: [TOPIC] }])
    const receipt = await emitLog()
    expect((await changesUntil(e.url, logs, 1))[0].transactionHash).toBe(receipt.transactionHash)
    expect(calls('eth_newFilter')).toBe(0)
  })
})

describe('methods the namespaces do not declare', () => {
  /** An edgetrace in front of the proxy serving eth and net; closed by the caller. */
  const withNet = () => startEdgetrace({ upstream: env.proxy.url, port: 0, hardfork: 'prague', api: ['eth', 'net'] })

  it('answer -32601 with geth’s words and are never sent upstream', async () => {
    env.proxy.hooks = {}
    const e = await withNet()
    onTestFinished(() => e.close())
    for (const method of ['eth_foo', 'eth_getHeaderByNumber', 'eth_getRawTransactionByHash', 'net_foo']) {
      const { error } = await rpc(e.url, method, ['latest'])
      expect(error, method).toEqual({ code: -32601, message: `the method ${method} does not exist/is not available` })
      expect(calls(method), method).toBe(0)
    }
  })

  it('those forwarded by design reach the upstream as sent; eth_blockNumber is the verified head', async () => {
    env.proxy.hooks = {}
    const e = await withNet()
    onTestFinished(() => e.close())
    expect(ETH_FORWARDED).toContain('eth_gasPrice')
    const before = calls('eth_gasPrice')
    expect(await rpcResult(e.url, 'eth_gasPrice')).toBe(await rpcResult(env.devnet.anvil.url, 'eth_gasPrice'))
    expect(calls('eth_gasPrice')).toBe(before + 1)
    expect(await rpcResult(e.url, 'eth_accounts')).toContain(DEV_ACCOUNT)
    // net_peerCount: forwarded, anvil's answer (it has no such method) as it is.
    const peers = calls('net_peerCount')
    expect((await rpc(e.url, 'net_peerCount')).error).toEqual((await rpc(env.devnet.anvil.url, 'net_peerCount')).error)
    expect(calls('net_peerCount')).toBe(peers + 1)
    // The upstream's eth_blockNumber is not asked: the head is a hashed header.
    const blockNumbers = calls('eth_blockNumber')
    expect(await rpcResult(e.url, 'eth_blockNumber')).toBe(
      (await rpcResult(env.devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])).number,
    )
    expect(calls('eth_blockNumber')).toBe(blockNumbers)
  })
})

describe('eth_capabilities', () => {
  it('names the verified head; an upstream without the method (anvil) leaves every oldest block unknown', async () => {
    const e = await env.edgeVia()
    expect((await rpc(env.devnet.anvil.url, 'eth_capabilities')).error.code).toBe(-32601)
    const head = await rpcResult(env.devnet.anvil.url, 'eth_getBlockByNumber', ['latest', false])
    const unknown = { disabled: false }
    expect(await rpcResult(e.url, 'eth_capabilities')).toEqual({
      head: { number: head.number, hash: head.hash },
      state: unknown,
      tx: unknown,
      logs: unknown,
      receipts: unknown,
      blocks: unknown,
      stateproofs: unknown,
    })
  })
})

describe('filters', () => {
  it('log and block filters over HTTP (viem’s polling): new logs and block hashes, eth_getFilterLogs, uninstall', async () => {
    const e = await env.edgeVia({}, { subscriptionPollMs: 20 })
    const client = createPublicClient({ transport: http(e.url) })
    const eventFilter = await client.createEventFilter({
      event: parseAbiItem('event Anything()'),
      strict: false,
    })
    // A filter by topic, the way ethers and viem build one (raw, to use TOPIC).
    const logFilter = await rpcResult(e.url, 'eth_newFilter', [{ topics: [TOPIC] }])
    const blockFilter = await client.createBlockFilter()
    expect(logFilter).toMatch(/^0x[0-9a-f]{32}$/)
    expect(await rpcResult(e.url, 'eth_getFilterChanges', [logFilter])).toEqual([])
    const receipt = await emitLog()
    const logs = await changesUntil(e.url, logFilter, 1)
    const theirs = await rpcResult(env.devnet.anvil.url, 'eth_getLogs', [{ blockHash: receipt.blockHash }])
    expect(logs).toEqual(theirs)
    expect(logs[0].topics).toEqual([TOPIC])
    // Polled: nothing new until another block.
    expect(await rpcResult(e.url, 'eth_getFilterChanges', [logFilter])).toEqual([])
    const hashes = await client.getFilterChanges({ filter: blockFilter })
    expect(hashes).toContain(receipt.blockHash)
    // The event filter (another topic) saw nothing.
    expect(await client.getFilterChanges({ filter: eventFilter })).toEqual([])
    // eth_getFilterLogs runs the criteria as eth_getLogs (from `latest`: the head's block).
    expect(await rpcResult(e.url, 'eth_getFilterLogs', [logFilter])).toEqual(theirs)
    const ranged = await rpcResult(e.url, 'eth_newFilter', [{ fromBlock: '0x0', topics: [TOPIC] }])
    const everyLog = await rpcResult(e.url, 'eth_getFilterLogs', [ranged])
    expect(everyLog).toEqual(
      await rpcResult(env.devnet.anvil.url, 'eth_getLogs', [{ fromBlock: '0x0', topics: [TOPIC] }]),
    )
    expect(everyLog.length).toBeGreaterThan(0)
    for (const id of [logFilter, ranged]) expect(await rpcResult(e.url, 'eth_uninstallFilter', [id])).toBe(true)
    expect(await client.uninstallFilter({ filter: blockFilter })).toBe(true)
    expect(await client.uninstallFilter({ filter: eventFilter })).toBe(true)
    expect(filterStoreOf(e.engine).size()).toBe(0)
  })

  it('geth’s errors: an unknown id, a block filter read as a log filter, a reversed or pending range', async () => {
    const e = await env.edgeVia({}, { subscriptionPollMs: 20 })
    const notFound = { code: -32000, message: 'filter not found' }
    expect((await rpc(e.url, 'eth_getFilterChanges', [`0x${'12'.repeat(16)}`])).error).toEqual(notFound)
    expect((await rpc(e.url, 'eth_getFilterLogs', [`0x${'12'.repeat(16)}`])).error).toEqual(notFound)
    expect(await rpcResult(e.url, 'eth_uninstallFilter', [`0x${'12'.repeat(16)}`])).toBe(false)
    const blocks = await rpcResult(e.url, 'eth_newBlockFilter')
    expect((await rpc(e.url, 'eth_getFilterLogs', [blocks])).error).toEqual(notFound)
    expect(await rpcResult(e.url, 'eth_uninstallFilter', [blocks])).toBe(true)
    expect((await rpc(e.url, 'eth_getFilterChanges', [blocks])).error).toEqual(notFound)
    const invalid = { code: -32602, message: 'invalid block range params' }
    expect((await rpc(e.url, 'eth_newFilter', [{ fromBlock: '0x5', toBlock: '0x2' }])).error).toEqual(invalid)
    expect((await rpc(e.url, 'eth_newFilter', [{ fromBlock: 'safe' }])).error).toEqual(invalid)
    expect((await rpc(e.url, 'eth_newFilter', [{ fromBlock: 'pending' }])).error).toEqual({
      code: -32602,
      message: 'pending logs are not supported',
    })
    expect((await rpc(e.url, 'eth_newFilter', [{ topics: '0x1' }])).error.code).toBe(-32602)
  })

  it('a filter not polled within its timeout is removed (geth: 5 minutes)', async () => {
    const e = await env.edgeVia({}, { subscriptionPollMs: 20, filterTimeoutMs: 150 })
    const id = await rpcResult(e.url, 'eth_newBlockFilter')
    const kept = await rpcResult(e.url, 'eth_newBlockFilter')
    const store = filterStoreOf(e.engine)
    expect(store.size()).toBe(2)
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 60))
      expect(await rpcResult(e.url, 'eth_getFilterChanges', [kept])).toEqual([])
    }
    expect((await rpc(e.url, 'eth_getFilterChanges', [id])).error).toEqual({
      code: -32000,
      message: 'filter not found',
    })
    expect(store.size()).toBe(1)
  })

  it("a log the upstream tampered with is never served: the filter waits for the block's verified receipts", async () => {
    let tamper = true
    const e = await env.edgeVia(
      {
        // The upstream lies consistently: in its receipts and in its own filters' and logs' answers.
        transform: (call, result) => {
          if (!tamper || !Array.isArray(result)) return result
          const alter = (l: { data: string }) => ({ ...l, data: flipHexDigit(l.data) })
          if (call.method === 'eth_getBlockReceipts')
            return result.map((r: { logs: { data: string }[] }) => ({ ...r, logs: r.logs.map(alter) }))
          if (['eth_getFilterChanges', 'eth_getFilterLogs', 'eth_getLogs'].includes(call.method))
            return result.map((l) => (typeof l === 'object' && l !== null && 'data' in l ? alter(l) : l))
          return result
        },
      },
      { subscriptionPollMs: 20 },
    )
    const id = await rpcResult(e.url, 'eth_newFilter', [{ topics: [TOPIC] }])
    const receipt = await emitLog()
    // While every answer for the block's receipts is altered: nothing, for as long as it lasts.
    const during = await changesUntil(e.url, id, 1, 1000)
    expect(during).toEqual([])
    const lie = await rpcResult(env.proxy.url, 'eth_getBlockReceipts', [receipt.blockHash])
    expect(lie[0].logs[0].data).not.toBe(receipt.logs[0].data)
    // eth_getFilterLogs reads the same receipts: the error names the block.
    const { error } = await rpc(e.url, 'eth_getFilterLogs', [id])
    expect(error.code).toBe(-32000)
    expect(error.message).toContain('receiptsRoot')
    // Once the upstream answers truly, the verified log arrives — once.
    tamper = false
    const after = await changesUntil(e.url, id, 1)
    expect(after).toEqual(await rpcResult(env.devnet.anvil.url, 'eth_getLogs', [{ blockHash: receipt.blockHash }]))
    expect(after[0].data).toBe(receipt.logs[0].data)
    // The upstream's own filters were never asked.
    for (const method of ['eth_newFilter', 'eth_getFilterChanges', 'eth_getFilterLogs'])
      expect(calls(method), method).toBe(0)
  })

  it('a WebSocket connection’s filters are its own and end with it; over HTTP they are global', async () => {
    const e = await env.edgeVia({}, { subscriptionPollMs: 20 })
    const socket = new WebSocket(e.url.replace(/^http/, 'ws'))
    await new Promise((resolve, reject) => {
      socket.once('open', resolve)
      socket.once('error', reject)
    })
    const answers = new Map<number, any>()
    socket.on('message', (data) => {
      const m = JSON.parse(data.toString())
      answers.set(m.id, m)
    })
    const overWs = async (id: number, method: string, params: unknown[] = []) => {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
      while (!answers.has(id)) await new Promise((r) => setTimeout(r, 10))
      return answers.get(id)
    }
    const mine = (await overWs(1, 'eth_newBlockFilter')).result
    const global = await rpcResult(e.url, 'eth_newBlockFilter')
    expect((await rpc(e.url, 'eth_getFilterChanges', [mine])).error).toEqual({
      code: -32000,
      message: 'filter not found',
    })
    expect((await overWs(2, 'eth_getFilterChanges', [mine])).result).toEqual([])
    expect((await overWs(3, 'eth_getFilterChanges', [global])).result).toEqual([])
    const store = filterStoreOf(e.engine)
    expect(store.size()).toBe(2)
    socket.close()
    const end = Date.now() + 2000
    while (store.size() > 1 && Date.now() < end) await new Promise((r) => setTimeout(r, 10))
    expect(store.size()).toBe(1)
  })

  it('pending transaction filters give the hashes the pool takes in', async () => {
    const e = await env.edgeVia({}, { subscriptionPollMs: 20 })
    const id = await rpcResult(e.url, 'eth_newPendingTransactionFilter')
    const full = await rpcResult(e.url, 'eth_newPendingTransactionFilter', [true])
    expect(id).toMatch(/^0x[0-9a-f]{32}$/)
    expect(await rpcResult(e.url, 'eth_getFilterChanges', [id])).toEqual([])
    const account = privateKeyToAccount('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6')
    const nonce = Number(await rpcResult(env.devnet.anvil.url, 'eth_getTransactionCount', [account.address, 'latest']))
    const raw = await account.signTransaction({
      chainId: Number(await rpcResult(env.devnet.anvil.url, 'eth_chainId', [])),
      type: 'eip1559',
      to: '0x00000000000000000000000000000000000000ee',
      value: 1n,
      gas: 21_000n,
      nonce,
      maxFeePerGas: 10n ** 12n,
      maxPriorityFeePerGas: 10n ** 9n,
    })
    const sent = await rpcResult(e.url, 'eth_sendRawTransaction', [raw])
    expect(await changesUntil(e.url, id, 1)).toEqual([sent])
    const [tx] = await changesUntil(e.url, full, 1)
    expect(tx).toMatchObject({ hash: sent, from: account.address.toLowerCase(), nonce: `0x${nonce.toString(16)}` })
    expect((await rpc(e.url, 'eth_newPendingTransactionFilter', ['yes'])).error.code).toBe(-32602)
  })
})
