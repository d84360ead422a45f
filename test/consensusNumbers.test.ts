import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PersistentStore } from '../src/state/createPersistentBacking.js'
import type { BeaconFixture } from './src/beaconFixture.js'
import type { Proxy, ProxyHooks } from './src/createProxy.js'
import { forgeBlock } from './src/forgeBlock.js'
import { memoryStore } from './src/memoryStore.js'
import { type AnvilBeacon, startAnvilBeacon } from './src/startAnvilBeacon.js'
import { startConsensusDaemon } from './src/startConsensusDaemon.js'

// Blocks asked by number under trust mode consensus: what was proven is remembered by number — in
// memory, and where the cache persists (IndexedDB in the browser; a store in memory here) — so a
// block proven once costs no round trip the next time; and a header the upstream gives for a number
// that is not the anchored chain's is refused, naming both hashes.

type Block = Record<string, string>
const HEAD = 40
const MINED = 60
const quantity = (n: number) => `0x${n.toString(16)}`

let chain: AnvilBeacon
let proxy: Proxy
let beacon: BeaconFixture
let served: AnvilBeacon['served']
let real: Block[]
/** Beacon API requests served. */
let beaconRequests = 0

beforeAll(async () => {
  chain = await startAnvilBeacon({
    mined: MINED,
    head: HEAD,
    before: async () => {
      beaconRequests++
    },
  })
  ;({ proxy, beacon, served, real } = chain)
})
afterAll(() => chain?.stop())

async function daemon(hooks: ProxyHooks = {}, persistentStore?: PersistentStore) {
  proxy.hooks = hooks
  const { call, upstream, edge } = await startConsensusDaemon({
    beacon,
    beaconUrl: served.url,
    upstreamUrl: proxy.url,
    persistentStore,
  })
  /**
   * The block asked by number, and what it cost: round trips to the execution upstream, headers asked
   * of it (by number or hash: a walk; the block's body, asked by hash with its transactions, is not
   * one), and Beacon API requests.
   */
  const byNumber = async (n: number) => {
    upstream.resetStats()
    const before = { beacon: beaconRequests, log: proxy.log.length }
    const out = await call('eth_getBlockByNumber', [quantity(n), false])
    expect(out.error).toBeUndefined()
    expect(out.result.hash).toBe(real[n]!.hash)
    const headers = proxy.log
      .slice(before.log)
      .filter(
        (c) => c.method === 'eth_getBlockByNumber' || (c.method === 'eth_getBlockByHash' && c.params[1] === false),
      )
    return { roundTrips: upstream.stats().roundTrips, headers: headers.length, beacon: beaconRequests - before.beacon }
  }
  return { call, byNumber, edge }
}

describe('blocks by number under consensus', () => {
  it('a final block proven once (and every final block the walk passed) costs no round trip again, also after a restart on the persisted cache', async () => {
    const store = memoryStore()
    const first = await daemon({}, store)
    // Block 5 from the anchored head (39) down the parent links: finalized is block 16.
    expect((await first.byNumber(5)).headers).toBeGreaterThan(30)
    expect(await first.byNumber(5)).toEqual({ roundTrips: 0, headers: 0, beacon: 0 })
    // The walk to 5 passed 6…16, final too: each was proven on the way (only block 12's body is new).
    expect(await first.byNumber(12)).toMatchObject({ headers: 0, beacon: 0 })
    await first.edge.engine.persistent?.flush()
    // A second start on the same store (a page opened again on IndexedDB): nothing is walked again.
    const second = await daemon({}, store)
    expect(await second.byNumber(5)).toMatchObject({ headers: 0, beacon: 0 })
    expect(await second.byNumber(16)).toMatchObject({ headers: 0, beacon: 0 })
  })

  it('a block above the finalized one, proven under the current head, is not walked again while that head stands', async () => {
    const { byNumber } = await daemon()
    expect((await byNumber(30)).headers).toBeGreaterThan(0)
    expect(await byNumber(30)).toEqual({ roundTrips: 0, headers: 0, beacon: 0 })
    // Its neighbours were proven on the same walk: no header is asked for (only block 33's body).
    expect(await byNumber(33)).toMatchObject({ headers: 0, beacon: 0 })
    // Below it, the walk starts from it: one header, by the hash block 30 names as its parent.
    expect((await byNumber(29)).headers).toBe(1)
  })

  it('a header the upstream gives for a number in a range, other than the anchored chain’s, is refused naming both hashes', async () => {
    const forged = forgeBlock(real[35]!, { extraData: '0x0bad' })
    const forgedHash = forged.hash!
    const { call } = await daemon({
      transform: (c, result) => (c.method === 'eth_getBlockByNumber' && c.params[0] === quantity(35) ? forged : result),
    })
    // eth_feeHistory reads the headers below the anchored head by number, each linked to the next.
    const out = await call('eth_feeHistory', ['0x8', 'latest', []])
    expect(out.result).toBeUndefined()
    expect(JSON.stringify(out.error!.data)).toContain(forgedHash)
    expect(JSON.stringify(out.error!.data)).toContain(real[35]!.hash)
  })
})
