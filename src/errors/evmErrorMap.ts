/**
 * @ethereumjs/evm's EVMError strings → geth's (core/vm/errors.go), which Erigon shares. One table;
 * Parity-style labels for trace_* are added here when that namespace lands.
 */
export const gethEvmErrors: Readonly<Record<string, string>> = {
  'out of gas': 'out of gas',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'stack underflow': 'stack underflow',
  'stack overflow': 'stack limit reached 1024 (1023)',
  'invalid JUMP': 'invalid jump destination',
  'invalid opcode': 'invalid opcode',
  'value out of range': 'return data out of bounds',
  revert: 'execution reverted',
  'static state change': 'write protection',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
  'value overflow': 'gas uint64 overflow',
}

/** geth's name of an opcode for "invalid opcode: X" (0xfe is INVALID; others are undefined opcodes). */
function invalidOpcodeMessage(opcode: number | undefined): string {
  if (opcode === undefined) return 'invalid opcode'
  if (opcode === 0xfe) return 'invalid opcode: INVALID'
  return `invalid opcode: opcode 0x${opcode.toString(16)} not defined`
}

/** geth's message for an EVM error, given the opcode that failed when known. */
export function toGethEvmError(error: string, opcode?: number): string {
  // ethereumjs appends context to some errors ("invalid JUMP at <code hash>/<address>:<pc>").
  const key = error in gethEvmErrors ? error : Object.keys(gethEvmErrors).find((k) => error.startsWith(`${k} `))
  if (key === 'invalid opcode') return invalidOpcodeMessage(opcode)
  return key !== undefined ? gethEvmErrors[key]! : error
}
