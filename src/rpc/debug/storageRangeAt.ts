import { bytesToBigInt, bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'
import { stateBefore } from '../../exec/stateBefore.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { RangeVerificationError } from '../../errors/state.js'
import { UpstreamRpcError } from '../../errors/upstream.js'
import { parseAddress, parseData, parseHash } from '../parsers.js'
import { required } from '../params.js'
import { parseJsonInteger } from './accountAt.js'
import { defineMethod } from '../defineMethod.js'
import type { Hex } from '../../types/hex.js'

type Range = { storage: Record<string, { key: string | null; value: string }>; nextKey: string | null }

/**
 * debug_storageRangeAt(blockHash, txIndex, address, keyStart, maxResult): Merkle proofs cannot list
 * an account's slots, so the range comes from the upstream (which must offer this method) — and
 * every slot in it is checked: its key must hash to the hashed key it is filed under, and its value
 * must equal what edgetrace reads for that slot at the start of transaction `txIndex` (verified
 * state of the parent, the block's earlier transactions replayed). A slot the upstream leaves out
 * of the middle of a range cannot be detected this way (except the slots the block's earlier
 * transactions wrote, which are added from the replay); one without its preimage cannot be checked
 * and is refused.
 */
export const storageRangeAt = defineMethod({
  name: 'debug_storageRangeAt',
  params: [
    required(parseHash),
    required(parseJsonInteger),
    required(parseAddress),
    required(parseData),
    required(parseJsonInteger),
  ],
  async run(engine, [blockHash, txIndex, address, keyStart, maxResult]): Promise<Range> {
    let range: Range
    try {
      range = await engine.upstream.request<Range>('debug_storageRangeAt', [
        blockHash,
        txIndex,
        address,
        keyStart,
        maxResult,
      ])
    } catch (err) {
      if (err instanceof UpstreamRpcError && err.code === -32601) {
        throw new ServerRpcError(
          'debug_storageRangeAt needs an upstream that enumerates storage, and this one does not offer debug_storageRangeAt (Merkle proofs alone cannot list slots)',
        )
      }
      throw err
    }
    const header = await engine.headers.byHash(blockHash)
    const state = await stateBefore(engine, header, txIndex)
    const at = createAddressFromString(address)
    // One line naming the block; the hash, address, slot and values are the error's data.
    const where = `block ${header.number}`
    const facts = (slot?: string, values?: { expectedValue: string; gotValue: string }) => ({
      facts: { block: header, address: address.toLowerCase(), slot, ...values },
    })
    for (const [hashed, entry] of Object.entries(range.storage ?? {})) {
      if (entry.key === null || entry.key === undefined) {
        throw new RangeVerificationError(`${where}: the upstream lists slot ${hashed} without its key`, facts())
      }
      const key = setLengthLeft(hexToBytes(entry.key as Hex), 32)
      if (bytesToHex(keccak256(key)) !== hashed.toLowerCase()) {
        throw new RangeVerificationError(
          `${where}: the upstream files the slot under ${hashed}, which is not its hash`,
          facts(bytesToHex(key)),
        )
      }
      const ours = await state.getStorage(at, key)
      if (bytesToBigInt(ours) !== BigInt(entry.value)) {
        throw new RangeVerificationError(
          `${where}: the upstream's value of the slot is not the verified state's`,
          facts(bytesToHex(key), {
            expectedValue: bytesToHex(setLengthLeft(ours, 32)),
            gotValue: String(entry.value),
          }),
        )
      }
    }
    // Overlay: a slot the block's earlier transactions wrote inside the returned window (from keyStart
    // to nextKey) that the upstream did not list is added from the verified replay.
    const low = BigInt(keyStart === '0x' ? 0 : keyStart)
    const high = range.nextKey ? BigInt(range.nextKey) : undefined
    for (const slot of state.dirtySlots(address)) {
      const key = setLengthLeft(hexToBytes(slot), 32)
      const hashed = bytesToHex(keccak256(key))
      const h = BigInt(hashed)
      if (h < low || (high !== undefined && h >= high) || hashed in (range.storage ?? {})) continue
      const value = await state.getStorage(at, key)
      if (bytesToBigInt(value) === 0n) continue
      ;(range.storage ??= {})[hashed] = { key: bytesToHex(key), value: bytesToHex(setLengthLeft(value, 32)) }
    }
    return range
  },
})
