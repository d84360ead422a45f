import type { CreateDevnetBeaconParameters } from '../../src/node/devnet/createDevnetBeacon.js'
import { type AnvilInstance, startAnvil } from '../../src/node/devnet/startAnvil.js'
import { type BeaconFixture, createBeaconFixture, executionPayloadHeaderOf } from './beaconFixture.js'
import { type Proxy, createProxy } from './createProxy.js'
import { fetchBlocks } from './fetchBlocks.js'
import { rpcResult } from './rpc.js'

export type AnvilBeacon = {
  anvil: AnvilInstance
  /** anvil's blocks 0…mined, as it serves them. */
  real: Record<string, string>[]
  /** The made-up beacon chain whose slot s carries anvil's block s; its head slot `head`. */
  beacon: BeaconFixture
  served: Awaited<ReturnType<BeaconFixture['serve']>>
  /** A fault proxy in front of anvil: the execution upstream a test makes lie. */
  proxy: Proxy
  stop(): Promise<void>
}

/**
 * anvil with `mined` blocks (`mine` mines them, else all empty at once), a beacon chain carrying them
 * as its payload headers (`beacon`: its clock), served over HTTP (`before` runs ahead of each answer),
 * and a fault proxy in front of anvil.
 */
export async function startAnvilBeacon({
  mined,
  head,
  mine,
  beacon: clock = {},
  before,
}: {
  mined: number
  head: number
  mine?: (anvil: AnvilInstance) => Promise<void>
  beacon?: Pick<CreateDevnetBeaconParameters, 'genesisTime' | 'secondsPerSlot'>
  before?: () => Promise<void>
}): Promise<AnvilBeacon> {
  const anvil = await startAnvil()
  if (mine) await mine(anvil)
  else await rpcResult(anvil.url, 'anvil_mine', [`0x${mined.toString(16)}`])
  const real = await fetchBlocks(anvil.url, 0, mined)
  const beacon = createBeaconFixture({ executionAt: (slot) => executionPayloadHeaderOf(real[slot]!), ...clock })
  beacon.head = head
  const served = await beacon.serve(before ? { before } : {})
  const proxy = await createProxy(anvil.url)
  return {
    anvil,
    real,
    beacon,
    served,
    proxy,
    async stop() {
      await served.close()
      await proxy.stop()
      await anvil.stop()
    },
  }
}
