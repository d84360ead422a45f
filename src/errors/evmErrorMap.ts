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

/** geth's flatCallTracer `convertParityErrors` table: geth error → Parity/OpenEthereum label. */
const parityErrors: Readonly<Record<string, string>> = {
  'contract creation code storage out of gas': 'Out of gas',
  'out of gas': 'Out of gas',
  'gas uint64 overflow': 'Out of gas',
  'max code size exceeded': 'Out of gas',
  'invalid jump destination': 'Bad jump destination',
  'execution reverted': 'Reverted',
  'return data out of bounds': 'Out of bounds',
  'stack limit reached 1024 (1023)': 'Out of stack',
  'precompiled failed': 'Built-in failed',
  'invalid input length': 'Built-in failed',
}
const parityErrorPrefixes: [string, string][] = [
  ['out of gas:', 'Out of gas'],
  ['invalid opcode:', 'Bad instruction'],
  ['stack underflow', 'Stack underflow'],
]

/** A geth error string in Parity's words, as geth's flatCallTracer converts it. */
export function toParityError(gethError: string): string {
  return (
    parityErrors[gethError] ?? parityErrorPrefixes.find(([prefix]) => gethError.startsWith(prefix))?.[1] ?? gethError
  )
}

const BLAKE2F = '0x0000000000000000000000000000000000000009'
const POINT_EVALUATION = '0x000000000000000000000000000000000000000a'

/**
 * The point-evaluation precompile's errors in geth's and Erigon's words (core/vm/contracts.go
 * errBlobVerify*; a proof that does not open is go-kzg-4844's ErrVerifyOpeningProof, wrapped).
 */
const pointEvaluationErrors: Readonly<Record<string, string>> = {
  'invalid input length': 'invalid input length',
  'kzg commitment does not match versioned hash': 'mismatched versioned hash',
  'kzg proof invalid': "error verifying kzg proof: can't verify opening proof",
  'kzg inputs invalid': 'error verifying kzg proof',
}

/** geth's error of a failed precompile call, where ethereumjs words it differently. */
export function toGethPrecompileError(address: string, error: string, inputLength: number): string {
  if (address === BLAKE2F && error === 'value out of range') {
    return inputLength !== 213 ? 'invalid input length' : 'invalid final flag'
  }
  if (address === POINT_EVALUATION && error in pointEvaluationErrors) return pointEvaluationErrors[error]!
  return toGethEvmError(error)
}
