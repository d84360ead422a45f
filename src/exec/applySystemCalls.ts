import type { StateManagerInterface } from '@ethereumjs/common'
import type { BlockHeader } from '@ethereumjs/block'
import { bigIntToBytes, createAddressFromString, setLengthLeft } from '@ethereumjs/util'

export const BEACON_ROOTS_ADDRESS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02'
export const HISTORY_STORAGE_ADDRESS = '0x0000f90827f1c53a10cb7a02335b175320002935'
const HISTORICAL_ROOTS_LENGTH = 8191n
const HISTORY_SERVE_WINDOW = 8191n

/**
 * The state writes a block makes before its first transaction, where its fork has them:
 * EIP-4788 (Cancun) stores the parent beacon block root, EIP-2935 (Prague) the parent block hash,
 * each in its system contract's ring buffer — only when that contract has code, as clients do.
 * The effect equals the system call the spec describes (the contracts only store their input).
 */
export async function applySystemCalls(state: StateManagerInterface, header: BlockHeader): Promise<void> {
  const common = header.common
  if (common.isActivatedEIP(4788) && header.parentBeaconBlockRoot !== undefined) {
    const address = createAddressFromString(BEACON_ROOTS_ADDRESS)
    if ((await state.getCode(address)).length > 0) {
      const index = header.timestamp % HISTORICAL_ROOTS_LENGTH
      await state.putStorage(address, setLengthLeft(bigIntToBytes(index), 32), bigIntToBytes(header.timestamp))
      await state.putStorage(
        address,
        setLengthLeft(bigIntToBytes(index + HISTORICAL_ROOTS_LENGTH), 32),
        header.parentBeaconBlockRoot,
      )
    }
  }
  if (common.isActivatedEIP(2935) && header.number > 0n) {
    const address = createAddressFromString(HISTORY_STORAGE_ADDRESS)
    if ((await state.getCode(address)).length > 0) {
      const index = (header.number - 1n) % HISTORY_SERVE_WINDOW
      await state.putStorage(address, setLengthLeft(bigIntToBytes(index), 32), header.parentHash)
    }
  }
}
