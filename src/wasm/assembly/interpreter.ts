// The interpreter: one frame's dispatch loop over analysed code (code.ts), the stack in linear memory
// (layout.ts), static gas from the table (gasTable.ts) and dynamic gas where the instruction needs
// it. SLOAD and SSTORE go to the host (host.ts). A run ends with a status the host reads from RESULT.
// An instruction this prototype does not implement ends the run with UNSUPPORTED before it has any
// effect: the host then runs the whole call in @ethereumjs/evm.

import { CODE_HEADER } from './code'
import * as host from './host'
import {
  callRegionBase,
  ENV_ADDRESS,
  ENV_CALLER,
  ENV_CALLVALUE,
  GAS_TABLE,
  growCallRegion,
  IO_KEY,
  IO_NEW,
  IO_VALUE,
  RESULT_GAS_LEFT,
  RESULT_OPCODE,
  RESULT_PC,
  RESULT_REFUND,
  RESULT_RET_LEN,
  RESULT_RET_PTR,
  RESULT_STATUS,
  STACK,
  STACK_END,
  TMP_D,
} from './layout'
import { addWarm, isWarm } from './warm'
import {
  byteLength,
  copyWord,
  divMod,
  equal,
  exp,
  fits64,
  fromBigEndian,
  isZero,
  lessThan,
  mul,
  setU64,
  shiftLeft,
  shiftRight,
  signedDivMod,
  signedLessThan,
  signExtend,
  toBigEndian,
} from './word'

export const STATUS_STOP: u32 = 0
export const STATUS_RETURN: u32 = 1
export const STATUS_REVERT: u32 = 2
export const STATUS_OUT_OF_GAS: u32 = 3
export const STATUS_INVALID_JUMP: u32 = 4
export const STATUS_STACK_UNDERFLOW: u32 = 5
export const STATUS_STACK_OVERFLOW: u32 = 6
export const STATUS_INVALID_OPCODE: u32 = 7
export const STATUS_STATIC_STATE_CHANGE: u32 = 8
export const STATUS_REFUND_EXHAUSTED: u32 = 9
/** The host has not the slot at hand: it fetches it, then calls resume(), which runs the same instruction again. */
export const STATUS_NEEDS_STORAGE: u32 = 10
/** An instruction (or a gas limit) this prototype does not handle: the host runs the call in @ethereumjs/evm. */
export const STATUS_UNSUPPORTED: u32 = 11

/** The largest gas limit run here: memory past 2^32 bytes then costs more gas than there is (>= 2^45). */
export const MAX_GAS: i64 = (<i64>1) << 40
export const FLAG_STATIC: u32 = 1

const COLD_SLOAD: i64 = 2100
const WARM_READ: i64 = 100
const SSTORE_SENTRY: i64 = 2300
const SSTORE_SET: i64 = 20000
const SSTORE_RESET: i64 = 2900 // 5000 - COLD_SLOAD
const SSTORE_CLEAR_REFUND: i64 = 4800
const SSTORE_INIT_REFUND: i64 = 19900 // SSTORE_SET - WARM_READ
const SSTORE_CLEAN_REFUND_WARM: i64 = 2800 // 5000 - COLD_SLOAD - WARM_READ
const SSTORE_CLEAN_REFUND_COLD: i64 = 4900
const EXP_BYTE: i64 = 50
const NO_OFFSET: u64 = 0xffffffffffffffff

// The frame's registers between run/resume, and its memory.
let frameCode: usize = 0
let framePc: usize = 0
let frameSp: usize = STACK
let frameGas: i64 = 0
let frameRefund: i64 = 0
let frameAddressId: u32 = 0
let frameFlags: u32 = 0
let callDataLength: usize = 0
/** Where the EVM memory starts in the call's region (after the calldata). */
let memoryOffset: usize = 0
let memoryWords: u64 = 0
let memoryCost: i64 = 0

/** Sets up the call's calldata length (the host writes the bytes at the start of the call's region) and empty memory. */
export function setCallData(length: usize): void {
  callDataLength = length
  memoryOffset = (length + 31) & ~(<usize>31)
  memoryWords = 0
  memoryCost = 0
}

/** Starts a frame: the code record, its gas, the executing address's id (warm set key), flags (FLAG_STATIC). */
export function startFrame(rec: usize, gas: i64, addressId: u32, flags: u32): u32 {
  frameCode = rec
  framePc = 0
  frameSp = STACK
  frameGas = gas
  frameRefund = 0
  frameAddressId = addressId
  frameFlags = flags
  if (gas < 0 || gas >= MAX_GAS) return finish(STATUS_UNSUPPORTED, 0, gas, 0, 0)
  return interpret()
}

function memoryBase(): usize {
  return callRegionBase() + memoryOffset
}

function finish(status: u32, pc: usize, gas: i64, retPtr: usize, retLen: usize): u32 {
  store<u32>(RESULT_STATUS, status)
  store<u32>(RESULT_RET_PTR, <u32>retPtr)
  store<u32>(RESULT_RET_LEN, <u32>retLen)
  store<u32>(RESULT_PC, <u32>pc)
  store<u32>(RESULT_OPCODE, <u32>load<u8>(frameCode + CODE_HEADER + pc))
  store<i64>(RESULT_GAS_LEFT, gas)
  store<i64>(RESULT_REFUND, frameRefund)
  return status
}

/** An exceptional halt: all gas consumed. */
function fail(status: u32, pc: usize): u32 {
  return finish(status, pc, 0, 0, 0)
}

/** The word as a memory offset or size: its value below 2^32, else NO_OFFSET (then surely out of gas). */
function memoryArgument(p: usize): u64 {
  if (fits64(p)) {
    const v = load<u64>(p)
    if (v <= 0xffffffff) return v
  }
  return NO_OFFSET
}

/**
 * Charges the expansion of memory to `end` bytes (3 gas a word and words² / 512): the gas left, -1
 * when out of gas, -2 when linear memory cannot grow (the host then falls back).
 */
function expandMemory(gas: i64, end: u64): i64 {
  if (end > 0x100000000) return -1
  const words = (end + 31) >> 5
  if (words <= memoryWords) return gas
  const cost = <i64>(words * 3 + (words * words) / 512)
  gas -= cost - memoryCost
  if (gas < 0) return -1
  if (!growCallRegion(memoryOffset + <usize>(words << 5))) return -2
  memory.fill(memoryBase() + <usize>(memoryWords << 5), 0, <usize>((words - memoryWords) << 5))
  memoryWords = words
  memoryCost = cost
  return gas
}

/** A JUMP/JUMPI destination: the pc, or -1 when it is not a JUMPDEST of the code. */
function jumpTarget(p: usize): i64 {
  if (!fits64(p)) return -1
  const dest = load<u64>(p)
  if (dest >= <u64>load<u32>(frameCode)) return -1
  const bitmap = frameCode + <usize>load<u32>(frameCode, 4)
  if (((load<u8>(bitmap + <usize>(dest >> 3)) >> <u8>(dest & 7)) & 1) == 0) return -1
  return <i64>dest
}

/** A mask of the low `bytes` bytes of a limb (1..8). */
function lowBytes(bytes: usize): u64 {
  return bytes >= 8 ? 0xffffffffffffffff : ((<u64>1) << ((<u64>bytes) << 3)) - 1
}

/** SSTORE's gas (EIP-2200 as EIP-2929 and EIP-3529 amend it), refunds counted; the cold surcharge aside. */
function sstoreGas(warm: bool): i64 {
  const current = IO_VALUE
  const original = IO_VALUE + 32
  const value = IO_NEW
  if (equal(current, value)) return WARM_READ
  if (equal(original, current)) {
    if (isZero(original)) return SSTORE_SET
    if (isZero(value)) frameRefund += SSTORE_CLEAR_REFUND
    return SSTORE_RESET
  }
  if (!isZero(original)) {
    if (isZero(current)) frameRefund -= SSTORE_CLEAR_REFUND
    else if (isZero(value)) frameRefund += SSTORE_CLEAR_REFUND
  }
  if (equal(original, value)) {
    if (isZero(original)) frameRefund += SSTORE_INIT_REFUND
    else frameRefund += warm ? SSTORE_CLEAN_REFUND_WARM : SSTORE_CLEAN_REFUND_COLD
  }
  return WARM_READ
}

/** Pauses for the host (NEEDS_STORAGE): the instruction at pc runs again on resume. */
function pause(pc: usize, sp: usize, gas: i64): u32 {
  framePc = pc
  frameSp = sp
  frameGas = gas
  return finish(STATUS_NEEDS_STORAGE, pc, gas, 0, 0)
}

/** Continues a frame paused by NEEDS_STORAGE. */
export function resume(): u32 {
  return interpret()
}

function interpret(): u32 {
  const code = frameCode + CODE_HEADER
  let pc = framePc
  let sp = frameSp
  let gas = frameGas
  while (true) {
    const op = <u32>load<u8>(code + pc)
    gas -= <i64>load<u32>(GAS_TABLE + ((<usize>op) << 2))
    if (gas < 0) return fail(STATUS_OUT_OF_GAS, pc)
    switch (op) {
      case 0x00: // STOP
        return finish(STATUS_STOP, pc, gas, 0, 0)
      case 0x01: {
        // ADD
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        const a = sp - 32
        const b = sp - 64
        const a0 = load<u64>(a)
        const a1 = load<u64>(a, 8)
        const a2 = load<u64>(a, 16)
        const a3 = load<u64>(a, 24)
        const b0 = load<u64>(b)
        const b1 = load<u64>(b, 8)
        const b2 = load<u64>(b, 16)
        const b3 = load<u64>(b, 24)
        const r0 = a0 + b0
        let carry = u64(r0 < a0)
        const s1 = a1 + b1
        const r1 = s1 + carry
        carry = u64(s1 < a1) | u64(r1 < s1)
        const s2 = a2 + b2
        const r2 = s2 + carry
        carry = u64(s2 < a2) | u64(r2 < s2)
        store<u64>(b, r0)
        store<u64>(b, r1, 8)
        store<u64>(b, r2, 16)
        store<u64>(b, a3 + b3 + carry, 24)
        sp = a
        pc++
        break
      }
      case 0x02: {
        // MUL
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        mul(sp - 32, sp - 64, sp - 64)
        sp -= 32
        pc++
        break
      }
      case 0x03: {
        // SUB
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        const a = sp - 32
        const b = sp - 64
        const a0 = load<u64>(a)
        const a1 = load<u64>(a, 8)
        const a2 = load<u64>(a, 16)
        const a3 = load<u64>(a, 24)
        const b0 = load<u64>(b)
        const b1 = load<u64>(b, 8)
        const b2 = load<u64>(b, 16)
        const b3 = load<u64>(b, 24)
        let borrow = u64(a0 < b0)
        const d1 = a1 - b1
        const r1 = d1 - borrow
        borrow = u64(a1 < b1) | u64(d1 < borrow)
        const d2 = a2 - b2
        const r2 = d2 - borrow
        borrow = u64(a2 < b2) | u64(d2 < borrow)
        store<u64>(b, a0 - b0)
        store<u64>(b, r1, 8)
        store<u64>(b, r2, 16)
        store<u64>(b, a3 - b3 - borrow, 24)
        sp = a
        pc++
        break
      }
      case 0x04: {
        // DIV
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        divMod(sp - 32, sp - 64, sp - 64, 0)
        sp -= 32
        pc++
        break
      }
      case 0x05: {
        // SDIV
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        signedDivMod(sp - 32, sp - 64, sp - 64, 0)
        sp -= 32
        pc++
        break
      }
      case 0x06: {
        // MOD
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        const a = sp - 32
        const b = sp - 64
        if (fits64(a) && fits64(b)) {
          const divisor = load<u64>(b)
          store<u64>(b, divisor == 0 ? 0 : load<u64>(a) % divisor)
        } else divMod(a, b, 0, b)
        sp = a
        pc++
        break
      }
      case 0x07: {
        // SMOD
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        signedDivMod(sp - 32, sp - 64, 0, sp - 64)
        sp -= 32
        pc++
        break
      }
      case 0x0a: {
        // EXP
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        gas -= EXP_BYTE * <i64>byteLength(sp - 64)
        if (gas < 0) return fail(STATUS_OUT_OF_GAS, pc)
        exp(sp - 32, sp - 64, sp - 64)
        sp -= 32
        pc++
        break
      }
      case 0x0b: {
        // SIGNEXTEND
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        const b = sp - 32
        if (fits64(b) && load<u64>(b) < 31) signExtend(sp - 64, <u32>load<u64>(b))
        sp = b
        pc++
        break
      }
      case 0x10: // LT
      case 0x11: // GT
      case 0x12: // SLT
      case 0x13: // SGT
      case 0x14: {
        // EQ
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        const a = sp - 32
        const b = sp - 64
        let r: bool = false
        if (op == 0x10) r = lessThan(a, b)
        else if (op == 0x11) r = lessThan(b, a)
        else if (op == 0x12) r = signedLessThan(a, b)
        else if (op == 0x13) r = signedLessThan(b, a)
        else r = equal(a, b)
        setU64(b, u64(r))
        sp = a
        pc++
        break
      }
      case 0x15: {
        // ISZERO
        if (sp < STACK + 32) return fail(STATUS_STACK_UNDERFLOW, pc)
        const a = sp - 32
        setU64(a, u64(isZero(a)))
        pc++
        break
      }
      case 0x16: // AND
      case 0x17: // OR
      case 0x18: {
        // XOR
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        const a = sp - 32
        const b = sp - 64
        for (let i: usize = 0; i < 32; i += 8) {
          const x = load<u64>(a + i)
          const y = load<u64>(b + i)
          store<u64>(b + i, op == 0x16 ? x & y : op == 0x17 ? x | y : x ^ y)
        }
        sp = a
        pc++
        break
      }
      case 0x19: {
        // NOT
        if (sp < STACK + 32) return fail(STATUS_STACK_UNDERFLOW, pc)
        const a = sp - 32
        store<u64>(a, ~load<u64>(a))
        store<u64>(a, ~load<u64>(a, 8), 8)
        store<u64>(a, ~load<u64>(a, 16), 16)
        store<u64>(a, ~load<u64>(a, 24), 24)
        pc++
        break
      }
      case 0x1a: {
        // BYTE
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        const i = sp - 32
        const x = sp - 64
        let v: u64 = 0
        if (fits64(i) && load<u64>(i) < 32) {
          const shift = (31 - load<u64>(i)) << 3
          v = (load<u64>(x + <usize>(shift >> 6) * 8) >> (shift & 63)) & 0xff
        }
        setU64(x, v)
        sp = i
        pc++
        break
      }
      case 0x1b: // SHL
      case 0x1c: // SHR
      case 0x1d: {
        // SAR
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        const s = sp - 32
        const v = sp - 64
        const fill: u64 = op == 0x1d && load<u64>(v, 24) >> 63 != 0 ? 0xffffffffffffffff : 0
        if (fits64(s) && load<u64>(s) < 256) {
          const shift = <u32>load<u64>(s)
          if (op == 0x1b) shiftLeft(v, shift, v)
          else shiftRight(v, shift, fill, v)
        } else {
          store<u64>(v, fill)
          store<u64>(v, fill, 8)
          store<u64>(v, fill, 16)
          store<u64>(v, fill, 24)
        }
        sp = s
        pc++
        break
      }
      case 0x30: // ADDRESS
      case 0x33: // CALLER
      case 0x34: {
        // CALLVALUE
        if (sp >= STACK_END) return fail(STATUS_STACK_OVERFLOW, pc)
        fromBigEndian(op == 0x30 ? ENV_ADDRESS : op == 0x33 ? ENV_CALLER : ENV_CALLVALUE, sp)
        sp += 32
        pc++
        break
      }
      case 0x35: {
        // CALLDATALOAD
        if (sp < STACK + 32) return fail(STATUS_STACK_UNDERFLOW, pc)
        const a = sp - 32
        const offset = memoryArgument(a)
        if (offset >= <u64>callDataLength) setU64(a, 0)
        else {
          const available = <usize>(<u64>callDataLength - offset)
          memory.fill(TMP_D, 0, 32)
          memory.copy(TMP_D, callRegionBase() + <usize>offset, available < 32 ? available : 32)
          fromBigEndian(TMP_D, a)
        }
        pc++
        break
      }
      case 0x36: {
        // CALLDATASIZE
        if (sp >= STACK_END) return fail(STATUS_STACK_OVERFLOW, pc)
        setU64(sp, <u64>callDataLength)
        sp += 32
        pc++
        break
      }
      case 0x50: {
        // POP
        if (sp < STACK + 32) return fail(STATUS_STACK_UNDERFLOW, pc)
        sp -= 32
        pc++
        break
      }
      case 0x51: {
        // MLOAD
        if (sp < STACK + 32) return fail(STATUS_STACK_UNDERFLOW, pc)
        const a = sp - 32
        const offset = memoryArgument(a)
        if (offset == NO_OFFSET) return fail(STATUS_OUT_OF_GAS, pc)
        gas = expandMemory(gas, offset + 32)
        if (gas < 0) return gas == -1 ? fail(STATUS_OUT_OF_GAS, pc) : finish(STATUS_UNSUPPORTED, pc, 0, 0, 0)
        fromBigEndian(memoryBase() + <usize>offset, a)
        pc++
        break
      }
      case 0x52: // MSTORE
      case 0x53: {
        // MSTORE8
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        const a = sp - 32
        const offset = memoryArgument(a)
        if (offset == NO_OFFSET) return fail(STATUS_OUT_OF_GAS, pc)
        gas = expandMemory(gas, offset + (op == 0x52 ? 32 : 1))
        if (gas < 0) return gas == -1 ? fail(STATUS_OUT_OF_GAS, pc) : finish(STATUS_UNSUPPORTED, pc, 0, 0, 0)
        if (op == 0x52) toBigEndian(sp - 64, memoryBase() + <usize>offset)
        else store<u8>(memoryBase() + <usize>offset, <u8>load<u64>(sp - 64))
        sp -= 64
        pc++
        break
      }
      case 0x54: {
        // SLOAD
        if (sp < STACK + 32) return fail(STATUS_STACK_UNDERFLOW, pc)
        const key = sp - 32
        const warm = isWarm(key, frameAddressId)
        const cost = warm ? WARM_READ : COLD_SLOAD
        if (gas < cost) return fail(STATUS_OUT_OF_GAS, pc)
        toBigEndian(key, IO_KEY)
        if (host.sload(IO_KEY, IO_VALUE) == 0) return pause(pc, sp, gas)
        gas -= cost
        if (!warm) addWarm(key, frameAddressId)
        fromBigEndian(IO_VALUE, key)
        pc++
        break
      }
      case 0x55: {
        // SSTORE
        if (frameFlags & FLAG_STATIC) return fail(STATUS_STATIC_STATE_CHANGE, pc)
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        if (gas <= SSTORE_SENTRY) return fail(STATUS_OUT_OF_GAS, pc)
        const key = sp - 32
        toBigEndian(key, IO_KEY)
        if (host.storageForStore(IO_KEY, IO_VALUE) == 0) return pause(pc, sp, gas)
        toBigEndian(sp - 64, IO_NEW)
        const warm = isWarm(key, frameAddressId)
        gas -= sstoreGas(warm) + (warm ? 0 : COLD_SLOAD)
        if (gas < 0) return fail(STATUS_OUT_OF_GAS, pc)
        if (frameRefund < 0) return fail(STATUS_REFUND_EXHAUSTED, pc)
        if (!warm) addWarm(key, frameAddressId)
        host.sstore(IO_KEY, IO_NEW)
        sp -= 64
        pc++
        break
      }
      case 0x56: {
        // JUMP
        if (sp < STACK + 32) return fail(STATUS_STACK_UNDERFLOW, pc)
        const dest = jumpTarget(sp - 32)
        if (dest < 0) return fail(STATUS_INVALID_JUMP, pc)
        sp -= 32
        pc = <usize>dest
        break
      }
      case 0x57: {
        // JUMPI
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        sp -= 64
        if (isZero(sp)) pc++
        else {
          const dest = jumpTarget(sp + 32)
          if (dest < 0) return fail(STATUS_INVALID_JUMP, pc)
          pc = <usize>dest
        }
        break
      }
      case 0x58: // PC
      case 0x59: // MSIZE
      case 0x5a: {
        // GAS
        if (sp >= STACK_END) return fail(STATUS_STACK_OVERFLOW, pc)
        setU64(sp, op == 0x58 ? <u64>pc : op == 0x59 ? memoryWords << 5 : <u64>gas)
        sp += 32
        pc++
        break
      }
      case 0x5b: // JUMPDEST
        pc++
        break
      case 0x5f: {
        // PUSH0
        if (sp >= STACK_END) return fail(STATUS_STACK_OVERFLOW, pc)
        setU64(sp, 0)
        sp += 32
        pc++
        break
      }
      case 0x60: {
        // PUSH1
        if (sp >= STACK_END) return fail(STATUS_STACK_OVERFLOW, pc)
        setU64(sp, <u64>load<u8>(code + pc + 1))
        sp += 32
        pc += 2
        break
      }
      case 0x61:
      case 0x62:
      case 0x63:
      case 0x64:
      case 0x65:
      case 0x66:
      case 0x67:
      case 0x68:
      case 0x69:
      case 0x6a:
      case 0x6b:
      case 0x6c:
      case 0x6d:
      case 0x6e:
      case 0x6f:
      case 0x70:
      case 0x71:
      case 0x72:
      case 0x73:
      case 0x74:
      case 0x75:
      case 0x76:
      case 0x77:
      case 0x78:
      case 0x79:
      case 0x7a:
      case 0x7b:
      case 0x7c:
      case 0x7d:
      case 0x7e:
      case 0x7f: {
        // PUSH2..PUSH32: the immediate read as big-endian u64s ending at its last byte (the bytes before
        // it, opcode and earlier code or the record's header, masked off; past the code, the zero pad).
        if (sp >= STACK_END) return fail(STATUS_STACK_OVERFLOW, pc)
        const n = <usize>(op - 0x5f)
        const end = code + pc + 1 + n
        if (n <= 8) {
          setU64(sp, bswap<u64>(load<u64>(end - 8)) & lowBytes(n))
        } else {
          let l1 = bswap<u64>(load<u64>(end - 16))
          let l2: u64 = 0
          let l3: u64 = 0
          if (n <= 16) l1 &= lowBytes(n - 8)
          else {
            l2 = bswap<u64>(load<u64>(end - 24))
            if (n <= 24) l2 &= lowBytes(n - 16)
            else l3 = bswap<u64>(load<u64>(end - 32)) & lowBytes(n - 24)
          }
          store<u64>(sp, bswap<u64>(load<u64>(end - 8)))
          store<u64>(sp, l1, 8)
          store<u64>(sp, l2, 16)
          store<u64>(sp, l3, 24)
        }
        sp += 32
        pc += n + 1
        break
      }
      case 0x80:
      case 0x81:
      case 0x82:
      case 0x83:
      case 0x84:
      case 0x85:
      case 0x86:
      case 0x87:
      case 0x88:
      case 0x89:
      case 0x8a:
      case 0x8b:
      case 0x8c:
      case 0x8d:
      case 0x8e:
      case 0x8f: {
        // DUP1..DUP16
        const n = <usize>(op - 0x7f)
        if (sp < STACK + (n << 5)) return fail(STATUS_STACK_UNDERFLOW, pc)
        if (sp >= STACK_END) return fail(STATUS_STACK_OVERFLOW, pc)
        copyWord(sp, sp - (n << 5))
        sp += 32
        pc++
        break
      }
      case 0x90:
      case 0x91:
      case 0x92:
      case 0x93:
      case 0x94:
      case 0x95:
      case 0x96:
      case 0x97:
      case 0x98:
      case 0x99:
      case 0x9a:
      case 0x9b:
      case 0x9c:
      case 0x9d:
      case 0x9e:
      case 0x9f: {
        // SWAP1..SWAP16
        const n = <usize>(op - 0x8f)
        if (sp < STACK + ((n + 1) << 5)) return fail(STATUS_STACK_UNDERFLOW, pc)
        const a = sp - 32
        const b = sp - ((n + 1) << 5)
        const a0 = load<u64>(a)
        const a1 = load<u64>(a, 8)
        const a2 = load<u64>(a, 16)
        const a3 = load<u64>(a, 24)
        copyWord(a, b)
        store<u64>(b, a0)
        store<u64>(b, a1, 8)
        store<u64>(b, a2, 16)
        store<u64>(b, a3, 24)
        pc++
        break
      }
      case 0xf3: // RETURN
      case 0xfd: {
        // REVERT
        if (sp < STACK + 64) return fail(STATUS_STACK_UNDERFLOW, pc)
        const status = op == 0xf3 ? STATUS_RETURN : STATUS_REVERT
        if (isZero(sp - 64)) return finish(status, pc, gas, 0, 0)
        const offset = memoryArgument(sp - 32)
        const length = memoryArgument(sp - 64)
        if (offset == NO_OFFSET || length == NO_OFFSET) return fail(STATUS_OUT_OF_GAS, pc)
        gas = expandMemory(gas, offset + length)
        if (gas < 0) return gas == -1 ? fail(STATUS_OUT_OF_GAS, pc) : finish(STATUS_UNSUPPORTED, pc, 0, 0, 0)
        return finish(status, pc, gas, memoryBase() + <usize>offset, <usize>length)
      }
      case 0xfe: // INVALID
        return fail(STATUS_INVALID_OPCODE, pc)
      default:
        return finish(STATUS_UNSUPPORTED, pc, gas, 0, 0)
    }
  }
}
