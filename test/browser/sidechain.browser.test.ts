import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { connectEdgetraceWorker } from '../../src/browser/connectEdgetraceWorker.js'
import type { EdgetraceConfig } from '../../src/browser/createEdgetraceService.js'
import { createSet, proposerOf } from '../src/borProposerModel.js'
import { BLOCKS, genesis, named, predict, snapshotJson } from '../src/borDevnet.js'
import { freshCacheName, newWorker } from './support.js'

// The sidechain namespace in the browser worker, on the tests' Bor devnet (a fixture node in Node):
// snapshots and proposers equal to the independent model's, and a snapshot kept in IndexedDB that a
// worker started later builds on instead of walking back to the genesis.
describe('sidechain in the browser worker', () => {
  let devnet: { url: string; hashes: string[] }
  let config: EdgetraceConfig
  const predicted = predict({ number: 0, set: createSet(named(0)) })
  beforeAll(async () => {
    devnet = await commands.startBorDevnet()
    config = {
      upstream: devnet.url,
      api: ['eth', 'bor'],
      genesis: genesis as never,
      cache: { name: freshCacheName('edgetrace-bor') },
    }
  }, 120_000)
  afterAll(async () => {
    if (devnet) await commands.stopBorDevnet(devnet.url)
  })

  it('answers bor_* and sidechain_* as the model predicts; a later worker starts from the snapshot IndexedDB kept', async () => {
    const first = await connectEdgetraceWorker(newWorker(), config)
    const at = (n: number) => `0x${n.toString(16)}`
    expect(await first.call('bor_getSnapshot', [at(256)])).toMatchObject({
      result: snapshotJson(256, devnet.hashes[256]!, predicted.get(256)!.after),
    })
    expect(await first.call('sidechain_getSnapshotProposer', [at(30)])).toMatchObject({
      result: proposerOf(predicted.get(29)!.after).address,
    })
    expect(await first.call('bor_getAuthor', [at(14)])).toMatchObject({ result: predicted.get(14)!.signer })
    await first.flush()
    await first.close()

    const second = await connectEdgetraceWorker(newWorker(), config)
    const before = (await second.status())!.counters
    expect(await second.call('bor_getSnapshot', [at(260)])).toMatchObject({
      result: snapshotJson(260, devnet.hashes[260]!, predicted.get(260)!.after),
    })
    const after = (await second.status())!.counters
    // The block, then one window of headers below it, where the snapshot of block 256 was found in
    // IndexedDB: not the 260 headers down to the genesis.
    expect(after.upstreamRoundTrips - before.upstreamRoundTrips).toBeLessThanOrEqual(3)
    expect(await second.call('bor_getCurrentProposer', [])).toMatchObject({
      result: proposerOf(predicted.get(BLOCKS)!.after).address,
    })
    await second.close()
  }, 120_000)
})
