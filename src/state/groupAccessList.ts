import { bigIntToHex32 } from './bigIntToHex32.js'
import type { AccessListEntry } from './types.js'
import type { Hex } from '../types/hex.js'

/**
 * An access list as the slots to read per account: addresses lowercased and slots as 32-byte hex,
 * each once however often it is listed, accounts in the order first listed.
 */
export function groupAccessList(entries: readonly AccessListEntry[]): Map<Hex, Set<Hex>> {
  const byAddress = new Map<Hex, Set<Hex>>()
  for (const { address, storageKeys } of entries) {
    const a = address.toLowerCase() as Hex
    const set = byAddress.get(a) ?? new Set()
    for (const k of storageKeys) set.add(bigIntToHex32(k))
    byAddress.set(a, set)
  }
  return byAddress
}
