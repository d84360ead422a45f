// EVM programs for the engines' differential tests: a small assembler (opcode names, PUSH of the
// right width, labels) and a seeded generator of random programs that exercise what the wasm engine
// and ethereumjs share: arithmetic at the 256-bit edges, memory (and its expansion, far enough to
// run out of gas), storage and transient storage, loops, hashing (KECCAK256 over memory at its
// edges: block boundaries, past memory's end, far with nothing to hash), copies (calldata, code,
// return data and memory; past their sources' ends), logs, the environment, nested calls of every
// kind (reentering the caller too; some with a few hundred gas: out of gas at the callee's first
// instructions, whichever they are), creates, reverts and out-of-gas ends.

// biome-ignore format: a table
const OPS: Record<string, number> = {
  STOP: 0x00, ADD: 0x01, MUL: 0x02, SUB: 0x03, DIV: 0x04, SDIV: 0x05, MOD: 0x06, SMOD: 0x07, ADDMOD: 0x08,
  MULMOD: 0x09, EXP: 0x0a, SIGNEXTEND: 0x0b, LT: 0x10, GT: 0x11, SLT: 0x12, SGT: 0x13, EQ: 0x14, ISZERO: 0x15,
  AND: 0x16, OR: 0x17, XOR: 0x18, NOT: 0x19, BYTE: 0x1a, SHL: 0x1b, SHR: 0x1c, SAR: 0x1d, KECCAK256: 0x20,
  ADDRESS: 0x30, BALANCE: 0x31, ORIGIN: 0x32, CALLER: 0x33, CALLVALUE: 0x34, CALLDATALOAD: 0x35,
  CALLDATASIZE: 0x36, CALLDATACOPY: 0x37, CODESIZE: 0x38, CODECOPY: 0x39, GASPRICE: 0x3a, EXTCODESIZE: 0x3b,
  RETURNDATASIZE: 0x3d, RETURNDATACOPY: 0x3e, EXTCODEHASH: 0x3f, NUMBER: 0x43, TIMESTAMP: 0x42, CHAINID: 0x46,
  SELFBALANCE: 0x47, BASEFEE: 0x48, POP: 0x50, MLOAD: 0x51, MSTORE: 0x52, MSTORE8: 0x53, SLOAD: 0x54,
  SSTORE: 0x55, JUMP: 0x56, JUMPI: 0x57, PC: 0x58, MSIZE: 0x59, GAS: 0x5a, JUMPDEST: 0x5b, TLOAD: 0x5c,
  TSTORE: 0x5d, MCOPY: 0x5e, PUSH0: 0x5f, LOG0: 0xa0, LOG1: 0xa1, LOG2: 0xa2, CREATE: 0xf0, CALL: 0xf1,
  CALLCODE: 0xf2, RETURN: 0xf3, DELEGATECALL: 0xf4, CREATE2: 0xf5, STATICCALL: 0xfa, REVERT: 0xfd,
  INVALID: 0xfe, SELFDESTRUCT: 0xff,
}

/** A token: an opcode name, DUPn/SWAPn, a number or bigint (pushed with the least width), `@label` (its pc, PUSH2), `:label` (a JUMPDEST). */
export type Token = string | number | bigint

/** Assembles tokens into code (hex, no 0x). */
export function asm(tokens: readonly Token[]): string {
  const labels = new Map<string, number>()
  const emit = (resolve: boolean) => {
    const out: number[] = []
    for (const t of tokens) {
      if (typeof t === 'number' || typeof t === 'bigint') {
        let v = BigInt(t)
        if (v === 0n) {
          out.push(0x60, 0)
          continue
        }
        const bytes: number[] = []
        for (; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn))
        out.push(0x5f + bytes.length, ...bytes)
      } else if (t.startsWith('@')) {
        const pc = resolve ? labels.get(t.slice(1)) : 0
        if (pc === undefined) throw new Error(`no label ${t}`)
        out.push(0x61, pc >> 8, pc & 0xff)
      } else if (t.startsWith(':')) {
        if (!resolve) labels.set(t.slice(1), out.length)
        out.push(0x5b)
      } else if (/^DUP\d+$/.test(t)) out.push(0x7f + Number(t.slice(3)))
      else if (/^SWAP\d+$/.test(t)) out.push(0x8f + Number(t.slice(4)))
      else if (/^PUSH32:/.test(t)) out.push(0x7f, ...hexBytes(t.slice(7).padStart(64, '0')))
      else {
        const op = OPS[t]
        if (op === undefined) throw new Error(`no opcode ${t}`)
        out.push(op)
      }
    }
    return out
  }
  emit(false)
  return emit(true)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
}

const hexBytes = (hex: string) =>
  Array.from({ length: hex.length / 2 }, (_, i) => Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16))

/** A seeded generator (xorshift32). */
export function createRandom(seed: number) {
  let s = seed >>> 0 || 1
  const next = () => {
    s ^= s << 13
    s >>>= 0
    s ^= s >>> 17
    s ^= s << 5
    s >>>= 0
    return s
  }
  const below = (n: number) => next() % n
  const pick = <T>(xs: readonly T[]): T => xs[below(xs.length)]!
  return { next, below, pick, chance: (p: number) => next() / 2 ** 32 < p }
}
export type Random = ReturnType<typeof createRandom>

const MAX = 2n ** 256n - 1n
const EDGES = [
  0n,
  1n,
  2n,
  7n,
  31n,
  32n,
  255n,
  256n,
  2n ** 64n - 1n,
  2n ** 64n,
  2n ** 128n + 1n,
  2n ** 255n,
  MAX,
  MAX - 1n,
]
const BINARY = ['ADD', 'MUL', 'SUB', 'DIV', 'SDIV', 'MOD', 'SMOD', 'EXP', 'SIGNEXTEND', 'LT', 'GT', 'SLT', 'SGT', 'EQ']
BINARY.push('AND', 'OR', 'XOR', 'BYTE', 'SHL', 'SHR', 'SAR')
const ENV = ['ADDRESS', 'ORIGIN', 'CALLER', 'CALLVALUE', 'CALLDATASIZE', 'CODESIZE', 'GASPRICE', 'NUMBER', 'TIMESTAMP']
ENV.push('CHAINID', 'SELFBALANCE', 'BASEFEE', 'MSIZE', 'GAS', 'PC', 'RETURNDATASIZE')

function operand(r: Random): bigint {
  if (r.chance(0.5)) return r.pick(EDGES)
  let v = 0n
  for (let i = 0, n = 1 + r.below(32); i < n; i++) v = (v << 8n) | BigInt(r.below(256))
  return v
}

export type ProgramOptions = {
  /** Addresses a call may go to (none: the program makes no calls). */
  callees: readonly string[]
  /** Snippets in the body. */
  length: number
  /** Call the caller back first (with one byte of calldata: the caller then writes a slot and stops). */
  callBack?: boolean
}

/**
 * A random program. It starts with a branch: called with calldata of one byte (a callee calling its
 * caller back), it writes a slot and returns at once, so reentering ends.
 */
export function randomProgram(r: Random, { callees, length, callBack = false }: ProgramOptions): string {
  const t: Token[] = ['CALLDATASIZE', 1, 'EQ', '@reenter', 'JUMPI']
  if (callBack) t.push(1, 0, 'MSTORE8', 0, 0, 1, 0, 0, 'CALLER', 'GAS', 'CALL', 'POP')
  // Stack values the body left (DUP/SWAP reach them), kept below 16.
  let depth = 0
  const keep = () => {
    if (depth < 12 && r.chance(0.3)) depth++
    else if (r.chance(0.5)) t.push(r.below(12) * 32, 'MSTORE')
    else t.push('POP')
  }
  let label = 0
  for (let i = 0; i < length; i++) {
    const kind = r.below(callees.length > 0 ? 16 : 13)
    switch (kind) {
      case 0:
      case 1:
        t.push(operand(r), operand(r), r.pick(BINARY))
        keep()
        break
      case 2:
        t.push(operand(r), r.pick(['ISZERO', 'NOT']))
        keep()
        break
      case 3:
        t.push(operand(r), operand(r), operand(r), r.pick(['ADDMOD', 'MULMOD']))
        keep()
        break
      case 4: {
        // Memory: near, or far (expansion's quadratic cost, out of gas past some size).
        const offset = r.chance(0.95) ? r.below(300) : r.pick([4096, 65_536, 1_000_000, 2 ** 32, 2 ** 40])
        if (r.chance(0.4)) t.push(operand(r), offset, r.pick(['MSTORE', 'MSTORE8']))
        else if (r.chance(0.5)) {
          t.push(offset, 'MLOAD')
          keep()
        } else t.push(r.below(64), r.below(128), offset % 512, 'MCOPY')
        break
      }
      case 5:
        if (r.chance(0.5)) {
          t.push(r.below(8), 'SLOAD')
          keep()
        } else t.push(r.chance(0.3) ? 0 : operand(r), r.below(8), 'SSTORE')
        break
      case 6:
        if (r.chance(0.5)) {
          t.push(r.below(4), 'TLOAD')
          keep()
        } else t.push(operand(r), r.below(4), 'TSTORE')
        break
      case 7: {
        // A loop of SLOADs and arithmetic (the wasm's strength), sometimes long enough to run out of gas.
        const n = r.chance(0.9) ? 1 + r.below(40) : 5000
        const l = `loop${label++}`
        t.push(n, `:${l}`, 'DUP1', 8, 'SWAP1', 'MOD', 'SLOAD', 'DUP2', 'MUL', 'POP')
        t.push(1, 'SWAP1', 'SUB', 'DUP1', `@${l}`, 'JUMPI', 'POP')
        break
      }
      case 8: {
        // KECCAK256 (length, then offset on top): around the 136-byte block and the words' edges, past
        // memory's end (expanded), an empty input far away (no expansion), rarely far with bytes (out of gas).
        const length = r.chance(0.7) ? r.pick([0, 1, 31, 32, 33, 135, 136, 137, 200, 272, 300]) : r.below(400)
        const offset = r.chance(0.9) ? r.pick([0, 1, 31, 32, 33, r.below(300)]) : r.pick([2 ** 32, 2n ** 256n - 1n])
        if (length === 0 || typeof offset === 'number' || r.chance(0.2)) {
          t.push(length, offset, 'KECCAK256')
          keep()
        }
        break
      }
      case 9:
        t.push(r.pick(ENV))
        keep()
        break
      case 10:
        if (depth > 0 && r.chance(0.5)) t.push(`DUP${1 + r.below(depth)}`)
        else if (depth > 1) t.push(`SWAP${1 + r.below(depth - 1)}`, 'DUP1')
        else t.push(operand(r))
        keep()
        break
      case 11:
        if (r.chance(0.5)) t.push(r.below(64), r.below(64), 'LOG0')
        else t.push(operand(r), r.below(64), r.below(64), 'LOG1')
        break
      case 12: {
        // Copies (length, source offset, destination on top): calldata and code past their ends
        // (zeros), return data within its size (past it: an exceptional halt, rarely), memory onto
        // itself (overlapping either way, from past its end); lengths over words' edges, some empty.
        const length = r.pick([0, 1, 31, 32, 33, 64, 100, 300])
        const dst = r.chance(0.95) ? r.below(300) : r.pick([2 ** 20, 2 ** 32])
        const which = r.below(5)
        if (which === 0) t.push(length, r.pick([0, 1, 2, 40, 2 ** 40]), dst, 'CALLDATACOPY')
        else if (which === 1) t.push(length, r.pick([0, 5, 60, 200, 5000, 2n ** 255n]), dst, 'CODECOPY')
        else if (which === 2) t.push('RETURNDATASIZE', 0, dst, 'RETURNDATACOPY')
        else if (which === 3)
          t.push(r.chance(0.05) ? 33 : 'RETURNDATASIZE', 0, 64, 'RETURNDATACOPY', r.below(8), 0, 0, 'RETURNDATACOPY')
        else t.push(length, r.pick([0, 8, 31, 64, 250, 400]), dst % 512, 'MCOPY')
        break
      }
      default: {
        // A call: CALL (some value), STATICCALL, DELEGATECALL, CALLCODE; or a CREATE.
        if (r.chance(0.15)) {
          // Init code returning a runtime that returns its slot 0: PUSH8 <runtime> PUSH0 MSTORE PUSH1 8 PUSH1 24 RETURN.
          // Or, a third of the time, init code returning 2,000 bytes (400,000 gas of code deposit: often more than is left).
          const init = r.chance(0.33) ? '6107d06000f3' : '675f545f5260205ff35f5260086018f3'
          t.push(`PUSH32:${init.padEnd(64, '0')}`, 0, 'MSTORE')
          if (r.chance(0.5)) t.push(16, 0, r.below(2), 'CREATE')
          else t.push(r.below(3), 16, 0, r.below(2), 'CREATE2')
          keep()
          break
        }
        const kind = r.pick(['CALL', 'CALL', 'STATICCALL', 'DELEGATECALL', 'CALLCODE'])
        const gas = r.pick([0, 2300, 30_000, 200_000, 'GAS', 20 + r.below(400)])
        const to = r.pick(callees)
        t.push(64, 0, 64, 0) // retLength, retOffset, argsLength, argsOffset
        if (kind === 'CALL' || kind === 'CALLCODE') t.push(r.chance(0.7) ? 0 : 1)
        t.push(BigInt(to))
        t.push(gas)
        t.push(kind)
        keep()
        t.push('RETURNDATASIZE')
        keep()
      }
    }
  }
  const end = r.below(6)
  if (end === 0) t.push(r.pick([0, 1, 32, 64, 300]), r.pick([0, 7, 32, 1000]), r.pick(['RETURN', 'RETURN', 'REVERT']))
  else if (end === 1) t.push(r.below(64), r.below(64), 'REVERT')
  else if (end === 2) t.push('STOP')
  else if (end === 3 && r.chance(0.3)) t.push('INVALID')
  else t.push(32, 0, 'RETURN')
  t.push(':reenter', 7, 1, 'SSTORE', 'CALLER', 0, 'SSTORE', 'STOP')
  return asm(t)
}
