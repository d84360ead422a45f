import type { Hex } from '../types/hex.js'
import type { SignatureTable } from './abi/createSignatureTable.js'
import { type DecodedArg, decodeCallData } from './abi/decodeCallData.js'

const ERROR_SELECTOR = '08c379a0'
const PANIC_SELECTOR = '4e487b71'

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

/**
 * A revert's data decoded: `Error(string)`'s message, `Panic(uint256)`'s code and meaning, a custom
 * error a signature table knows (named, its arguments decoded), else the raw data (with its selector
 * when it has four bytes).
 */
export type DecodedRevert =
  | { type: 'Error'; message: string; data: Hex }
  | { type: 'Panic'; code: bigint; message: string; data: Hex }
  | { type: 'custom'; selector: Hex; name: string; signature: string; args: DecodedArg[]; data: Hex }
  | { type: 'unknown'; selector?: Hex; data: Hex }

function word(hex: string, index: number): bigint | undefined {
  const w = hex.slice(index * 64, index * 64 + 64)
  return w.length === 64 ? BigInt(`0x${w}`) : undefined
}

function errorString(body: string): string | undefined {
  const offset = word(body, 0)
  if (offset === undefined || offset % 32n !== 0n || offset > BigInt(body.length / 2)) return undefined
  const start = Number(offset / 32n)
  const length = word(body, start)
  if (length === undefined || length > BigInt(body.length / 2)) return undefined
  const bytesStart = (start + 1) * 64
  const bytesHex = body.slice(bytesStart, bytesStart + Number(length) * 2)
  if (bytesHex.length !== Number(length) * 2) return undefined
  const bytes = new Uint8Array(bytesHex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(bytesHex.slice(i * 2, i * 2 + 2), 16)
  return new TextDecoder().decode(bytes)
}

/**
 * A revert's return data decoded as geth's abi.UnpackRevert reads it: `0x08c379a0…` Error(string),
 * `0x4e487b71…` Panic(uint256) (its first word). With `tables` (the preview's: an app's ABIs, the
 * bundled table), a custom error one of them knows is named and its arguments decoded (the first
 * table that knows the selector and whose types the data fits); anything else (an unknown custom
 * error, a bare revert) is unknown.
 */
export function decodeRevert(data: Uint8Array | Hex, tables: readonly SignatureTable[] = []): DecodedRevert {
  let hex: string
  if (typeof data === 'string') hex = data.slice(2).toLowerCase()
  else {
    hex = ''
    for (const b of data) hex += b.toString(16).padStart(2, '0')
  }
  const raw = `0x${hex}` as Hex
  const selector = hex.slice(0, 8)
  const body = hex.slice(8)
  if (selector === ERROR_SELECTOR) {
    const message = errorString(body)
    if (message !== undefined) return { type: 'Error', message, data: raw }
  }
  if (selector === PANIC_SELECTOR) {
    const code = word(body, 0)
    if (code !== undefined) {
      const message = PANIC_REASONS[Number(code)] ?? `unknown panic code: 0x${code.toString(16)}`
      return { type: 'Panic', code, message, data: raw }
    }
  }
  if (hex.length < 8) return { type: 'unknown', data: raw }
  if (selector !== ERROR_SELECTOR && selector !== PANIC_SELECTOR) {
    const custom = decodeCallData(raw, tables)
    if (custom) return { type: 'custom', ...custom, selector: custom.selector as Hex, data: raw }
  }
  return { type: 'unknown', selector: `0x${selector}`, data: raw }
}
