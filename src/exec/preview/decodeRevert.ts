import type { Hex } from '../../types/hex.js'

/** Solidity's panic codes, worded as geth's abi.UnpackRevert words them. */
const PANIC_REASONS: Record<number, string> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
}

/** A revert's data as a wallet shows it: `Error(string)`'s message, `Panic(uint256)`'s code and meaning, else the raw data. */
export type DecodedRevert =
  | { type: 'Error'; message: string; data: Hex }
  | { type: 'Panic'; code: bigint; message: string; data: Hex }
  | { type: 'unknown'; data: Hex }

const word = (body: string, index: number): bigint | undefined => {
  const w = body.slice(index * 64, index * 64 + 64)
  return w.length === 64 ? BigInt(`0x${w}`) : undefined
}

function errorString(body: string): string | undefined {
  const offset = word(body, 0)
  if (offset === undefined || offset % 32n !== 0n || offset > BigInt(body.length / 2)) return undefined
  const start = Number(offset / 32n)
  const length = word(body, start)
  if (length === undefined || length > BigInt(body.length / 2)) return undefined
  const hex = body.slice((start + 1) * 64, (start + 1) * 64 + Number(length) * 2)
  if (hex.length !== Number(length) * 2) return undefined
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return new TextDecoder().decode(bytes)
}

/** Decodes a revert's return data (`0x08c379a0…` Error(string), `0x4e487b71…` Panic(uint256)). */
export function decodeRevert(data: Hex): DecodedRevert {
  const hex = data.slice(2).toLowerCase()
  const body = hex.slice(8)
  if (hex.startsWith('08c379a0')) {
    const message = errorString(body)
    if (message !== undefined) return { type: 'Error', message, data }
  }
  if (hex.startsWith('4e487b71') && body.length === 64) {
    const code = BigInt(`0x${body}`)
    const message = PANIC_REASONS[Number(code)] ?? `unknown panic code: 0x${code.toString(16)}`
    return { type: 'Panic', code, message, data }
  }
  return { type: 'unknown', data }
}
