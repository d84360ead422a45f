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

function word(hex: string, index: number): bigint | undefined {
  const w = hex.slice(index * 64, index * 64 + 64)
  return w.length === 64 ? BigInt(`0x${w}`) : undefined
}

/**
 * The reason of a revert, as geth's abi.UnpackRevert gives it: the string of `Error(string)`, the
 * meaning of `Panic(uint256)`, otherwise undefined (custom errors and bare reverts have none).
 */
export function decodeRevertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined
  let hex = ''
  for (const b of data) hex += b.toString(16).padStart(2, '0')
  const selector = hex.slice(0, 8)
  const body = hex.slice(8)
  if (selector === ERROR_SELECTOR) {
    const offset = word(body, 0)
    if (offset === undefined || offset % 32n !== 0n || offset > BigInt(body.length / 2)) return undefined
    const start = Number(offset / 32n)
    const length = word(body, start)
    if (length === undefined) return undefined
    const bytesStart = (start + 1) * 64
    const bytesHex = body.slice(bytesStart, bytesStart + Number(length) * 2)
    if (bytesHex.length !== Number(length) * 2) return undefined
    const bytes = new Uint8Array(bytesHex.length / 2)
    for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(bytesHex.slice(i * 2, i * 2 + 2), 16)
    return new TextDecoder().decode(bytes)
  }
  if (selector === PANIC_SELECTOR) {
    const code = word(body, 0)
    if (code === undefined) return undefined
    return PANIC_REASONS[Number(code)] ?? `unknown panic code: 0x${code.toString(16)}`
  }
  return undefined
}
