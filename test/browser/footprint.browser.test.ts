import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { connectEdgetraceWorker } from '../../src/browser/connectEdgetraceWorker.js'
import type { EdgetraceConfig } from '../../src/browser/createEdgetraceService.js'
import { encodeCall } from '../../src/node/devnet/abi.js'
import { type DevnetInfo, anvilResult, freshCacheName, newWorker } from './support.js'

// A call's footprint kept in IndexedDB: a page opened later, at a later block, asks for everything
// the same function read last time in its first round trip.
describe('remembered call footprints in IndexedDB', () => {
  let devnet: DevnetInfo
  let config: EdgetraceConfig
  let call: { from: string; to: string; data: string }
  beforeAll(async () => {
    devnet = await commands.startDevnet()
    config = {
      upstream: devnet.anvilUrl,
      api: ['eth', 'debug'],
      hardfork: 'prague',
      cache: { name: freshCacheName('edgetrace-footprint') },
    }
    call = {
      from: devnet.accounts[0]!,
      to: devnet.contracts.Token!,
      data: encodeCall('balanceOf(address)', [devnet.accounts[1]!]),
    }
  })
  afterAll(async () => {
    if (devnet) await commands.stopDevnet(devnet.anvilUrl)
  })

  it('a fresh worker on the same database calls the same function at a new block in one round trip', async () => {
    const first = await connectEdgetraceWorker(newWorker(), config)
    expect(await first.call('eth_call', [call, 'latest'])).toMatchObject({
      result: await anvilResult(devnet.anvilUrl, 'eth_call', [call, 'latest']),
    })
    await first.flush()
    await first.close()
    await anvilResult(devnet.anvilUrl, 'evm_mine', [])

    const second = await connectEdgetraceWorker(newWorker(), config)
    const before = (await second.status())!.counters
    const answer = await second.call('eth_call', [call, 'latest'])
    const after = (await second.status())!.counters
    const requests = after.upstreamRoundTrips - before.upstreamRoundTrips
    expect(answer).toMatchObject({ result: await anvilResult(devnet.anvilUrl, 'eth_call', [call, 'latest']) })
    // One batch: the new head, the upstream's access list and the proofs the footprint predicted.
    expect(requests).toBe(1)
    await second.close()
  })
})
