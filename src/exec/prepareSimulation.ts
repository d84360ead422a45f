import type { VerifiedHeader } from '../chain/parseHeader.js'
import { UpstreamRpcError } from '../errors/upstream.js'
import type { AccessListEntry } from '../state/types.js'
import type { BlockSelector } from '../types/blockSelector.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import { quantity } from '../utils/hex.js'
import { toRpcCallArgs } from './callArgs.js'
import type { Engine } from './createEngine.js'
import { parseAccessList } from './prepareCall.js'
import { type SimulateOptions, prefetchSimulation } from './simulateBlocks.js'
import type { CallArgs } from './types.js'

/** Calls whose access lists are asked for: enough for a wallet's preview, bounded for a big request. */
const MAX_LISTED_CALLS = 64

function blockPin(block: BlockSelector): unknown {
  if (block.kind === 'hash') return { blockHash: block.hash }
  if (block.kind === 'number') return quantity(block.number)
  return block.tag === 'pending' ? 'latest' : block.tag
}

/**
 * Resolves the simulation's base block and fetches, verified, what its calls will read, in two
 * sequential round trips when cold (as prepareCall does for one call):
 *  1. the header, with (speculatively, at the same block parameter) the upstream's
 *     eth_createAccessList of each call, on the base state (without the simulation's overrides and
 *     earlier blocks: the lists only steer prefetching and are never trusted as state);
 *  2. every account, slot and code the lists name, plus senders, recipients, overridden accounts, the
 *     coinbase and the system contracts, in one batch.
 * What the lists missed is fetched on demand. The lists are kept by (base hash, calls): a second
 * identical simulation on the same block asks nothing (a call that reverts there included).
 * `also` are more calls listed in step 1 and prefetched with the rest, kept with the lists but not
 * part of their key (a repeat that asks fewer of them still finds the lists); `onListed` is told the
 * block and the lists as soon as they are known (before step 2): what it asks of the upstream then
 * leaves beside step 2's batch, not after it.
 */
export async function prepareSimulation(
  engine: Engine,
  selector: BlockSelector,
  opts: SimulateOptions,
  {
    also = [],
    onListed,
  }: {
    also?: readonly CallArgs[]
    onListed?: (block: VerifiedHeader, listed: readonly AccessListEntry[]) => void
  } = {},
): Promise<VerifiedHeader> {
  const { upstream, headers } = engine
  const keyed = opts.blocks.flatMap((b) => b.calls).slice(0, MAX_LISTED_CALLS)
  const text = `simulate${JSON.stringify(keyed.map((c) => toRpcCallArgs(c)))}`
  const calls = [...keyed, ...also]
  const known = await headers.peekStored(selector)
  const key = (block: VerifiedHeader) => cacheKeys.callAccessList(block.hash, text)
  if (known && engine.cache.restore) await engine.cache.restore([key(known)])
  let listed = known ? engine.cache.get<AccessListEntry[]>(key(known)) : undefined
  let block: VerifiedHeader
  if (known && listed) block = known
  else {
    const pin = known ? { blockHash: known.hash } : blockPin(selector)
    let complete = true
    const lists = engine.accessListSupported
      ? Promise.all(
          calls.map((c, i) =>
            upstream
              .request('eth_createAccessList', [toRpcCallArgs(c), pin])
              .then((r) => parseAccessList(r) ?? [])
              .catch((err: unknown) => {
                if (err instanceof UpstreamRpcError && err.code === -32601) engine.accessListSupported = false
                // A call that reverts on the block's state (anvil answers code 3) was answered: it lists
                // nothing, and asking again on the same block would answer the same.
                // An extra call's list failing leaves the calls' lists whole (kept: a repeat asks nothing).
                else if (!(err instanceof UpstreamRpcError && err.code === 3) && i < keyed.length) complete = false
                return [] as AccessListEntry[]
              }),
          ),
        )
      : Promise.resolve([])
    block = known ?? (await headers.resolve(selector))
    listed = (await lists).flat()
    if (complete) engine.cache.set(key(block), listed, 256 + 96 * listed.length)
  }
  onListed?.(block, listed)
  await prefetchSimulation(engine, block, opts, listed)
  return block
}
