import { clear, createStore, keys, set } from 'idb-keyval'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { type EdgetraceClient, EdgetraceStartError } from '../../src/browser/connectEdgetraceWorker.js'
import { BEACON_PINS_DATABASE } from '../../src/browser/createBeaconPins.js'
import type { EdgetraceConfig } from '../../src/browser/createEdgetraceService.js'
import { createEip1193Provider } from '../../src/browser/createEip1193Provider.js'
import { registerEdgetraceServiceWorker } from '../../src/browser/registerEdgetraceServiceWorker.js'
import { createChainRules } from '../../src/chain/createChainRules.js'
import { parseHeader } from '../../src/chain/parseHeader.js'
import type { BeaconChainInfo } from './beaconChainCommands.js'
import { genesis as borGenesis } from '../src/borDevnet.js'
import { anvilResult, configFor, env, serviceWorkerScript, startWorker } from './support.js'

// The consensus light client in the browser: a worker (and the service worker) started with
// `beacon` resolves every tag and number through the beacon chain's sync committee — here the
// fixture beacon chain (test/src/beaconFixture.ts), served over HTTP with CORS, whose slot s carries
// anvil's block s. anvil has mined 160 blocks; the beacon chain's head is slot 40, so its optimistic
// head is anvil's block 39 and its finalized block 16: anvil's own latest is never served.

const HEAD = 40
let chain: BeaconChainInfo
const pins = () => createStore(BEACON_PINS_DATABASE, 'pins')

beforeAll(async () => {
  chain = await commands.startBeaconChain(HEAD)
}, 120_000)
afterAll(async () => {
  if (chain) await commands.stopBeaconChain(chain.beaconUrl)
})
beforeEach(async () => {
  await clear(pins())
  await commands.setBeaconChain(chain.beaconUrl, { head: HEAD, lie: null, forgeExecution: false, hang: false })
  await commands.takeBeaconRequests(chain.beaconUrl)
})

const consensusConfig = (
  beacon: NonNullable<EdgetraceConfig['beacon']>,
  more: Partial<EdgetraceConfig> = {},
): EdgetraceConfig => configFor({ upstream: chain.anvilUrl, beacon, workers: 0, ...more })
const quantity = (n: number) => `0x${n.toString(16)}`
/** The roots whose bootstrap the browser asked the beacon node for since the last look. */
const bootstraps = async () =>
  (await commands.takeBeaconRequests(chain.beaconUrl))
    .filter((p) => p.startsWith('/eth/v1/beacon/light_client/bootstrap/'))
    .map((p) => p.split('/').at(-1))
async function result(client: EdgetraceClient, method: string, params: unknown[] = []): Promise<any> {
  const res = await client.call(method, params)
  if ('error' in res) throw new Error(`${method}: ${res.error.message}`)
  return res.result
}
/** Asks until the answer is `want` (the light client follows the beacon chain on the next slot, 6 s). */
async function until<T>(ask: () => Promise<T>, want: (got: T) => boolean, ms = 15_000): Promise<T> {
  let got = await ask()
  for (const end = Date.now() + ms; !want(got) && Date.now() < end; ) {
    await new Promise((r) => setTimeout(r, 250))
    got = await ask()
  }
  return got
}

describe('the worker with a beacon node: every block through consensus', () => {
  it("answers in mode consensus: tags are the beacon chain's blocks, not anvil's own latest", async () => {
    const client = await startWorker(consensusConfig({ url: chain.beaconUrl, checkpoint: chain.roots[8]! }))
    try {
      expect(await anvilResult(chain.anvilUrl, 'eth_blockNumber', [])).toBe(quantity(160))
      expect(await result(client, 'eth_blockNumber')).toBe(quantity(39))
      expect((await result(client, 'eth_getBlockByNumber', ['latest', false])).hash).toBe(chain.hashes[39])
      expect((await result(client, 'eth_getBlockByNumber', ['finalized', false])).hash).toBe(chain.hashes[16])
      expect((await result(client, 'eth_getBlockByNumber', ['safe', false])).hash).toBe(chain.hashes[16])
      expect((await result(client, 'eth_getBlockByNumber', ['0x5', false])).hash).toBe(chain.hashes[5])
      expect(await result(client, 'edgetrace_trust')).toEqual({
        mode: 'consensus',
        checkpoint: chain.roots[8],
        trustedOnFirstUse: false,
        beaconNode: chain.beaconUrl,
        finalized: { slot: '0x10', beaconRoot: chain.roots[16], blockNumber: '0x10', blockHash: chain.hashes[16] },
        optimistic: { slot: '0x27', beaconRoot: chain.roots[39], blockNumber: '0x27', blockHash: chain.hashes[39] },
        syncCommitteePeriod: '0x0',
        participation: { signed: 32, of: 32 },
      })
    } finally {
      await client.close()
    }
  })

  it('an execution upstream serving a block of its own making (one field changed, its hash recomputed) is refused, naming both hashes', async () => {
    const client = await startWorker(
      consensusConfig({ url: chain.beaconUrl, checkpoint: chain.roots[8]! }, { upstream: chain.forgingUrl }),
    )
    try {
      await commands.setBeaconChain(chain.beaconUrl, { forgeExecution: true })
      // What the forging upstream answers for block 39: the same block, another state root, its hash recomputed.
      const { hash: _real, ...fields } = await anvilResult(chain.anvilUrl, 'eth_getBlockByNumber', ['0x27', false])
      const forged = parseHeader(
        { ...fields, stateRoot: `0x${'ab'.repeat(32)}` },
        createChainRules({ chainId: 31337n, hardfork: 'prague' }),
      ).hash
      for (const params of [
        ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'latest'],
        ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0x27'],
      ]) {
        const answer = await client.call('eth_getBalance', params)
        expect('error' in answer && JSON.stringify(answer.error)).toContain(chain.hashes[39])
        expect('error' in answer && JSON.stringify(answer.error)).toContain(forged)
      }
    } finally {
      await client.close()
    }
  })

  it('a bad beacon config is refused at start, naming the field', async () => {
    const refused = async (config: EdgetraceConfig) => {
      const err = (await startWorker(config).then(
        (c) => c.close(),
        (e: unknown) => e,
      )) as EdgetraceStartError
      expect(err).toBeInstanceOf(EdgetraceStartError)
      expect(err.error.code).toBe(-32602)
      return err.message
    }
    expect(await refused(consensusConfig({ url: 'ftp://beacon.example' }))).toMatch(/invalid config\.beacon\.url/)
    expect(await refused(consensusConfig({ url: chain.beaconUrl, checkpoint: '0x1234' }))).toMatch(
      /invalid config\.beacon\.checkpoint: expected a beacon block root/,
    )
    expect(await refused(consensusConfig('nope' as never))).toMatch(/invalid config\.beacon:/)
    expect(await refused(consensusConfig({ url: chain.beaconUrl }, { checkpoint: chain.hashes[10]! }))).toMatch(
      /invalid config\.checkpoint: expected no execution block hash with config\.beacon/,
    )
  })

  const lies: [lie: string, head: number, words: RegExp][] = [
    ['signature', HEAD, /signature does not verify/],
    ['participation', HEAD, /8 of 32 of the sync committee signed/],
    ['finality branch', HEAD, /finality branch does not verify/],
    ['execution branch', HEAD, /execution branch does not verify/],
    ['fork', HEAD, /signed under deneb's fork version where electra is in force/],
    // Two periods on: the updates endpoint is asked, and its answer is attested in the wrong period.
    ['period', 148, /asked for the update of period 0, the beacon node gave one attested in period 1/],
  ]
  for (const [lie, head, words] of lies) {
    it(`a beacon node lying by its ${lie} fails the start, naming it`, async () => {
      await commands.setBeaconChain(chain.beaconUrl, { head, lie: lie as never })
      const err = (await startWorker(consensusConfig({ url: chain.beaconUrl, checkpoint: chain.roots[8]! })).then(
        (c) => c.close(),
        (e: unknown) => e,
      )) as EdgetraceStartError
      expect(err).toBeInstanceOf(EdgetraceStartError)
      expect(err.message).toMatch(words)
      // Nothing that did not verify is pinned.
      expect(await keys(pins())).toEqual([])
    })
  }

  it('a beacon node that starts lying later fails the answers, naming the check, and never serves the old head as current', async () => {
    const client = await startWorker(consensusConfig({ url: chain.beaconUrl, checkpoint: chain.roots[8]! }))
    try {
      expect(await result(client, 'eth_blockNumber')).toBe(quantity(39))
      await commands.setBeaconChain(chain.beaconUrl, { head: HEAD + 4, lie: 'signature' })
      const answer = await until(
        () => client.call('eth_blockNumber', []),
        (r) => 'error' in r,
      )
      expect('error' in answer && answer.error).toMatchObject({
        code: -32000,
        message: expect.stringMatching(/light client: signature does not verify/),
        data: { check: 'signature' },
      })
      // Honest again: it follows the head.
      await commands.setBeaconChain(chain.beaconUrl, { lie: null })
      expect(await result(client, 'eth_blockNumber')).toBe(quantity(HEAD + 3))
    } finally {
      await client.close()
    }
  })

  it('a beacon node that stops answering costs a request its timeout, and the next one syncs afresh once it is back', async () => {
    const client = await startWorker(
      consensusConfig({ url: chain.beaconUrl, checkpoint: chain.roots[8]! }, { engine: { evmTimeoutMs: 2000 } }),
    )
    try {
      expect(await result(client, 'eth_blockNumber')).toBe(quantity(39))
      await commands.setBeaconChain(chain.beaconUrl, { head: HEAD + 4, hang: true })
      // Within a slot the head is asked again, and the beacon node never answers: the request times out.
      const stuck = await until(
        () => client.call('eth_blockNumber', []),
        (r) => 'error' in r,
      )
      expect('error' in stuck && stuck.error.message).toMatch(/timeout|2000 ms|2 s/i)
      // Back: the next request does not wait on the sync that hung (given up with its request).
      await commands.setBeaconChain(chain.beaconUrl, { hang: false })
      const started = performance.now()
      expect(await result(client, 'eth_blockNumber')).toBe(quantity(HEAD + 3))
      expect(performance.now() - started).toBeLessThan(1500)
    } finally {
      await client.close()
    }
  })

  it("the EIP-1193 provider's eth_blockNumber is the anchored head, and follows it", async () => {
    const provider = createEip1193Provider(
      await startWorker(consensusConfig({ url: chain.beaconUrl, checkpoint: chain.roots[8]! })),
    )
    try {
      expect(await provider.request({ method: 'eth_blockNumber' })).toBe(quantity(39))
      expect(
        ((await provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as any).hash,
      ).toBe(chain.hashes[39])
      await commands.setBeaconChain(chain.beaconUrl, { head: HEAD + 4 })
      expect(
        await until(
          () => provider.request({ method: 'eth_blockNumber' }),
          (n) => n === quantity(HEAD + 3),
        ),
      ).toBe(quantity(HEAD + 3))
    } finally {
      await provider.close()
    }
  })

  it("newHeads through the provider follow the anchored head: the blocks consensus moved over, none of anvil's beyond", async () => {
    const provider = createEip1193Provider(
      await startWorker(consensusConfig({ url: chain.beaconUrl, checkpoint: chain.roots[8]! })),
    )
    const heads: { number: string; hash: string }[] = []
    provider.on('message', (m) => {
      if (m.type === 'eth_subscription') heads.push((m.data as { result: { number: string; hash: string } }).result)
    })
    try {
      const id = await provider.request({ method: 'eth_subscribe', params: ['newHeads'] })
      await commands.setBeaconChain(chain.beaconUrl, { head: HEAD + 4 })
      await until(
        async () => heads.length,
        () => heads.at(-1)?.number === quantity(HEAD + 3),
      )
      expect(heads.at(-1)).toMatchObject({ number: quantity(HEAD + 3), hash: chain.hashes[HEAD + 3] })
      for (const h of heads) {
        expect(Number(h.number)).toBeLessThanOrEqual(HEAD + 3)
        expect(h.hash).toBe(chain.hashes[Number(h.number)])
      }
      expect(await provider.request({ method: 'eth_unsubscribe', params: [id] })).toBe(true)
    } finally {
      await provider.close()
    }
  })
})

describe('range workers under consensus', () => {
  it("a long range fans out to Web Workers, resolving blocks through the starting daemon's light client (one bootstrap)", async () => {
    // Head 100: blocks 1…99 anchored, past the fan-out threshold (64 blocks); finalized slot 80.
    await commands.setBeaconChain(chain.beaconUrl, { head: 100 })
    const beacon = { url: chain.beaconUrl, checkpoint: chain.roots[8]! }
    const alone = await startWorker(consensusConfig(beacon, { api: ['eth', 'debug', 'trace'] }))
    const pooled = await startWorker(consensusConfig(beacon, { api: ['eth', 'debug', 'trace'], workers: 1 }))
    try {
      const params = ['0x2', quantity(99)]
      const a = await alone.call('debug_getModifiedAccountsByNumber', params)
      const before = (await pooled.status())!.upstreamRequests
      const b = await pooled.call('debug_getModifiedAccountsByNumber', params)
      expect('result' in a && a.result !== null).toBe(true)
      expect(b).toEqual(a)
      // The pool's worker replayed the blocks: this daemon itself asked next to nothing.
      expect((await pooled.status())!.upstreamRequests - before).toBeLessThan(10)
      // The latest block is the anchored head's, whatever anvil has (160 blocks).
      const past = await pooled.call('debug_getModifiedAccountsByNumber', ['0x2', quantity(120)])
      expect('error' in past && past.error.message).toBe('end block (120) is later than the latest block (99)')
      // The first worker bootstrapped from the checkpoint; the second from slot 80, the newest
      // finalized block verified and pinned. Its pool worker asked the second's anchor: no bootstrap.
      expect(await bootstraps()).toEqual([chain.roots[8], chain.roots[80]])
    } finally {
      await alone.close()
      await pooled.close()
    }
  }, 120_000)
})

describe('JavaScript tracers under consensus', () => {
  it("a JavaScript tracer runs on a hardened Web Worker anchored by the starting daemon's light client", async () => {
    const client = await startWorker(
      consensusConfig({ url: chain.beaconUrl, checkpoint: chain.roots[8]! }, { api: ['eth', 'debug'] }),
    )
    try {
      const tracer = '{ fault: function() {}, result: function(ctx) { return ctx.block } }'
      const call = {
        from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      }
      const traced = await client.call('debug_traceCall', [call, 'latest', { tracer }])
      // Traced on the anchored head's block (39), not anvil's latest (160).
      expect(traced).toMatchObject({ result: 39 })
      // The hardened worker asked the daemon's anchor: one light client, one bootstrap.
      expect(await bootstraps()).toEqual([chain.roots[8]])
    } finally {
      await client.close()
    }
  })
})

describe('the checkpoint and the store in IndexedDB', () => {
  it('a second page starts from the anchor the first one verified, not from the checkpoint again', async () => {
    const config = consensusConfig({ url: chain.beaconUrl, checkpoint: chain.roots[8]! })
    const [first, second] = await commands.runInFreshPageTwice(
      location.origin,
      config,
      [
        { method: 'eth_blockNumber', params: [] },
        { method: 'edgetrace_trust', params: [] },
      ],
      env().bundles.worker,
    )
    // The first page bootstrapped from the checkpoint (slot 8), the reloaded one from slot 16, the
    // newest finalized block the first verified.
    expect(await bootstraps()).toEqual([chain.roots[8], chain.roots[16]])
    for (const run of [first, second]) {
      expect(run.answers[0]!.result).toBe(quantity(39))
      expect(run.answers[1]!.result).toMatchObject({
        mode: 'consensus',
        checkpoint: chain.roots[8],
        trustedOnFirstUse: false,
      })
    }
  })

  it('the newest finalized block is stored as the client advances, and the next start bootstraps from it', async () => {
    const config = consensusConfig({ url: chain.beaconUrl, checkpoint: chain.roots[8]! })
    const client = await startWorker(config)
    try {
      await commands.setBeaconChain(chain.beaconUrl, { head: 56 })
      expect(
        await until(
          () => result(client, 'eth_blockNumber'),
          (n) => n === quantity(55),
        ),
      ).toBe(quantity(55))
      expect((await result(client, 'edgetrace_trust')).finalized.slot).toBe(quantity(32))
    } finally {
      await client.close()
    }
    expect(await bootstraps()).toEqual([chain.roots[8]])
    const again = await startWorker(config)
    try {
      expect(await result(again, 'eth_blockNumber')).toBe(quantity(55))
      expect(await bootstraps()).toEqual([chain.roots[32]])
    } finally {
      await again.close()
    }
  })

  it("without a checkpoint the beacon node's finalized root is trusted on first use and pinned; a given checkpoint replaces the pin", async () => {
    const tofu = consensusConfig({ url: chain.beaconUrl })
    const finalizedAsked = (paths: string[]) => paths.filter((p) => p === '/eth/v1/beacon/headers/finalized').length
    // First use: the beacon node's finalized block (slot 24 at head 40) is taken, and said so.
    let client = await startWorker(tofu)
    try {
      expect(await result(client, 'edgetrace_trust')).toMatchObject({
        checkpoint: chain.roots[24],
        trustedOnFirstUse: true,
        finalized: { slot: quantity(24) },
      })
      expect(await result(client, 'eth_blockNumber')).toBe(quantity(39))
    } finally {
      await client.close()
    }
    let asked = await commands.takeBeaconRequests(chain.beaconUrl)
    expect(finalizedAsked(asked)).toBe(1)
    // Later starts keep the pin: the beacon node's word on its finalized root is not asked again.
    client = await startWorker(tofu)
    try {
      expect(await result(client, 'edgetrace_trust')).toMatchObject({
        checkpoint: chain.roots[24],
        trustedOnFirstUse: true,
      })
    } finally {
      await client.close()
    }
    asked = await commands.takeBeaconRequests(chain.beaconUrl)
    expect(finalizedAsked(asked)).toBe(0)
    // A checkpoint given replaces the pin, and is no longer a first use.
    client = await startWorker(consensusConfig({ url: chain.beaconUrl, checkpoint: chain.roots[8]! }))
    await client.close()
    expect(await bootstraps()).toEqual([chain.roots[8]])
    client = await startWorker(tofu)
    try {
      expect(await result(client, 'edgetrace_trust')).toMatchObject({
        checkpoint: chain.roots[8],
        trustedOnFirstUse: false,
      })
    } finally {
      await client.close()
    }
    asked = await commands.takeBeaconRequests(chain.beaconUrl)
    expect(finalizedAsked(asked)).toBe(0)
    expect(asked.filter((p) => p.includes('/bootstrap/')).map((p) => p.split('/').at(-1))).toEqual([chain.roots[16]])
  })

  it('a pinned checkpoint the beacon node no longer serves fails the start, naming it, since when, and the config field to give', async () => {
    const genesis = await (await fetch(`${chain.beaconUrl}/eth/v1/beacon/genesis`)).json()
    const gone = `0x${'5a'.repeat(32)}`
    await set(
      genesis.data.genesis_validators_root,
      { checkpoint: gone, source: 'config', pinnedAt: '2026-01-02T03:04:05.000Z' },
      pins(),
    )
    const err = (await startWorker(consensusConfig({ url: chain.beaconUrl })).then(
      (c) => c.close(),
      (e: unknown) => e,
    )) as EdgetraceStartError
    expect(err).toBeInstanceOf(EdgetraceStartError)
    expect(err.message).toContain(
      `serves no light-client bootstrap for the checkpoint ${gone} (pinned since 2026-01-02T03:04:05.000Z)`,
    )
    expect(err.message).toContain('give a recent finalized root with config.beacon.checkpoint (it replaces the pin)')
    expect(err.message).not.toContain('--checkpoint')
  })

  it('the service worker answers through consensus too, and starts again from the stored anchor', async () => {
    const config = {
      ...consensusConfig({ url: chain.beaconUrl, checkpoint: chain.roots[8]! }),
      path: '/rpc-consensus',
    }
    const register = () =>
      registerEdgetraceServiceWorker({
        ...serviceWorkerScript(),
        config,
      })
    const call = async (url: string, method: string) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
      })
      return (await res.json()).result
    }
    const sw = await register()
    try {
      expect(await call(sw.url, 'eth_blockNumber')).toBe(quantity(39))
      expect(await call(sw.url, 'edgetrace_trust')).toMatchObject({ mode: 'consensus', checkpoint: chain.roots[8] })
      expect(await bootstraps()).toEqual([chain.roots[8]])
      // Configured again (a new daemon inside it): it resumes from what it verified.
      const again = await register()
      expect(await call(again.url, 'eth_blockNumber')).toBe(quantity(39))
      expect(await bootstraps()).toEqual([chain.roots[16]])
    } finally {
      await sw.unregister()
    }
  })
})

describe('which beacon chain, and how old a checkpoint', () => {
  const startRefused = async (config: EdgetraceConfig) =>
    (await startWorker(config).then(
      (c) => c.close(),
      (e: unknown) => e,
    )) as EdgetraceStartError

  it('a root older than the weak-subjectivity bound (14 days) is refused, saying its age and how to force it', async () => {
    // The beacon clock 16 days past slot 0: every root of this chain is that old.
    const old = await commands.startBeaconChain(HEAD, { clockSlot: 230_000 })
    try {
      const beacon = { url: old.beaconUrl, checkpoint: old.roots[8]! }
      const err = await startRefused(configFor({ upstream: old.anvilUrl, beacon, workers: 0 }))
      expect(err).toBeInstanceOf(EdgetraceStartError)
      expect(err.message).toMatch(
        /the checkpoint 0x[0-9a-f]{64} \(slot 8\) is 15 days old, beyond the weak-subjectivity period \(14 days\).*config\.beacon\.checkpoint.*config\.beacon\.force: true/,
      )
      expect(await keys(pins())).toEqual([])
      const forced = await startWorker(
        configFor({ upstream: old.anvilUrl, beacon: { ...beacon, force: true }, workers: 0 }),
      )
      try {
        expect(await result(forced, 'eth_blockNumber')).toBe(quantity(39))
      } finally {
        await forced.close()
      }
    } finally {
      await commands.stopBeaconChain(old.beaconUrl)
    }
  })

  it("a known network's beacon node must be of that chain: mainnet's execution chain under another beacon chain is refused, naming both roots", async () => {
    const other = await commands.startBeaconChain(HEAD, { chainId: 1 })
    try {
      const err = await startRefused(
        configFor({ upstream: other.anvilUrl, beacon: { url: other.beaconUrl }, workers: 0 }),
      )
      expect(err).toBeInstanceOf(EdgetraceStartError)
      expect(err.message).toMatch(
        /config\.beacon\.url: the beacon node .* serves another chain than mainnet: its genesis validators root is 0x[0-9a-f]{64}, mainnet's is 0x4b363db94e286120d76eb905340fdd4e54bfe9f06bf33ff6cf5ad27f511bfe95/,
      )
      // Nothing was asked of it past its genesis: no finalized root taken, nothing pinned.
      expect(await commands.takeBeaconRequests(other.beaconUrl)).toEqual(['/eth/v1/beacon/genesis'])
      expect(await keys(pins())).toEqual([])
    } finally {
      await commands.stopBeaconChain(other.beaconUrl)
    }
  })

  it('a Bor chain takes no beacon node (its blocks are sealed by its validator set)', async () => {
    const bor = await commands.startBorDevnet()
    try {
      const err = await startRefused({
        upstream: bor.url,
        api: ['eth'],
        genesis: borGenesis as never,
        beacon: { url: chain.beaconUrl },
        cache: false,
        workers: 0,
      })
      expect(err).toBeInstanceOf(EdgetraceStartError)
      expect(err.error.code).toBe(-32602)
      expect(err.message).toMatch(/invalid config\.beacon: Bor chain \d+'s blocks are sealed by its validator set/)
    } finally {
      await commands.stopBorDevnet(bor.url)
    }
  })
})
