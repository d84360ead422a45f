import { keccak256 } from '../../utils/keccak256.js'
import { bytes } from '../../utils/hex.js'
import type { Hex } from '../../types/hex.js'

/** A static ABI argument: numbers and bigints as uint256, 0x-addresses and bytes32 as words, booleans. */
export type StaticArg = bigint | number | boolean | Hex

/** The 4-byte selector of a function signature such as `transfer(address,uint256)`. */
export function selector(signature: string): Hex {
  return bytes(keccak256(new TextEncoder().encode(signature)).slice(0, 4))
}

function word(arg: StaticArg): string {
  if (typeof arg === 'boolean') return (arg ? 1n : 0n).toString(16).padStart(64, '0')
  if (typeof arg === 'number' || typeof arg === 'bigint') {
    const v = BigInt(arg)
    return (v < 0n ? 2n ** 256n + v : v).toString(16).padStart(64, '0')
  }
  const hex = arg.slice(2).toLowerCase()
  // Addresses are left-padded; 32-byte values stand as they are.
  return hex.length === 64 ? hex : hex.padStart(64, '0')
}

/**
 * Calldata for a function with static arguments (uint*, int*, address, bool, bytes32) — all the
 * devnet's seeding needs, without an ABI library at run time.
 */
export function encodeCall(signature: string, args: readonly StaticArg[] = []): Hex {
  return `${selector(signature)}${args.map(word).join('')}` as Hex
}

/** Constructor arguments appended to creation code. */
export function encodeDeploy(bytecode: Hex, args: readonly StaticArg[] = []): Hex {
  return `${bytecode}${args.map(word).join('')}` as Hex
}
