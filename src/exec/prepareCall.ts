import { bytesToHex } from '@ethereumjs/util'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { UpstreamRpcError } from '../errors/upstream.js'
import type { BlockSelector } from '../types/blockSelector.js'
import type { AccessListEntry } from '../state/types.js'
import type { Engine } from './createEngine.js'
import { type FootprintEntry, predictFootprint } from './callFootprint.js'
import type { CallArgs } from './types.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import { toRpcCallArgs } from './callArgs.js'
import { quantity } from '../utils/hex.js'
import type { Hex } from '../types/hex.js'

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000' as const

function blockPin(block: BlockSelector): unknown {
  if (block.kind === 'hash') return { blockHash: block.hash }
  if (block.kind === 'number') return quantity(block.number)
  return block.tag === 'pending' ? 'latest' : block.tag
}

function accessListKey(block: VerifiedHeader, args: CallArgs): string {
  return cacheKeys.callAccessList(block.hash, JSON.stringify(toRpcCallArgs(args)))
}

/** The `accessList` of an eth_createAccessList answer, well-formed entries only. */
export function parseAccessList(raw: unknown): AccessListEntry[] | undefined {
  const list = (raw as { accessList?: unknown })?.accessList
  if (!Array.isArray(list)) return undefined
  return list.filter(
    (e): e is AccessListEntry =>
      typeof e?.address === 'string' &&
      Array.isArray(e.storageKeys) &&
      e.storageKeys.every((k: unknown) => typeof k === 'string'),
  )
}

/**
 * Resolves the call's block and fetches, verified, the state the call will read — in as few
 * sequential round trips as the upstream allows:
 *  1. the header, together with (speculatively, at the same block parameter) the upstream's
 *     eth_createAccessList of the call and the proofs of sender and recipient and the recipient's code,
 *     and — when a call of the same function of the same code ran before — the proofs and code of
 *     everything that call read (its remembered footprint);
 *  2. whatever the access list names that step 1 did not prove, plus the coinbase, in one batch
 *     (nothing, when the footprint predicted it all: one round trip).
 * Speculative answers are kept only if they verify against the header; what the list missed is
 * fetched on demand during execution. A second identical call finds everything cached: 0 requests.
 * The access list only steers prefetching — it is never trusted as state.
 */
export async function prepareCall(engine: Engine, args: CallArgs, selector: BlockSelector): Promise<VerifiedHeader> {
  const { upstream, source, headers } = engine
  const from = args.from ?? ZERO_ADDRESS
  let known = await headers.peekStored(selector)
  if (known && engine.cache.restore) await engine.cache.restore([accessListKey(known, args)])
  let listed = known ? engine.cache.get<AccessListEntry[]>(accessListKey(known, args)) : undefined
  // A number not yet final that this call ran at before: one request asks which block the number is
  // now; still the same block (no reorg), the access list kept for it is used, rather than sending
  // the speculative batch again (whose eth_createAccessList has the upstream run the whole call).
  // Replaced by a reorg, the batch goes out for the new block (a second round trip, then only).
  if (!known && selector.kind === 'number') {
    const candidate = headers.peekRecent(selector.number)
    const candidateList = candidate && engine.cache.get<AccessListEntry[]>(accessListKey(candidate, args))
    if (candidate && candidateList) {
      known = await headers.resolve(selector)
      listed = known.hash === candidate.hash ? candidateList : undefined
    }
  }

  let accessList: Promise<AccessListEntry[] | undefined> = Promise.resolve(listed)
  let block: VerifiedHeader
  if (known && listed) {
    block = known
  } else {
    // What the last call of this function read, asked for now rather than after the access list
    // (read from the persistent tier before any request goes out, so all of them leave in one batch).
    const footprint = await predictFootprint(engine, args, known)
    const to = args.to?.toLowerCase()
    const predicted = new Map<string, FootprintEntry>()
    for (const address of [from, ...(args.to ? [args.to] : [])]) {
      predicted.set(address.toLowerCase(), { address: address.toLowerCase() as Hex, slots: [] })
    }
    for (const entry of footprint ?? []) predicted.set(entry.address, entry)
    const pin = known ? { blockHash: known.hash } : blockPin(selector)
    const speculate = (method: string, params: unknown[]) => upstream.request(method, params).catch(() => undefined)
    if (engine.accessListSupported && listed === undefined) {
      accessList = upstream
        .request('eth_createAccessList', [toRpcCallArgs(args), pin])
        .then(parseAccessList)
        .catch((err: unknown) => {
          if (err instanceof UpstreamRpcError && err.code === -32601) engine.accessListSupported = false
          return undefined
        })
    }
    const proofs = [...predicted.values()].map((e) => speculate('eth_getProof', [e.address, e.slots, pin]))
    const codes = [...predicted.values()]
      // The recipient's code unless its footprint says it is held already.
      .filter((e) => e.codeHash !== undefined || (e.address === to && !footprint?.some((f) => f.address === to)))
      .map((e) => ({ address: e.address, code: speculate('eth_getCode', [e.address, pin]) }))
    block = known ?? (await headers.resolve(selector))
    await Promise.all(proofs.map(async (p) => source.offerProof(block, await p)))
    await Promise.all(codes.map(async ({ address, code }) => source.offerCode(block, address, await code)))
  }

  const list = await accessList
  if (list && !listed) engine.cache.set(accessListKey(block, args), list, 256 + 96 * list.length)
  const entries: AccessListEntry[] = [
    { address: from, storageKeys: [] },
    { address: bytesToHex(block.header.coinbase.bytes) as Hex, storageKeys: [] },
    ...(args.to ? [{ address: args.to, storageKeys: [] }] : []),
    ...(args.accessList ?? []),
    ...(list ?? []),
  ]
  await source.prefetch(block, entries)
  return block
}
