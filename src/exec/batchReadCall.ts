import { UpstreamRpcError } from '../errors/upstream.js'
import type { AccessListEntry } from '../state/types.js'
import type { Hex } from '../types/hex.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { toRpcCallArgs } from './callArgs.js'
import type { Engine } from './createEngine.js'
import { parseAccessList } from './prepareCall.js'
import type { CallArgs } from './types.js'

/** A read: a view call of `to` with `data`, given at most `gas` (default 1,000,000). */
export type BatchedRead = { to: Hex; data: Hex; gas?: bigint | undefined }

const DEFAULT_READ_GAS = 1_000_000n

const push = (bytes: string) => {
  const n = bytes.length / 2
  return `${(0x5f + n).toString(16)}${bytes}`
}
const pushNumber = (v: bigint) => {
  const hex = v.toString(16)
  return push(hex.length % 2 === 0 ? hex : `0${hex}`)
}

/**
 * One contract creation whose init code makes each read (a CALL of `to` with `data` and its gas,
 * the answer ignored, a revert too) and then stops: the upstream's eth_createAccessList of it lists,
 * in one call, every account and slot the reads touch. It only steers prefetching (what it lists is
 * fetched and proven like any access list's entries); the reads themselves run on verified state.
 */
export function batchReadCall(reads: readonly BatchedRead[]): CallArgs {
  let code = ''
  for (const { to, data, gas } of reads) {
    const bytes = data.slice(2)
    // The calldata written to memory from offset 0, a word at a time (zero-padded at the end).
    for (let at = 0; at < bytes.length; at += 64) {
      code += `${push(bytes.slice(at, at + 64).padEnd(64, '0'))}${pushNumber(BigInt(at / 2))}52`
    }
    // CALL(gas, to, 0, 0, len, 0, 0), its success flag popped (PUSH1 0, not PUSH0: chains before Shanghai).
    code += `60006000${pushNumber(BigInt(bytes.length / 2))}60006000${push(to.slice(2).toLowerCase().padStart(40, '0'))}`
    code += `${pushNumber(gas ?? DEFAULT_READ_GAS)}f150`
  }
  return { data: `0x${code}00` as Hex }
}

/**
 * The upstream's access list of the reads (batchReadCall) on the block's state, kept by (block hash,
 * reads): asked again for the same reads on the same block, nothing is sent. Empty where the upstream
 * has no eth_createAccessList, answered an error or did not answer (the reads then fetch what they
 * touch as they run).
 */
export async function listReads(
  engine: Engine,
  block: VerifiedHeader,
  reads: readonly BatchedRead[],
): Promise<AccessListEntry[]> {
  if (reads.length === 0 || !engine.accessListSupported) return []
  const args = toRpcCallArgs(batchReadCall(reads))
  const key = cacheKeys.callAccessList(block.hash, `reads${JSON.stringify(args)}`)
  if (engine.cache.restore) await engine.cache.restore([key])
  const known = engine.cache.get<AccessListEntry[]>(key)
  if (known) return known
  try {
    const listed = parseAccessList(
      await engine.upstream.request('eth_createAccessList', [args, { blockHash: block.hash }]),
    )
    if (listed) engine.cache.set(key, listed, 256 + 96 * listed.length)
    return listed ?? []
  } catch (err) {
    if (err instanceof UpstreamRpcError && err.code === -32601) engine.accessListSupported = false
    // The upstream answered it with an error (it refuses such a call, or a read ran out of gas): the
    // same again on this block, kept as nothing listed. A transport failure is asked again next time.
    else if (err instanceof UpstreamRpcError) engine.cache.set(key, [], 256)
    return []
  }
}
