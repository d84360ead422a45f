/**
 * geth's name of an opcode (OpCode.String()) from its byte and the name the EVM gave the step:
 * KECCAK256 and DIFFICULTY where ethereumjs says SHA3 and PREVRANDAO, and an opcode the fork does not
 * define as "opcode 0x… not defined" (ethereumjs calls it INVALID, the name of 0xfe alone).
 */
export function gethOpcodeName(op: number, evmName: string): string {
  if (op === 0x20) return 'KECCAK256'
  if (op === 0x44) return 'DIFFICULTY'
  if (evmName === 'INVALID' && op !== 0xfe) return `opcode 0x${op.toString(16)} not defined`
  return evmName
}
