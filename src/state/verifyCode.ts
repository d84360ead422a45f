import { bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../utils/keccak256.js'
import { CodeHashMismatchError, type StateLocation } from '../errors/state.js'
import type { Hex } from '../types/hex.js'

/** The code of an eth_getCode answer, once it hashes to the account's proven `codeHash`. */
export function verifyCode(codeHash: Uint8Array, raw: unknown, where: StateLocation): Uint8Array {
  if (typeof raw !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(raw)) throw new Error('eth_getCode answer is malformed')
  const code = hexToBytes(raw as Hex)
  const actual = keccak256(code)
  if (!equalsBytes(actual, codeHash)) throw new CodeHashMismatchError(where, bytesToHex(codeHash), bytesToHex(actual))
  return code
}
