import { bytesToHex } from '@ethereumjs/util'

/** hexutil.Uint64 / hexutil.Big: minimal lowercase hex, zero is "0x0". */
export const quantity = (value: bigint | number): `0x${string}` => `0x${value.toString(16)}`

/** hexutil.Bytes: "0x" when empty. */
export const bytes = (value: Uint8Array): `0x${string}` => bytesToHex(value) as `0x${string}`
