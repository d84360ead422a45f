import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type FixtureNode, startFixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { createProxy } from './src/createProxy.js'
import { rpc, rpcResult } from './src/rpc.js'
import { flipHexDigit, useDevnetBehindProxy } from './src/useDevnetBehindProxy.js'
import { verificationErrorText } from './src/verificationErrorText.js'

// The vendor namespace (the reference daemon's erigon_* methods) on the embedded devnet, answers
// compared with anvil's own eth_* answers (anvil serves no erigon_*: the expected values are built
// here from its eth_getBlockByNumber, eth_getLogs, eth_getBlockReceipts and eth_getBalance), and an
// upstream that alters headers or receipts refused through the fault proxy.

const executionApis = fileURLToPath(new URL('./fixtures/execution-apis/', import.meta.url))
const env = useDevnetBehindProxy()
let devnet: Devnet
let head: { number: string; hash: string }
type Block = Record<string, any> & { number: string; hash: string; timestamp: string; transactions: any[] }
type Log = Record<string, any> & { blockNumber: string; transactionIndex: string; logIndex: string; topics: string[] }
let blocks: Block[]
let allLogs: Log[]

const anvil = (method: string, params: unknown[] = []) => rpcResult(devnet.anvil.url, method, params)

beforeAll(async () => {
  ;({ devnet, head } = env)
  blocks = []
  for (let n = 0; n <= Number(head.number); n++)
    blocks.push(await anvil('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]))
  allLogs = await anvil('eth_getLogs', [{ fromBlock: '0x0', toBlock: head.number }])
})

/** The reference's ErigonLog from eth's log: its field order, the block's time last as blockTimestamp. */
function erigonLog(log: Log, logIndex = log.logIndex) {
  const block = blocks[Number(log.blockNumber)]!
  return {
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockNumber: log.blockNumber,
    transactionHash: log.transactionHash,
    transactionIndex: log.transactionIndex,
    blockHash: log.blockHash,
    logIndex,
    removed: false,
    blockTimestamp: block.timestamp,
  }
}

describe('erigon_* over verified data, equal to what anvil says', () => {
  it('erigon_forks: the verified genesis hash and the fork lists as bare numbers', async () => {
    const e = await env.edgeVia()
    const forks = await rpcResult(e.url, 'erigon_forks')
    expect(Object.keys(forks)).toEqual(['genesis', 'heightForks', 'timeForks'])
    expect(forks.genesis).toBe(blocks[0]!.hash)
    // --hardfork prague: every block runs Prague's rules, nothing activates after genesis (the
    // Common behind it still lists mainnet's forks, which must not show). A real schedule: the
    // fixture node's chain below.
    expect(forks).toEqual({ genesis: blocks[0]!.hash, heightForks: [], timeForks: [] })
  })

  it('erigon_blockNumber: head by default and for other numbers, 0 for earliest, the finalized block', async () => {
    const e = await env.edgeVia()
    expect(await rpcResult(e.url, 'erigon_blockNumber')).toBe(head.number)
    expect(await rpcResult(e.url, 'erigon_blockNumber', ['latest'])).toBe(head.number)
    expect(await rpcResult(e.url, 'erigon_blockNumber', ['0x1'])).toBe(head.number)
    expect(await rpcResult(e.url, 'erigon_blockNumber', ['earliest'])).toBe('0x0')
    const finalized = await anvil('eth_getBlockByNumber', ['finalized', false])
    expect(await rpcResult(e.url, 'erigon_blockNumber', ['finalized'])).toBe(finalized.number)
    const bad = await rpc(e.url, 'erigon_blockNumber', [{}])
    expect(bad.error.code).toBe(-32602)
    expect(bad.error.message).toContain('invalid argument 0')
  })

  it('erigon_getHeaderByNumber / ByHash: the header in the reference shape (hash last, optional fields present)', async () => {
    const e = await env.edgeVia()
    for (const block of [blocks[0]!, blocks[3]!, blocks[blocks.length - 1]!]) {
      const byNumber = await rpcResult(e.url, 'erigon_getHeaderByNumber', [block.number])
      const byHash = await rpcResult(e.url, 'erigon_getHeaderByHash', [block.hash])
      expect(byHash).toEqual(byNumber)
      expect(Object.keys(byNumber)).toEqual([
        'parentHash',
        'sha3Uncles',
        'miner',
        'stateRoot',
        'transactionsRoot',
        'receiptsRoot',
        'logsBloom',
        'difficulty',
        'number',
        'gasLimit',
        'gasUsed',
        'timestamp',
        'extraData',
        'mixHash',
        'nonce',
        'baseFeePerGas',
        'withdrawalsRoot',
        'blobGasUsed',
        'excessBlobGas',
        'parentBeaconBlockRoot',
        'requestsHash',
        'hash',
      ])
      for (const [k, v] of Object.entries(byNumber)) expect(v, k).toBe(block[k])
    }
    // Decimal numbers are accepted as the reference's rpc.BlockNumber takes them.
    expect((await rpcResult(e.url, 'erigon_getHeaderByNumber', ['3'])).hash).toBe(blocks[3]!.hash)
    expect(await rpcResult(e.url, 'erigon_getHeaderByNumber', ['pending'])).toBeNull()
    expect((await rpc(e.url, 'erigon_getHeaderByNumber', ['0x3e8'])).error).toEqual({
      code: -32000,
      message: 'block header not found: 1000',
    })
    const unknown = `0x${'ab'.repeat(32)}`
    expect((await rpc(e.url, 'erigon_getHeaderByHash', [unknown])).error).toEqual({
      code: -32000,
      message: `block header not found: ${unknown}`,
    })
    expect((await rpc(e.url, 'erigon_getHeaderByNumber', [])).error).toEqual({
      code: -32602,
      message: 'missing value for required argument 0',
    })
    expect((await rpc(e.url, 'erigon_getHeaderByHash', ['0x12'])).error.code).toBe(-32602)
  })

  it('erigon_getBlockByTimestamp: the first block with time ≥ ts; head and genesis at the ends', async () => {
    const e = await env.edgeVia()
    const firstAtOrAfter = (ts: bigint) => {
      const last = blocks[blocks.length - 1]!
      if (ts >= BigInt(last.timestamp)) return last
      if (ts <= BigInt(blocks[0]!.timestamp)) return blocks[0]!
      return blocks.find((b) => BigInt(b.timestamp) >= ts)!
    }
    // The devnet's blocks are mined within a second or two, so these probe the ends and ties (the
    // first of several blocks of one time); the search itself is exercised on the fixture chain below.
    const times = [...new Set(blocks.map((b) => BigInt(b.timestamp)))]
    const probes = [0n, ...times.flatMap((t) => [t - 1n, t, t + 1n]), times[times.length - 1]! + 1000n]
    for (const ts of probes) {
      const expected = firstAtOrAfter(ts)
      const got = await rpcResult(e.url, 'erigon_getBlockByTimestamp', [`0x${ts.toString(16)}`, false])
      expect(got.hash, `ts ${ts}`).toBe(expected.hash)
    }
    // Decimal strings and bare numbers, and the block in full.
    // A block with transactions that is the first of its time.
    const mid = blocks.find((b) => b.transactions.length > 0 && firstAtOrAfter(BigInt(b.timestamp)) === b)!
    const full = await rpcResult(e.url, 'erigon_getBlockByTimestamp', [Number(mid.timestamp), true])
    // The block as edgetrace's eth_getBlockByNumber builds it from verified parts (anvil's own differs
    // in `size` and adds `totalDifficulty`, which a verified header cannot give).
    expect(full).toEqual(
      await rpcResult(e.url, 'eth_getBlockByNumber', [firstAtOrAfter(BigInt(mid.timestamp)).number, true]),
    )
    expect(full.transactions.length).toBeGreaterThan(0)
    expect(full.hash).toBe(firstAtOrAfter(BigInt(mid.timestamp)).hash)
    const dec = await rpcResult(e.url, 'erigon_getBlockByTimestamp', [BigInt(mid.timestamp).toString(), false])
    expect(dec.hash).toBe(firstAtOrAfter(BigInt(mid.timestamp)).hash)
    const bad = await rpc(e.url, 'erigon_getBlockByTimestamp', ['soon', false])
    expect(bad.error.code).toBe(-32602)
    expect(bad.error.message).toContain('invalid argument 0')
  })

  it('erigon_getBalanceChangesInBlock: exactly the accounts whose balance changed, with their new balance', async () => {
    const e = await env.edgeVia()
    let nonEmpty = 0
    // Block 1's parent is anvil's genesis, whose state does not verify against its stateRoot (see
    // startDevnet): the balances before block 1 cannot be proven, so the answer is an error naming it.
    const genesisChild = await rpc(e.url, 'erigon_getBalanceChangesInBlock', ['0x1'])
    expect(genesisChild.error.code).toBe(-32000)
    expect(genesisChild.error.message).toContain("block 1's parent state")
    expect(genesisChild.error.data.block).toEqual({ number: '0x0', hash: blocks[0]!.hash })
    for (const block of blocks.slice(2)) {
      const got: Record<string, string> = await rpcResult(e.url, 'erigon_getBalanceChangesInBlock', [block.number])
      expect(Object.keys(got)).toEqual(Object.keys(got).sort())
      const full = await anvil('eth_getBlockByNumber', [block.number, true])
      const candidates = new Set<string>([
        full.miner.toLowerCase(),
        ...devnet.accounts.map((a) => a.toLowerCase()),
        ...Object.values(devnet.contracts).map((a) => a.toLowerCase()),
        ...full.transactions.flatMap((t: any) => [t.from, t.to].filter(Boolean).map((a: string) => a.toLowerCase())),
        ...Object.keys(got),
      ])
      const before = `0x${(Number(block.number) - 1).toString(16)}`
      for (const address of candidates) {
        const [was, now] = await Promise.all([
          anvil('eth_getBalance', [address, before]),
          anvil('eth_getBalance', [address, block.number]),
        ])
        if (BigInt(was) !== BigInt(now)) expect(got[address], `${address} in block ${block.number}`).toBe(now)
        else expect(got[address], `${address} in block ${block.number}`).toBeUndefined()
      }
      if (Object.keys(got).length > 0) nonEmpty++
    }
    expect(nonEmpty).toBeGreaterThan(3)
    expect((await rpc(e.url, 'erigon_getBalanceChangesInBlock', ['0x3e8'])).error).toEqual({
      code: -32000,
      message: 'block 1000 not found',
    })
  })

  it('erigon_getLogsByHash: the logs per transaction; null for an unknown block', async () => {
    const e = await env.edgeVia()
    const withLogs = blocks.filter((b) => allLogs.some((l) => l.blockHash === b.hash))
    expect(withLogs.length).toBeGreaterThan(1)
    // Not vacuous: some block holds a transaction without logs beside one with logs.
    const mixed = withLogs.find((b) =>
      b.transactions.some((h: string) => !allLogs.some((l) => l.transactionHash === h)),
    )
    expect(mixed).toBeDefined()
    for (const block of withLogs) {
      const receipts = await anvil('eth_getBlockReceipts', [block.hash])
      expect(await rpcResult(e.url, 'erigon_getLogsByHash', [block.hash])).toEqual(
        // A transaction without logs is null (the reference's nil slice).
        receipts.map((r: any) =>
          r.logs.length === 0 ? null : r.logs.map((l: Log) => ({ ...l, blockTimestamp: block.timestamp })),
        ),
      )
    }
    expect(await rpcResult(e.url, 'erigon_getLogsByHash', [`0x${'ab'.repeat(32)}`])).toBeNull()
  })

  it('erigon_getLogs: eth_getLogs as ErigonLog objects (blockTimestamp last); the range errors of the reference', async () => {
    const e = await env.edgeVia()
    const token = devnet.contracts.Token!.toLowerCase()
    for (const filter of [
      { fromBlock: '0x0', toBlock: head.number },
      { fromBlock: '0x0', address: token },
    ]) {
      const expected = (await anvil('eth_getLogs', [filter])).map((l: Log) => erigonLog(l))
      const got = await rpcResult(e.url, 'erigon_getLogs', [filter])
      expect(got).toEqual(expected)
      expect(got.length).toBeGreaterThan(0)
      expect(Object.keys(got[0])).toEqual(Object.keys(expected[0]))
    }
    // The reference's range rules, not eth_getLogs': no fromBlock is genesis (eth_getLogs: latest).
    expect(await rpcResult(e.url, 'erigon_getLogs', [{}])).toEqual(allLogs.map((l) => erigonLog(l)))
    expect(await rpcResult(e.url, 'erigon_getLogs', [{ toBlock: '0x3e8' }])).toEqual(allLogs.map((l) => erigonLog(l)))
    expect(await rpcResult(e.url, 'erigon_getLogs', [{ blockHash: `0x${'ab'.repeat(32)}` }])).toBeNull()
    expect((await rpc(e.url, 'erigon_getLogs', [{ fromBlock: '0x5', toBlock: '0x3' }])).error).toEqual({
      code: -32602,
      message: 'invalid block range: end (3) < begin (5)',
    })
    expect((await rpc(e.url, 'erigon_getLogs', [{ fromBlock: 'safe' }])).error).toEqual({
      code: -32602,
      message: 'negative value for FromBlock: -3',
    })
    expect((await rpc(e.url, 'erigon_getLogs', [{ toBlock: '0x100000000' }])).error).toEqual({
      code: -32602,
      message: 'end (4294967296) > MaxUint32)',
    })
  })

  it('erigon_getLatestLogs: newest first, logIndex within the transaction, logCount / blockCount / ignoreTopicsOrder', async () => {
    const e = await env.edgeVia()
    // Newest first: blocks descending, transactions descending, a transaction's logs in order.
    const byTx = new Map<string, Log[]>()
    for (const l of allLogs) byTx.set(l.transactionHash, [...(byTx.get(l.transactionHash) ?? []), l])
    const newestFirst = (logs: Log[]) => {
      const txs = [...new Set(logs.map((l) => l.transactionHash))].sort((a, b) => {
        const la = byTx.get(a)![0]!
        const lb = byTx.get(b)![0]!
        return (
          Number(lb.blockNumber) - Number(la.blockNumber) || Number(lb.transactionIndex) - Number(la.transactionIndex)
        )
      })
      return txs.flatMap((h) =>
        byTx
          .get(h)!
          .map((l, i) => ({ l, i }))
          .filter(({ l }) => logs.includes(l))
          .map(({ l, i }) => erigonLog(l, `0x${i.toString(16)}`)),
      )
    }
    const ordered = newestFirst(allLogs)
    const range = { fromBlock: '0x0', toBlock: head.number }
    const newestBlock = ordered[0]!.blockNumber
    expect(await rpcResult(e.url, 'erigon_getLatestLogs', [range, {}])).toEqual(
      ordered.filter((l) => l.blockNumber === newestBlock),
    )
    expect(await rpcResult(e.url, 'erigon_getLatestLogs', [range, { logCount: 3 }])).toEqual(ordered.slice(0, 3))
    const twoBlocks = [...new Set(ordered.map((l) => l.blockNumber))].slice(0, 2)
    expect(twoBlocks.length).toBe(2)
    expect(await rpcResult(e.url, 'erigon_getLatestLogs', [range, { blockCount: 2 }])).toEqual(
      ordered.filter((l) => twoBlocks.includes(l.blockNumber)),
    )
    expect(await rpcResult(e.url, 'erigon_getLatestLogs', [range, { logCount: 10_000 }])).toEqual(ordered)
    // A log with logIndex > 0 inside its transaction is there (the within-tx count is exercised).
    expect(ordered.some((l) => l.logIndex !== '0x0')).toBe(true)

    // Topics: positional, and with ignoreTopicsOrder any of the topics at any position.
    const two = allLogs.find((l) => l.topics.length >= 2)!
    const swapped = [two.topics[1], two.topics[0]]
    const positional = allLogs.filter((l) => l.topics[0] === swapped[0] && l.topics[1] === swapped[1])
    const unordered = allLogs.filter((l) => l.topics.some((t) => swapped.includes(t)))
    expect(unordered.length).toBeGreaterThan(positional.length)
    expect(
      await rpcResult(e.url, 'erigon_getLatestLogs', [{ ...range, topics: swapped }, { logCount: 10_000 }]),
    ).toEqual(newestFirst(positional))
    expect(
      await rpcResult(e.url, 'erigon_getLatestLogs', [
        { ...range, topics: swapped },
        { logCount: 10_000, ignoreTopicsOrder: true },
      ]),
    ).toEqual(newestFirst(unordered))

    expect((await rpc(e.url, 'erigon_getLatestLogs', [range, { logCount: 1, blockCount: 1 }])).error).toEqual({
      code: -32000,
      message: 'logs count & block count are ambigious',
    })
    const unknown = `0x${'ab'.repeat(32)}`
    expect((await rpc(e.url, 'erigon_getLatestLogs', [{ blockHash: unknown }, {}])).error).toEqual({
      code: -32000,
      message: `block header not found ${unknown.slice(2)}`,
    })
    // No fromBlock: back to genesis until the count is met.
    expect(await rpcResult(e.url, 'erigon_getLatestLogs', [{}, { logCount: 10_000 }])).toEqual(ordered)
    expect((await rpc(e.url, 'erigon_getLatestLogs', [range])).error).toEqual({
      code: -32602,
      message: 'missing value for required argument 1',
    })
    const hexCount = await rpc(e.url, 'erigon_getLatestLogs', [range, { logCount: '0x1' }])
    expect(hexCount.error.code).toBe(-32602)
    expect(hexCount.error.message).toContain('logCount')
  })

  it('erigon_getBlockReceiptsByBlockHash: anvil’s receipts; an unknown hash is the reference’s error', async () => {
    const e = await env.edgeVia()
    for (const block of blocks.filter((b) => b.transactions.length > 0).slice(0, 4)) {
      const expected = await anvil('eth_getBlockReceipts', [block.hash])
      const got = await rpcResult(e.url, 'erigon_getBlockReceiptsByBlockHash', [block.hash])
      expect(got.length).toBe(expected.length)
      for (const [i, r] of got.entries()) {
        for (const k of ['transactionHash', 'status', 'gasUsed', 'cumulativeGasUsed', 'logsBloom', 'contractAddress'])
          expect(r[k], k).toEqual(expected[i][k])
        expect(r.logs.map((l: Log) => l.data)).toEqual(expected[i].logs.map((l: Log) => l.data))
      }
    }
    const unknown = `0x${'cd'.repeat(32)}`
    expect((await rpc(e.url, 'erigon_getBlockReceiptsByBlockHash', [unknown])).error).toEqual({
      code: -32000,
      message: `block not found ${unknown.slice(2)}`,
    })
  })

  it('erigon_nodeInfo: edgetrace’s identity, the chain and the upstream’s reachability', async () => {
    const e = await env.edgeVia()
    const [info] = await rpcResult(e.url, 'erigon_nodeInfo')
    // web3_clientVersion's words (that namespace is not served here).
    expect(info.name).toBe(`edgetrace/v0.1.0/node-${process.versions.node}`)
    expect(info.protocols.eth).toEqual({ network: 31337, genesis: blocks[0]!.hash, head: expect.any(String) })
    expect(info.protocols.edgetrace).toMatchObject({
      upstream: env.proxy.url.replace(/\/$/, ''),
      reachable: true,
      cache: ['memory'],
      // The default engine, its module loaded from dist/wasm or compiled from the sources.
      engine: 'wasm',
    })
    expect(info.protocols.edgetrace.headNumber).toBeGreaterThanOrEqual(Number(head.number))
    await env.closeEdge()
    // An upstream that stops answering: reported unreachable within the probe's 3 s, not an error.
    const e2 = await env.edgeVia()
    await rpcResult(e2.url, 'erigon_nodeInfo') // genesis known before the upstream goes quiet
    env.proxy.hooks = { onRequest: () => 'hang' }
    const started = Date.now()
    const [quiet] = await rpcResult(e2.url, 'erigon_nodeInfo')
    expect(Date.now() - started).toBeLessThan(6000)
    expect(quiet.protocols.edgetrace.reachable).toBe(false)
    expect(quiet.protocols.eth.head).toBeNull()
    expect(quiet.protocols.eth.genesis).toBe(blocks[0]!.hash)
    env.proxy.hooks = {}
  }, 20_000)

  it('erigon_nodeInfo names the engine running the frames: wasm with --engine wasm, ethereumjs with --engine ethereumjs', async () => {
    for (const engine of ['wasm', 'ethereumjs'] as const) {
      const e = await env.edgeVia({}, { engine })
      try {
        const [info] = await rpcResult(e.url, 'erigon_nodeInfo')
        expect(info.protocols.edgetrace.engine).toBe(engine)
      } finally {
        await env.closeEdge()
      }
    }
  })

  it('erigon_cacheCheck: every kept header, account, slot and code entry re-verified; a corrupted one found and evicted', async () => {
    const e = await env.edgeVia()
    // Fill the cache: a call reading code, accounts and slots, and headers.
    await rpcResult(e.url, 'eth_call', [
      {
        to: devnet.contracts.Token,
        data: '0x70a08231000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      },
      'latest',
    ])
    await rpcResult(e.url, 'erigon_getBalanceChangesInBlock', [blocks[3]!.number])
    const clean = await rpcResult(e.url, 'erigon_cacheCheck')
    expect(clean.headers.checked).toBeGreaterThan(1)
    expect(clean.accounts.checked).toBeGreaterThan(1)
    expect(clean.slots.checked).toBeGreaterThan(0)
    expect(clean.code.checked).toBeGreaterThan(0)
    expect(clean.evicted).toBe(0)
    expect(clean.failures).toEqual([])

    // Corrupt what is kept (as a bug or a bad persisted entry would): one account's balance, one code.
    const cache = e.engine.cache
    const accountKey = cache.keys().find((k) => k.startsWith('a:') && cache.get(k))!
    const account = cache.get<any>(accountKey)
    cache.set(
      accountKey,
      { ...account, balance: account.balance + 1n, storageRoot: account.storageRoot, codeHash: account.codeHash },
      100,
    )
    const codeKey = cache.keys().find((k) => k.startsWith('c:'))!
    const code = cache.get<Uint8Array>(codeKey)!
    cache.set(codeKey, Uint8Array.from([...code, 0]), code.length + 1)
    // And one slot whose storage root a kept account has (so it can be proven again).
    const roots = new Set(
      cache
        .keys()
        .filter((k) => k.startsWith('a:') && cache.get(k))
        .map((k) => `0x${Buffer.from(cache.get<any>(k).storageRoot).toString('hex')}`),
    )
    const slotKey = cache.keys().find((k) => k.startsWith('s:') && roots.has(k.split(':')[1]!))!
    expect(slotKey).toBeDefined()
    cache.set(slotKey, Uint8Array.from([0x12, 0x34]), 100)
    const dirty = await rpcResult(e.url, 'erigon_cacheCheck')
    expect(dirty.accounts.failed).toBe(1)
    expect(dirty.code.failed).toBe(1)
    expect(dirty.slots.failed).toBe(1)
    expect(dirty.failures.map((f: { key: string }) => f.key).sort()).toEqual([accountKey, codeKey, slotKey].sort())
    expect(dirty.failures.find((f: { key: string }) => f.key === slotKey).reason).toContain('another value')
    for (const key of [accountKey, codeKey, slotKey]) expect(cache.has(key)).toBe(false)
    expect((await rpcResult(e.url, 'erigon_cacheCheck')).failures).toEqual([])
  })
})

describe('bad arguments: -32602 naming the argument, and the server keeps serving', () => {
  it('every erigon_* method, fed wrong types, too many arguments and nonsense', async () => {
    const e = await env.edgeVia()
    const methods: [string, number][] = [
      ['erigon_forks', 0],
      ['erigon_blockNumber', 1],
      ['erigon_getHeaderByNumber', 1],
      ['erigon_getHeaderByHash', 1],
      ['erigon_getBlockByTimestamp', 2],
      ['erigon_getBalanceChangesInBlock', 1],
      ['erigon_getLogsByHash', 1],
      ['erigon_getLogs', 1],
      ['erigon_getLatestLogs', 2],
      ['erigon_getBlockReceiptsByBlockHash', 1],
      ['erigon_nodeInfo', 0],
      ['erigon_cacheCheck', 0],
    ]
    const junk: unknown[] = [true, -1, 1.5, 'zz', '0x', [], [[1]], { a: { b: 1 } }, `0x${'f'.repeat(80)}`]
    let refused = 0
    for (const [method, arity] of methods) {
      const tooMany = await rpc(
        e.url,
        method,
        Array.from({ length: arity + 1 }, () => '0x1'),
      )
      expect(tooMany.error, method).toEqual({ code: -32602, message: `too many arguments, want at most ${arity}` })
      for (let position = 0; position < arity; position++) {
        for (const bad of junk) {
          const params = [
            ...Array.from({ length: position }, (_, i) => (method === 'erigon_getLatestLogs' && i === 0 ? {} : '0x1')),
            bad,
          ]
          const { result, error } = await rpc(e.url, method, params)
          const label = `${method} ${JSON.stringify(params)}`
          if (error === undefined) {
            expect(result, label).toBeDefined()
            continue
          }
          expect([-32602, -32000], label).toContain(error.code)
          if (error.code === -32602) {
            refused++
            expect(error.message, label).toMatch(new RegExp(`^(invalid argument ${position}|missing value)`))
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(40)
    expect(await rpcResult(e.url, 'erigon_blockNumber')).toBe(head.number)
  }, 60_000)
})

describe('an upstream that lies is refused', () => {
  it('a tampered header: erigon_getHeaderByNumber fails naming the block', async () => {
    const e = await env.edgeVia({
      transform: (call, result) =>
        call.method === 'eth_getBlockByNumber' && call.params[0] === '0x4'
          ? { ...(result as Block), gasUsed: flipHexDigit((result as Block).gasUsed, -1) }
          : result,
    })
    const { result, error } = await rpc(e.url, 'erigon_getHeaderByNumber', ['0x4'])
    expect(result).toBeUndefined()
    expect(error.code).toBe(-32000)
    expect(error.message).toContain('block 4')
  })

  it('tampered receipts or logs: erigon_getBlockReceiptsByBlockHash, erigon_getLogsByHash and erigon_getLatestLogs fail on receiptsRoot', async () => {
    const target = allLogs[allLogs.length - 1]!
    const e = await env.edgeVia({
      transform: (call, result) => {
        if (call.method !== 'eth_getBlockReceipts' || !Array.isArray(result)) return result
        return result.map((r: { logs: Log[] }) => ({
          ...r,
          logs: r.logs.map((l) => (l.blockHash === target.blockHash ? { ...l, data: flipHexDigit(l.data) } : l)),
        }))
      },
    })
    for (const [method, params] of [
      ['erigon_getBlockReceiptsByBlockHash', [target.blockHash]],
      ['erigon_getLogsByHash', [target.blockHash]],
      ['erigon_getLatestLogs', [{ fromBlock: '0x0', toBlock: head.number }, {}]],
      ['erigon_getLogs', [{ blockHash: target.blockHash }]],
    ] as const) {
      const { result, error } = await rpc(e.url, method, [...params])
      expect(result, method).toBeUndefined()
      expect(error.code, method).toBe(-32000)
      expect(verificationErrorText(error), method).toContain(`block ${BigInt(target.blockNumber)} ${target.blockHash}`)
      expect(error.message, method).toContain('receiptsRoot')
    }
  })
})

describe('--http.api: vendor, or erigon as its alias', () => {
  it('erigon in --http.api serves erigon_*; without either, -32601 names the flag', async () => {
    const aliased = await startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'erigon'],
    })
    try {
      expect(await rpcResult(aliased.url, 'erigon_blockNumber')).toBe(head.number)
    } finally {
      await aliased.close()
    }
    const without = await startEdgetrace({ upstream: devnet.anvil.url, port: 0, hardfork: 'prague', api: ['eth'] })
    try {
      const { error } = await rpc(without.url, 'erigon_blockNumber')
      expect(error.code).toBe(-32601)
      expect(error.message).toContain('--http.api')
      expect(await rpcResult(without.url, 'eth_blockNumber')).toBe(head.number)
    } finally {
      await without.close()
    }
  })
})

describe('on the fixture node’s execution-apis chain (a real fork schedule)', () => {
  let node: FixtureNode
  let edge: RunningEdgetrace
  let genesis: Record<string, any>
  beforeAll(async () => {
    genesis = JSON.parse(readFileSync(join(executionApis, 'genesis.json'), 'utf8'))
    node = await startFixtureNode({ genesis, blocks: new Uint8Array(readFileSync(join(executionApis, 'chain.rlp'))) })
    edge = await startEdgetrace({ upstream: node.url, port: 0, genesis: genesis as never })
  }, 120_000)
  afterAll(async () => {
    await edge?.close()
    await node?.close()
  })

  it('erigon_forks: the genesis file’s fork blocks and times as geth’s GatherForks lists them', async () => {
    const first = await rpcResult(node.url, 'eth_getBlockByNumber', ['0x0', false])
    // From genesis.json: the block forks (muirGlacier/arrowGlacier/grayGlacier and the merge netsplit
    // count as block forks; Homestead at 0 does not) and the time forks after genesis' time 0.
    expect(await rpcResult(edge.url, 'erigon_forks')).toEqual({
      genesis: first.hash,
      heightForks: [3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36],
      timeForks: [390, 420, 450, 480, 510, 540],
    })
  })

  it('erigon_getHeaderByNumber before London: the fields a later fork adds are null', async () => {
    const block = await rpcResult(node.url, 'eth_getBlockByNumber', ['0x5', false])
    const header = await rpcResult(edge.url, 'erigon_getHeaderByNumber', ['0x5'])
    expect(header.hash).toBe(block.hash)
    for (const k of [
      'baseFeePerGas',
      'withdrawalsRoot',
      'blobGasUsed',
      'excessBlobGas',
      'parentBeaconBlockRoot',
      'requestsHash',
    ])
      expect(header[k], k).toBeNull()
    const latest = await rpcResult(node.url, 'eth_getBlockByNumber', ['latest', false])
    const newest = await rpcResult(edge.url, 'erigon_getHeaderByNumber', [latest.number])
    expect(newest.hash).toBe(latest.hash)
    expect(newest.baseFeePerGas).toBe(latest.baseFeePerGas)
    expect(newest.withdrawalsRoot).toBe(latest.withdrawalsRoot)
  })

  it('erigon_getBlockByTimestamp over a chain of hundreds of seconds: the first block at or after each time', async () => {
    const latest = await rpcResult(node.url, 'eth_getBlockByNumber', ['latest', false])
    const times: bigint[] = []
    for (let n = 0; n <= Number(latest.number); n++)
      times.push(BigInt((await rpcResult(node.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).timestamp))
    for (const ts of [1n, 100n, 389n, 390n, 391n, 455n, times[times.length - 1]! - 1n]) {
      const expected = ts >= times[times.length - 1]! ? times.length - 1 : times.findIndex((t) => t >= ts)
      const got = await rpcResult(edge.url, 'erigon_getBlockByTimestamp', [ts.toString(), false])
      expect(Number(got.number), `ts ${ts}`).toBe(expected)
    }
  })
  it('erigon_getLogs, erigon_getLatestLogs and erigon_getBalanceChangesInBlock on a recorded chain', async () => {
    const latest = await rpcResult(node.url, 'eth_getBlockByNumber', ['latest', false])
    // The fixture node has no eth_getLogs: the expected logs are its receipts', block by block.
    const logs: Log[] = []
    const times = new Map<string, string>()
    for (let n = 0; n <= Number(latest.number); n++) {
      const block = await rpcResult(node.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])
      times.set(block.number, block.timestamp)
      for (const hash of block.transactions)
        logs.push(...(await rpcResult(node.url, 'eth_getTransactionReceipt', [hash])).logs)
    }
    expect(logs.length).toBeGreaterThan(0)
    const got = await rpcResult(edge.url, 'erigon_getLogs', [{}])
    expect(got.map((l: Log) => [l.transactionHash, l.logIndex, l.data, l.blockTimestamp])).toEqual(
      logs.map((l) => [l.transactionHash, l.logIndex, l.data, times.get(l.blockNumber)]),
    )
    const newest = await rpcResult(edge.url, 'erigon_getLatestLogs', [{}, { logCount: 1 }])
    expect(newest.map((l: Log) => l.transactionHash)).toEqual([logs[logs.length - 1]!.transactionHash])

    // Balance changes of the blocks with transactions, checked against the node's balances before and after.
    let checked = 0
    for (let n = Number(latest.number); n > 0 && checked < 6; n--) {
      const block = await rpcResult(node.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, true])
      if (block.transactions.length === 0) continue
      checked++
      const changes: Record<string, string> = await rpcResult(edge.url, 'erigon_getBalanceChangesInBlock', [block.hash])
      const candidates = new Set<string>([
        block.miner.toLowerCase(),
        ...block.transactions.flatMap((t: any) => [t.from, t.to].filter(Boolean).map((a: string) => a.toLowerCase())),
        ...(block.withdrawals ?? []).map((w: any) => w.address.toLowerCase()),
        ...Object.keys(changes),
      ])
      for (const address of candidates) {
        const [was, now] = await Promise.all([
          rpcResult(node.url, 'eth_getBalance', [address, `0x${(n - 1).toString(16)}`]),
          rpcResult(node.url, 'eth_getBalance', [address, block.number]),
        ])
        expect(changes[address], `${address} in block ${n}`).toBe(BigInt(was) !== BigInt(now) ? now : undefined)
      }
    }
    expect(checked).toBeGreaterThan(0)
  }, 60_000)
  it('a header with a tampered timestamp (through the fault proxy): the search fails naming the block', async () => {
    const latest = await rpcResult(node.url, 'eth_getBlockByNumber', ['latest', false])
    // The binary search over blocks 0…head reads the middle one first.
    const middle = `0x${(Number(latest.number) >> 1).toString(16)}`
    const proxy = await createProxy(node.url, {
      transform: (call, result) =>
        call.method === 'eth_getBlockByNumber' && call.params[0] === middle
          ? { ...(result as Block), timestamp: flipHexDigit((result as Block).timestamp, -1) }
          : result,
    })
    const lied = await startEdgetrace({ upstream: proxy.url, port: 0, genesis: genesis as never })
    try {
      const { result, error } = await rpc(lied.url, 'erigon_getBlockByTimestamp', ['100', false])
      expect(result).toBeUndefined()
      expect(error.code).toBe(-32000)
      expect(error.message).toContain(`block ${Number(middle)}`)
      // The same through the honest node: found.
      expect((await rpcResult(edge.url, 'erigon_getBlockByTimestamp', ['100', false])).number).toBeDefined()
    } finally {
      await lied.close()
      await proxy.stop()
    }
  })
})
