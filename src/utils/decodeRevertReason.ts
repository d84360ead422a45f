import { decodeRevert } from './decodeRevert.js'

/**
 * The reason of a revert, as geth's abi.UnpackRevert gives it: the string of `Error(string)`, the
 * meaning of `Panic(uint256)`, otherwise undefined (custom errors and bare reverts have none).
 */
export function decodeRevertReason(data: Uint8Array): string | undefined {
  const decoded = decodeRevert(data)
  return decoded.type === 'Error' || decoded.type === 'Panic' ? decoded.message : undefined
}
