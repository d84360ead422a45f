import { bytesToHex } from '@ethereumjs/util'
import type { Hex } from '../types/hex.js'

/** hexutil.Uint64 / hexutil.Big: minimal lowercase hex, zero is "0x0". */
export const quantity = (value: bigint | number): Hex => `0x${value.toString(16)}`

/** hexutil.Bytes: "0x" when empty. */
export const bytes = (value: Uint8Array): Hex => bytesToHex(value) as Hex
