import { type DecodedStorage, type StorageWord, decodeStorage } from '../../../sources/decodeStorage.js'
import { type StorageLayout, parseStorageLayout } from '../../../sources/parseStorageLayout.js'
import type { SourceContract } from '../../../sources/types.js'
import type { Hex } from '../../../types/hex.js'
import type { CallTraceNode, KeccakRecord, VmOp } from '../../recorder/types.js'
import type { StateAccess } from '../../state/collectStateAccess.js'

const layouts = new WeakMap<SourceContract, StorageLayout | null>()

/** The contract's storage layout, read once per contract; null when its build output had none. */
function layoutOf(contract: SourceContract): StorageLayout | null {
  let layout = layouts.get(contract)
  if (layout === undefined) {
    layout = parseStorageLayout(contract.storageLayout) ?? null
    layouts.set(contract, layout)
  }
  return layout
}

const wordOf = (value: Uint8Array | undefined) => {
  let v = 0n
  for (const b of value ?? []) v = (v << 8n) | BigInt(b)
  return v
}

/**
 * The storage one frame read or wrote (its SLOADs' and SSTOREs' slots, in the account whose storage
 * it runs on: the caller's under DELEGATECALL and CALLCODE), each slot's value before and after the
 * transaction as the state manager saw them (not as the opcodes said), named by the frame's
 * contract's storage layout and the run's KECCAK256 preimages; without a layout, all raw. Null when
 * the frame touched no storage.
 */
export function frameStorage(
  node: CallTraceNode,
  ops: readonly VmOp[],
  access: StateAccess | undefined,
  contract: SourceContract | undefined,
  preimages: readonly KeccakRecord[],
): DecodedStorage | null {
  if (!access) return null
  const touched = new Set<bigint>()
  for (const op of ops) {
    if (op.failed) continue
    if (op.load !== undefined) touched.add(op.load)
    if (op.store) touched.add(op.store.key)
  }
  if (touched.size === 0) return null
  const holder = (node.kind === 'DELEGATECALL' || node.kind === 'CALLCODE' ? node.from : node.to)?.toLowerCase() as
    | Hex
    | undefined
  if (!holder) return null
  const pre = access.pre.get(holder)?.storage
  const post = access.post.get(holder)?.storage
  const slots = new Map<bigint, StorageWord>()
  for (const slot of [...touched].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const key = `0x${slot.toString(16).padStart(64, '0')}` as Hex
    const before = wordOf(pre?.get(key))
    // An account the transaction deleted has no storage after it.
    slots.set(slot, {
      before,
      after: access.post.has(holder) && !post ? 0n : post?.has(key) ? wordOf(post.get(key)) : before,
    })
  }
  const layout = contract ? layoutOf(contract) : null
  return decodeStorage(layout ?? { storage: [], types: new Map() }, slots, preimages)
}
