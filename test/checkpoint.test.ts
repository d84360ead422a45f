import { memoryStore } from './src/memoryStore.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createEdgetraceService } from '../src/browser/createEdgetraceService.js'
import { createChainRules } from '../src/chain/createChainRules.js'
import { createCheckpointLinker } from '../src/chain/createCheckpointLinker.js'
import { createHeaderStore } from '../src/chain/createHeaderStore.js'
import { parseHeader } from '../src/chain/parseHeader.js'
import { createEdgetrace } from '../src/createEdgetrace.js'
import type { PersistentStore } from '../src/state/createPersistentBacking.js'
import { createLruCache } from '../src/utils/createLruCache.js'
import { createUpstream } from '../src/upstream/createUpstream.js'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type Proxy, type ProxyHooks, createProxy } from './src/createProxy.js'
import { DEV_ACCOUNT, deploy, rpc, rpcResult, storageContractInitCode } from './src/rpc.js'
import { runCli } from './src/runCli.js'

// A block asked by number or tag is the upstream's word unless a checkpoint (a block hash the user
// trusts) anchors it: then it must link to the checkpoint by parent hashes. The upstream here is a
// real anvil behind a proxy that forges headers — self-consistent ones, whose hash is recomputed as
// keccak256(RLP(header)), so only the links to the checkpoint can tell them apart.

type Block = Record<string, unknown> & { number: string; hash: string; parentHash: string }

const HEAD = 600
const CHECKPOINT = 300
const rules = createChainRules({ chainId: 31337n, hardfork: 'prague' })
const hex = (n: number) => `0x${n.toString(16)}`

let anvil: AnvilInstance
let proxy: Proxy
let contract: `0x${string}`
let real: Block[] // real[n] is anvil's block n
let edge: RunningEdgetrace | undefined

/** A different header for the same block number, hashed as parseHeader hashes it, so it is self-consistent. */
function forge(block: Block, changes: Record<string, string>): Block {
  const { hash: _claimed, ...fields } = block
  const forged = { ...fields, ...changes }
  return { ...forged, hash: parseHeader(forged, rules).hash } as Block
}

/** Every block from `from` up to the head rewritten (extraData), each naming the forged one below as its parent: another chain. */
function forgeChainFrom(from: number): { byNumber: Map<number, Block>; byHash: Map<string, Block> } {
  const byNumber = new Map<number, Block>()
  const byHash = new Map<string, Block>()
  for (let n = from; n <= HEAD; n++) {
    const parentHash = n === from ? real[n]!.parentHash : byNumber.get(n - 1)!.hash
    const forged = forge(real[n]!, { extraData: '0x0bad', parentHash })
    byNumber.set(n, forged)
    byHash.set(forged.hash, forged)
  }
  return { byNumber, byHash }
}

/** A proxy transform answering by number (and `latest`) from a forged chain, and by hash for its forged hashes. */
function serveForged(chain: {
  byNumber: Map<number, Block>
  byHash: Map<string, Block>
}): NonNullable<ProxyHooks['transform']> {
  return (call, result) => {
    if (call.method === 'eth_getBlockByNumber' && result)
      return chain.byNumber.get(Number((result as Block).number)) ?? result
    if (call.method === 'eth_getBlockByHash') return chain.byHash.get(String(call.params[0]).toLowerCase()) ?? result
    return result
  }
}

async function start(hooks: ProxyHooks, checkpoint?: string, log?: string[]) {
  proxy.hooks = hooks
  edge = await startEdgetrace({
    upstream: proxy.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'debug'],
    checkpoint,
    ...(log ? { log: (line: string) => log.push(line) } : {}),
  })
  return edge
}

/** debug_getRawHeader by number or tag, as the keccak256 of the RLP: the hash of the header edgetrace accepted. */
async function acceptedHash(e: RunningEdgetrace, block: number | string) {
  const raw = await rpcResult(e.url, 'debug_getRawHeader', [typeof block === 'number' ? hex(block) : block])
  return bytesToHex(keccak_256(hexToBytes(raw)))
}

/** What a request cost at the upstream: JSON-RPC calls and sequential round trips. */
async function cost<T>(e: RunningEdgetrace, fn: () => Promise<T>) {
  e.upstream.resetStats()
  const value = await fn()
  const { calls, roundTrips } = e.upstream.stats()
  return { value, calls, roundTrips }
}

beforeAll(async () => {
  anvil = await startAnvil()
  contract = await deploy(anvil.url, storageContractInitCode(42))
  const mined = Number(await rpcResult(anvil.url, 'eth_blockNumber'))
  await rpcResult(anvil.url, 'anvil_mine', [hex(HEAD - mined)])
  const res = await fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      Array.from({ length: HEAD + 1 }, (_, n) => ({
        jsonrpc: '2.0',
        id: n,
        method: 'eth_getBlockByNumber',
        params: [hex(n), false],
      })),
    ),
  })
  real = ((await res.json()) as { id: number; result: Block }[]).sort((a, b) => a.id - b.id).map((r) => r.result)
  expect(real.length).toBe(HEAD + 1)
  expect(Number(real[HEAD]!.number)).toBe(HEAD)
  proxy = await createProxy(anvil.url)
})
afterEach(async () => {
  await edge?.close()
  edge = undefined
})
afterAll(async () => {
  await proxy?.stop()
  await anvil?.stop()
})

describe('--checkpoint', () => {
  it('links blocks above and below the checkpoint, each stretch walked once, in batches', async () => {
    const e = await start({}, real[CHECKPOINT]!.hash)

    // Above: block 550 and its ancestors down to 301 (249 headers, one batch by number).
    const above = await cost(e, () => acceptedHash(e, 550))
    expect(above.value).toBe(real[550]!.hash)
    expect(above.calls).toBeLessThanOrEqual(250)
    expect(above.roundTrips).toBeLessThanOrEqual(2)
    // Near it: one header each, no walk (their parents, or they themselves, are linked already).
    for (const n of [551, 540]) {
      const near = await cost(e, () => acceptedHash(e, n))
      expect(near.value).toBe(real[n]!.hash)
      expect(near.calls).toBe(1)
    }
    // A tag: the head, linked down to 551 only.
    const latest = await cost(e, () => acceptedHash(e, 'latest'))
    expect(latest.value).toBe(real[HEAD]!.hash)
    expect(latest.calls).toBeLessThanOrEqual(1 + (HEAD - 551))

    // Below: the checkpoint's ancestry, followed down to block 100 (200 headers, one batch).
    const below = await cost(e, () => acceptedHash(e, 100))
    expect(below.value).toBe(real[100]!.hash)
    expect(below.calls).toBeLessThanOrEqual(200)
    expect(below.roundTrips).toBeLessThanOrEqual(1)
    // Within the walked stretch: nothing asked; one below it: one header.
    expect(await cost(e, () => acceptedHash(e, 101))).toMatchObject({ value: real[101]!.hash, calls: 0 })
    expect(await cost(e, () => acceptedHash(e, 99))).toMatchObject({ value: real[99]!.hash, calls: 1 })
    // The checkpoint itself was verified at start: no request.
    expect(await cost(e, () => acceptedHash(e, CHECKPOINT))).toMatchObject({ value: real[CHECKPOINT]!.hash, calls: 0 })
    // earliest: from block 99 down to the genesis.
    const earliest = await cost(e, () => acceptedHash(e, 'earliest'))
    expect(earliest.value).toBe(real[0]!.hash)
    expect(earliest.calls).toBeLessThanOrEqual(99)

    // Every method resolving a block goes through the same check: eth_call by number and by tag.
    const call = { from: DEV_ACCOUNT, to: contract, data: '0x' }
    const want = `0x${'2a'.padStart(64, '0')}`
    expect(await rpcResult(e.url, 'eth_call', [call, hex(HEAD - 1)])).toBe(want)
    expect(await rpcResult(e.url, 'eth_call', [call, 'latest'])).toBe(want)
  })

  it('refuses a block forged by tag below the checkpoint, naming block, hash and checkpoint; without a checkpoint it is accepted', async () => {
    const forged = forge(real[100]!, { stateRoot: real[99]!.stateRoot as string })
    const hooks: ProxyHooks = {
      transform: (c, result) => (c.method === 'eth_getBlockByNumber' && c.params[0] === 'finalized' ? forged : result),
    }
    const e = await start(hooks, real[CHECKPOINT]!.hash)
    const { error } = await rpc(e.url, 'debug_getRawHeader', ['finalized'])
    expect(error).toMatchObject({ code: -32000 })
    expect(error.message).toBe(
      `block 100 ${forged.hash} does not link to the checkpoint ${real[CHECKPOINT]!.hash} (block ${CHECKPOINT}): the checkpoint's chain has ${real[100]!.hash} at block 100`,
    )
    // The server keeps serving, and block 100 by number is the real one.
    expect(await acceptedHash(e, 100)).toBe(real[100]!.hash)
    await e.close()

    // The gap a checkpoint closes: without one, the forgery is taken as block 100.
    const open = await start(hooks)
    expect(await acceptedHash(open, 'finalized')).toBe(forged.hash)
  })

  it('never serves a block forged by number below the checkpoint: refused on the walk, fetched by hash', async () => {
    const forged = forge(real[200]!, { extraData: '0x0bad' })
    const hooks: ProxyHooks = {
      transform: (c, result) => (c.method === 'eth_getBlockByNumber' && c.params[0] === hex(200) ? forged : result),
    }
    const log: string[] = []
    const e = await start(hooks, real[CHECKPOINT]!.hash, log)
    expect(await acceptedHash(e, 200)).toBe(real[200]!.hash)
    expect(log.join('\n')).toContain(
      `checkpoint: 1 headers the upstream gave by number are not the ancestors of the checkpoint ${real[CHECKPOINT]!.hash} (block ${CHECKPOINT}); fetched by hash instead`,
    )
    await e.close()

    const open = await start(hooks)
    expect(await acceptedHash(open, 200)).toBe(forged.hash)
  })

  it('refuses another chain forked below the checkpoint, by number and by tag, in every method', async () => {
    const chain = forgeChainFrom(250)
    const e = await start({ transform: serveForged(chain) }, real[CHECKPOINT]!.hash)
    const checkpoint = `the checkpoint ${real[CHECKPOINT]!.hash} (block ${CHECKPOINT})`
    const ancestor = `its ancestor at block ${CHECKPOINT} is ${chain.byNumber.get(CHECKPOINT)!.hash}`
    for (const [block, n] of [
      [hex(550), 550],
      ['latest', HEAD],
    ] as const) {
      const { error } = await rpc(e.url, 'debug_getRawHeader', [block])
      expect(error).toMatchObject({
        code: -32000,
        message: `block ${n} ${chain.byNumber.get(n)!.hash} does not link to ${checkpoint}: ${ancestor}`,
      })
    }
    const { error } = await rpc(e.url, 'eth_call', [{ from: DEV_ACCOUNT, to: contract, data: '0x' }, 'latest'])
    expect(error.message).toContain(`block ${HEAD} ${chain.byNumber.get(HEAD)!.hash} does not link to ${checkpoint}`)
    // Below the checkpoint, inside the forged stretch: the checkpoint's own ancestor is served.
    expect(await acceptedHash(e, 280)).toBe(real[280]!.hash)
    // By hash, the user's own anchor, no walk: the real block is there.
    expect((await rpc(e.url, 'debug_getRawHeader', [real[550]!.hash])).result).toBeDefined()
    await e.close()

    const open = await start({ transform: serveForged(chain) })
    expect(await acceptedHash(open, 550)).toBe(chain.byNumber.get(550)!.hash)
    expect(await acceptedHash(open, 'latest')).toBe(chain.byNumber.get(HEAD)!.hash)
  })

  it('documents its limit: a block made up on top of the real chain, above the checkpoint, links like the real one', async () => {
    // Nothing short of a consensus check can tell them apart: its parent is the real block 599.
    const forged = forge(real[HEAD]!, { stateRoot: real[HEAD - 1]!.stateRoot as string })
    const e = await start(
      { transform: (c, result) => (c.method === 'eth_getBlockByNumber' && c.params[0] === 'latest' ? forged : result) },
      real[CHECKPOINT]!.hash,
    )
    expect(await acceptedHash(e, 'latest')).toBe(forged.hash)
  })

  it('fails at start on a checkpoint the upstream does not know', async () => {
    const unknown = `0x${'ab'.repeat(32)}`
    proxy.hooks = {}
    await expect(
      startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague', checkpoint: unknown }),
    ).rejects.toThrow(`checkpoint ${unknown}: the upstream does not know this block`)
  })

  it('takes `checkpoint` in the browser config, and refuses a malformed one naming the field (-32602)', async () => {
    await expect(
      createEdgetraceService({ upstream: anvil.url, hardfork: 'prague', checkpoint: '0x1234' }),
    ).rejects.toMatchObject({
      code: -32602,
      shortMessage: 'invalid config.checkpoint: expected a block hash (0x and 64 hex digits), got "0x1234"',
    })
    await expect(
      createEdgetraceService({ upstream: anvil.url, hardfork: 'prague', checkpoint: `0x${'cd'.repeat(32)}` }),
    ).rejects.toThrow('the upstream does not know this block')
    proxy.hooks = { transform: serveForged(forgeChainFrom(250)) }
    const service = await createEdgetraceService({
      upstream: proxy.url,
      hardfork: 'prague',
      api: ['eth', 'debug'],
      checkpoint: real[CHECKPOINT]!.hash,
    })
    try {
      const out = (await service.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'debug_getRawHeader',
        params: [hex(550)],
      })) as { error?: { code: number; message: string } }
      expect(out.error).toMatchObject({ code: -32000 })
      expect(out.error!.message).toContain(`does not link to the checkpoint ${real[CHECKPOINT]!.hash}`)
    } finally {
      await service.close()
    }
  })
})

describe('checkpoint walks far from the blocks asked', () => {
  // Walks longer than the hashes kept in full (4,096; 64 here, so that anvil need not mine thousands of
  // blocks): beyond them one hash every 256 blocks (32 here) is kept, and a later request starts from the
  // nearest of those instead of walking again from afar. The linker is driven directly, on a header store
  // without a checkpoint of its own for its fetches by hash.
  function linkerOn(checkpoint: number) {
    const upstream = createUpstream({ url: anvil.url })
    const cache = createLruCache(64 * 1024 * 1024)
    const store = createHeaderStore({ upstream, rules, cache })
    const linker = createCheckpointLinker({
      checkpoint: real[checkpoint]!.hash,
      upstream,
      rules,
      cache,
      byHash: store.byHash,
      keep: (h) => cache.set(`h:${h.hash}`, h, 2048),
      reorgDepth: 64,
      dense: 64,
      anchorEvery: 32n,
    })
    const spent = async <T>(fn: () => Promise<T>) => {
      upstream.resetStats()
      const value = await fn()
      return { value, calls: upstream.stats().calls }
    }
    return { linker, spent, close: () => upstream.close() }
  }
  const header = (n: number) => parseHeader(real[n]!, rules)

  it('above: a block far below the head links at the nearest kept hash, not at the checkpoint', async () => {
    const { linker, spent, close } = linkerOn(100)
    try {
      expect((await spent(() => linker.link(header(HEAD)))).calls).toBeLessThanOrEqual(1 + (HEAD - 101))
      // Within the hashes kept in full: nothing to ask.
      expect((await spent(() => linker.link(header(HEAD - 40)))).calls).toBe(0)
      // Beyond them: linked at block 288 (12 headers), not at the checkpoint (200).
      expect((await spent(() => linker.link(header(301)))).calls).toBeLessThanOrEqual(12)
      // A block of another chain still fails there.
      const other = forgeChainFrom(90).byNumber.get(301)!
      await expect(linker.link(parseHeader(other, rules))).rejects.toThrow(
        `block 301 ${other.hash} does not link to the checkpoint ${real[100]!.hash} (block 100)`,
      )
    } finally {
      await close()
    }
  })

  it("below: the checkpoint's ancestry, once walked, is found again from the nearest kept hash", async () => {
    const { linker, spent, close } = linkerOn(500)
    try {
      expect(await spent(() => linker.hashAt(0n))).toMatchObject({ value: real[0]!.hash })
      // Far from both ends of that walk: followed down from the hash kept at block 416 (its header by hash,
      // then 16 by number), not from 500 (100).
      expect(await spent(() => linker.hashAt(400n))).toMatchObject({ value: real[400]!.hash, calls: 17 })
      // Next to the block asked before: kept in full.
      expect(await spent(() => linker.hashAt(10n))).toMatchObject({ value: real[10]!.hash, calls: 0 })
    } finally {
      await close()
    }
  })
})

describe('checkpoint with a persistent cache (as in the browser)', () => {
  async function daemonOn(url: string, persistentStore: PersistentStore, checkpoint?: string) {
    const upstream = createUpstream({ url })
    const daemon = await createEdgetrace({
      upstream,
      hardfork: 'prague',
      api: ['eth', 'debug'],
      persistentStore,
      checkpoint,
    })
    const rawHeader = async (block: string) => {
      const out = JSON.parse(
        (await daemon.handler.handleText(
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_getRawHeader', params: [block] }),
        ))!,
      )
      return bytesToHex(keccak_256(hexToBytes(out.result)))
    }
    return {
      daemon,
      upstream,
      rawHeader,
      close: async () => {
        await daemon.engine.persistent?.flush()
        await upstream.close()
      },
    }
  }

  it('never trusts a number → hash kept without the checkpoint; after a restart, finds what it linked before', async () => {
    const store = memoryStore()
    // A first run without a checkpoint, through an upstream forging block 200: the forgery is kept as block 200.
    const forged = forge(real[200]!, { extraData: '0x0bad' })
    proxy.hooks = {
      transform: (c, result) => (c.method === 'eth_getBlockByNumber' && c.params[0] === hex(200) ? forged : result),
    }
    const open = await daemonOn(proxy.url, store)
    await open.rawHeader('latest')
    expect(await open.rawHeader(hex(200))).toBe(forged.hash)
    await open.close()

    // With a checkpoint, on the same store: block 200 is the checkpoint's ancestor, not what was kept.
    const first = await daemonOn(anvil.url, store, real[CHECKPOINT]!.hash)
    expect(await first.rawHeader(hex(200))).toBe(real[200]!.hash)
    expect(await first.rawHeader('latest')).toBe(real[HEAD]!.hash)
    await first.close()

    // A restart: block 200 from the store, and the head links at the first final block linked before
    // (one batch), not at the checkpoint (300 headers).
    const second = await daemonOn(anvil.url, store, real[CHECKPOINT]!.hash)
    second.upstream.resetStats()
    expect(await second.rawHeader(hex(200))).toBe(real[200]!.hash)
    expect(second.upstream.stats().calls).toBe(0)
    expect(await second.rawHeader('latest')).toBe(real[HEAD]!.hash)
    expect(second.upstream.stats().calls).toBeLessThanOrEqual(1 + 256)
    await second.close()
  })
})

describe('--checkpoint on the command line', () => {
  it('refuses a value that is not a block hash', async () => {
    const run = await runCli(['--upstream', anvil.url, '--checkpoint', '300'], /never/)
    expect(run.code).toBe(1)
    expect(run.output).toContain('--checkpoint expects a block hash (0x and 64 hex digits), got "300"')
  })

  it("names the checkpoint in the banner; without one, says blocks by number are the upstream's word", async () => {
    const anchored = await runCli(
      ['--upstream', anvil.url, '--hardfork', 'prague', '--http.port', '0', '--checkpoint', real[CHECKPOINT]!.hash],
      /listening/,
    )
    anchored.kill()
    expect(anchored.output).toContain(
      `trust:      checkpoint — blocks asked by number or tag must link by parent hashes to the checkpoint ${real[CHECKPOINT]!.hash} (block ${CHECKPOINT})`,
    )
    const open = await runCli(['--upstream', anvil.url, '--hardfork', 'prague', '--http.port', '0'], /listening/)
    open.kill()
    expect(open.output).toContain(
      "trust:      upstream — blocks asked by number or tag are the upstream's word (no --beacon.upstream or --checkpoint given)",
    )
  })
})
