import { createConsensusAnchor } from '../../src/chain/beacon/createConsensusAnchor.js'
import { connectLightClient } from '../../src/chain/beacon/connectLightClient.js'
import { createEdgetrace } from '../../src/createEdgetrace.js'
import type { EngineOptions } from '../../src/exec/createEngine.js'
import type { PersistentStore } from '../../src/state/createPersistentBacking.js'
import { createBeaconApi } from '../../src/upstream/createBeaconApi.js'
import { createUpstream } from '../../src/upstream/createUpstream.js'
import type { BeaconFixture } from './beaconFixture.js'

/** A JSON-RPC answer as the daemon wrote it, parsed (its result typed as the test reads it). */
export type ConsensusAnswer<T = any> = { result?: T; error?: { code: number; message: string; data?: unknown } }

/**
 * A daemon in this process (Prague) in trust mode consensus: a light client of the made-up beacon
 * chain `beacon` served at `beaconUrl`, bootstrapped from its slot-8 root, on the execution upstream
 * at `upstreamUrl`. `call` runs one request through its handler.
 */
export async function startConsensusDaemon({
  beacon,
  beaconUrl,
  upstreamUrl,
  api = ['eth'],
  engine,
  persistentStore,
}: {
  beacon: BeaconFixture
  beaconUrl: string
  upstreamUrl: string
  api?: string[]
  engine?: Partial<EngineOptions>
  persistentStore?: PersistentStore | undefined
}) {
  const root = `0x${Buffer.from(beacon.rootAt(8)).toString('hex')}`
  const client = await connectLightClient(createBeaconApi(beaconUrl), root, { now: beacon.now })
  const upstream = createUpstream({ url: upstreamUrl })
  const edge = await createEdgetrace({
    upstream,
    hardfork: 'prague',
    api,
    ...(engine ? { engine } : {}),
    persistentStore,
    anchor: createConsensusAnchor(client, { checkpoint: root, beaconNode: beaconUrl }),
  })
  const call = async <T = any>(method: string, params: unknown[]) => {
    const text = await edge.handler.handleText(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))
    return JSON.parse(text!) as ConsensusAnswer<T>
  }
  return { call, upstream, edge, root }
}
