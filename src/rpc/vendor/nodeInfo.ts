import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { SILENT_CONTEXT } from '../progress.js'
import { defineMethod } from '../defineMethod.js'
import { clientVersion } from '../web3/clientVersion.js'
import { redactUrl } from '../../utils/redactUrl.js'

/** How long the upstream is given to show it is there before it is reported unreachable. */
const PROBE_MS = 3000

/** The genesis hash once verified, per engine: it never changes, so an unreachable upstream still has it reported. */
const genesisHashes = new WeakMap<Engine, string>()

/** A verified header, or undefined when the upstream does not give one within PROBE_MS (or fails). */
async function probe(engine: Engine, selector: BlockSelector): Promise<VerifiedHeader | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), PROBE_MS)
  })
  try {
    return await Promise.race([engine.headers.resolve(selector).catch(() => undefined), late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * erigon_nodeInfo(): edgetrace's own identity in the shape of the reference's `[p2p.NodeInfo]`.
 * edgetrace is no peer — it has no node key, enode, ENR or ports, so those are empty (ports 0) — and
 * its one "protocol" is the upstream: `protocols.eth` holds the chain (`network`: the chain id, the
 * verified genesis and head hashes, null while not known and the upstream is not reachable) and `protocols.edgetrace`
 * the upstream's scheme, host and port (never its path, query or user info: keys hide there), whether it answered within 3 s, whether state is verified
 * by proofs, the head's number, the cache's tiers (`memory`, then `indexeddb` in a browser or `shared` with `--cache.redis`),
 * and the engine running the EVM's frames (`--engine`: `wasm` once its module is loaded, else `ethereumjs`).
 */
export const nodeInfo = defineMethod({
  name: 'erigon_nodeInfo',
  params: [],
  async run(engine) {
    const [name, genesis, head, wasm] = await Promise.all([
      clientVersion.run(engine, [], SILENT_CONTEXT),
      probe(engine, { kind: 'number', number: 0n }),
      probe(engine, { kind: 'tag', tag: 'latest' }),
      // `--engine wasm` whose module could not be loaded runs on ethereumjs (said once in the log).
      engine.wasm?.engine(),
    ])
    if (genesis) genesisHashes.set(engine, genesis.hash)
    return [
      {
        id: '',
        name,
        enode: '',
        enr: '',
        ip: '',
        ports: { discovery: 0, listener: 0 },
        listenAddr: '',
        protocols: {
          eth: {
            network: Number(engine.rules.chainId),
            genesis: genesis?.hash ?? genesisHashes.get(engine) ?? null,
            head: head?.hash ?? null,
          },
          edgetrace: {
            upstream: redactUrl(engine.upstream.url),
            reachable: head !== undefined,
            verified: engine.source.verified,
            headNumber: head === undefined ? null : Number(head.number),
            // The cache's tiers, nearest first: memory, then the persistent or shared one if any.
            cache: ['memory', ...(engine.persistent ? [engine.persistent.store.tier ?? 'persistent'] : [])],
            engine: wasm === undefined ? 'ethereumjs' : 'wasm',
          },
        },
      },
    ]
  },
})
