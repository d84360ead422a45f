// The interpreter: one frame's dispatch loop over analysed code (code.ts), the stack in linear memory
// (layout.ts), static gas from the table the host fills from its fork (gasTable.ts), and dynamic gas
// where the instruction needs it. It runs the instructions that need nothing but the frame (the
// arithmetic, the stack, memory, jumps, the call's inputs) and SLOADs the slot table or the host
// answers at once. Everything else stops the run with STATUS_HOST before the instruction has any
// effect (its static gas not charged): the host runs that one instruction in @ethereumjs/evm, on the
// frame's state copied out and back, then resumes. Every exceptional halt (out of gas, a bad jump,
// the stack's limits) stops the same way, so that @ethereumjs/evm raises its own error.

import { CODE_HEADER } from './code'
import * as host from './host'
import { keccak } from './keccak'
import {
  alloc,
  callRegionBase,
  ENV_ADDRESS,
  ENV_CALLER,
  ENV_CALLVALUE,
  GAS_TABLE,
  growCallRegion,
  IO_KEY,
  IO_VALUE,
  KECCAK_OUT,
  RESULT_DEPTH,
  RESULT_DIRTY_HI,
  RESULT_DIRTY_LO,
  RESULT_GAS_LEFT,
  RESULT_MEM_COST,
  RESULT_MEM_PTR,
  RESULT_MEM_WORDS,
  RESULT_OPCODE,
  RESULT_OUT_LEN,
  RESULT_OUT_PTR,
  RESULT_PC,
  RESULT_STATUS,
  STACK,
  STACK_END,
  TMP_D,
} from './layout'
import { findSlot, putSlot } from './slots'
import {
  addMod,
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
  mulMod,
  setU64,
  shiftLeft,
  shiftRight,
  signedDivMod,
  signedLessThan,
  signExtend,
  toBigEndian,
} from './word'

/** The host runs the instruction at RESULT_PC (with RESULT_GAS_LEFT, its static gas not charged), then resumes. */
export const STATUS_HOST: u32 = 0
/** The gas fell below the yield mark at a jump: the host checks its deadline and shares the thread, then resumes. */
export const STATUS_YIELD: u32 = 1
/** The frame ended with STOP (or ran past its code's end). */
export const STATUS_STOP: u32 = 2
/** The frame ended with RETURN: its output at RESULT_OUT_PTR, RESULT_OUT_LEN bytes. */
export const STATUS_RETURN: u32 = 3
/** The frame ended with REVERT: its output as RETURN's. */
export const STATUS_REVERT: u32 = 4
/**
 * Stepping (runStepping, resumeStepping: a frame something observes step by step): the wasm ran one
 * instruction; RESULT_PC, RESULT_GAS_LEFT, RESULT_DEPTH and memory are the state after it.
 */
export const STATUS_STEP: u32 = 5

/** The largest gas a frame is run with: memory past 2^32 bytes then costs more gas than there is (>= 2^45). */
export const MAX_GAS: i64 = (<i64>1) << 40

const NO_OFFSET: u64 = 0xffffffffffffffff

// The frame's registers between runs, and its memory.
let frameCode: usize = 0
let framePc: usize = 0
let frameSp: usize = STACK
let frameGas: i64 = 0
let callDataLength: usize = 0
/** Where the EVM memory starts in the call's region (after the calldata). */
let memoryOffset: usize = 0
let memoryWords: u64 = 0
let memoryCost: i64 = 0
/** A jump that leaves less gas than this yields to the host (-1: never). */
let yieldGas: i64 = -1
/** SLOAD of a slot in the slot table (EIP-2929's warm read), and EXP's gas an exponent byte: the fork's. */
let warmSloadGas: i64 = 100
let expByteGas: i64 = 50
/** KECCAK256's gas a word, and the *COPY instructions' (the fork's keccak256WordGas and copyGas). */
let keccakWordGas: i64 = 6
let copyWordGas: i64 = 3
/** The return data of the frame's last call or create (the host writes it after each), in a heap buffer. */
let returnDataPtr: usize = 0
let returnDataCapacity: usize = 0
let returnDataLength: usize = 0

export function setParams(warmSload: i64, expByte: i64, keccakWord: i64, copyWord: i64): void {
  warmSloadGas = warmSload
  expByteGas = expByte
  keccakWordGas = keccakWord
  copyWordGas = copyWord
}

/**
 * The frame's return data is now `length` bytes (after a call or create the host ran): answers where
 * the host writes them. The buffer, on the heap, is made larger when needed (which may move the
 * call's region: RESULT_MEM_PTR and setMemory's answer say where it is then).
 */
export function setReturnData(length: u32): usize {
  const n = <usize>length
  if (n > returnDataCapacity) {
    returnDataCapacity = n > 2 * returnDataCapacity ? (n > 256 ? n : 256) : 2 * returnDataCapacity
    returnDataPtr = alloc(returnDataCapacity)
  }
  returnDataLength = n
  store<u32>(RESULT_MEM_PTR, <u32>memoryBase())
  return returnDataPtr
}

/** The heap was emptied: the return data buffer with it. */
export function forgetReturnData(): void {
  returnDataPtr = 0
  returnDataCapacity = 0
  returnDataLength = 0
}

export function setYieldGas(gas: i64): void {
  yieldGas = gas
}

/** Sets up the call's calldata length (the host writes the bytes at the start of the call's region) and empty memory. */
export function setCallData(length: usize): void {
  callDataLength = length
  memoryOffset = (length + 31) & ~(<usize>31)
  memoryWords = 0
  memoryCost = 0
  returnDataLength = 0
}

/** Starts a frame: the code record and its gas (below MAX_GAS). */
export function startFrame(rec: usize, gas: i64): u32 {
  setUpFrame(rec, gas)
  return interpret<i32>()
}

/** Starts a frame that returns to the host after every instruction it runs (STATUS_STEP). */
export function startSteppedFrame(rec: usize, gas: i64): u32 {
  setUpFrame(rec, gas)
  return interpret<bool>()
}

function setUpFrame(rec: usize, gas: i64): void {
  frameCode = rec
  framePc = 0
  frameSp = STACK
  frameGas = gas
  store<u32>(RESULT_DIRTY_LO, 0xffffffff)
  store<u32>(RESULT_DIRTY_HI, 0)
}

/** The host ran an instruction: the frame goes on at `pc` with `depth` words on the stack (the host wrote them) and `gas`. */
export function setState(pc: u32, depth: u32, gas: i64): void {
  framePc = <usize>pc
  frameSp = STACK + ((<usize>depth) << 5)
  frameGas = gas
}

/**
 * The host's instruction left memory at `words` words that have cost `cost`: the region grown
 * (zeros past the old size) for the host to write; answers where memory starts, 0 when linear memory
 * cannot grow that far.
 */
export function setMemory(words: u32, cost: i64): usize {
  if (<u64>words > memoryWords) {
    if (!growCallRegion(memoryOffset + ((<usize>words) << 5))) return 0
    memory.fill(memoryBase() + <usize>(memoryWords << 5), 0, <usize>((<u64>words - memoryWords) << 5))
  }
  memoryWords = <u64>words
  memoryCost = cost
  return memoryBase()
}

/** The host ran an SSTORE: the slot (the stack's top) now holds the value under it, and is warm. */
export function noteStore(): void {
  putSlot(frameSp - 32, frameSp - 64)
}

/** Continues the frame where it stopped. */
export function resume(): u32 {
  return interpret<i32>()
}

/** Continues a stepped frame where it stopped: it runs one instruction (or stops before a host one). */
export function resumeStepping(): u32 {
  return interpret<bool>()
}

function memoryBase(): usize {
  return callRegionBase() + memoryOffset
}

/** Stops the run with the frame's registers saved and reported. */
function stop(status: u32, pc: usize, sp: usize, gas: i64): u32 {
  framePc = pc
  frameSp = sp
  frameGas = gas
  store<u32>(RESULT_STATUS, status)
  store<u32>(RESULT_PC, <u32>pc)
  store<u32>(RESULT_DEPTH, <u32>((sp - STACK) >> 5))
  store<i64>(RESULT_GAS_LEFT, gas)
  store<u32>(RESULT_MEM_WORDS, <u32>memoryWords)
  store<u32>(RESULT_OPCODE, <u32>load<u8>(frameCode + CODE_HEADER + pc))
  store<i64>(RESULT_MEM_COST, memoryCost)
  store<u32>(RESULT_MEM_PTR, <u32>memoryBase())
  return status
}

/** The frame ends (STOP, RETURN, REVERT) with the output [ptr, ptr + len) of linear memory. */
function halt(status: u32, pc: usize, sp: usize, gas: i64, ptr: usize, len: usize): u32 {
  store<u32>(RESULT_OUT_PTR, <u32>ptr)
  store<u32>(RESULT_OUT_LEN, <u32>len)
  return stop(status, pc, sp, gas)
}

/** EVM memory [lo, hi) was written: the range the host copies out before an instruction that reads memory. */
function markDirty(lo: u64, hi: u64): void {
  if (<u32>lo < load<u32>(RESULT_DIRTY_LO)) store<u32>(RESULT_DIRTY_LO, <u32>lo)
  if (<u32>hi > load<u32>(RESULT_DIRTY_HI)) store<u32>(RESULT_DIRTY_HI, <u32>hi)
}

/** The gas of `length` bytes at `perWord` a 32-byte word (length below 2^32). */
function wordGas(length: u64, perWord: i64): i64 {
  return <i64>((length + 31) >> 5) * perWord
}

/**
 * Copies `length` bytes of a source of `sourceLength` bytes at `source`, from `offset` (NO_OFFSET: past
 * any end), to EVM memory at `dst`, zeros past the source's end.
 */
function copyIn(dst: u64, source: usize, sourceLength: usize, offset: u64, length: u64): void {
  const to = memoryBase() + <usize>dst
  let available: u64 = 0
  if (offset < <u64>sourceLength) available = <u64>sourceLength - offset
  if (available > length) available = length
  if (available > 0) memory.copy(to, source + <usize>offset, <usize>available)
  if (available < length) memory.fill(to + <usize>available, 0, <usize>(length - available))
  markDirty(dst, dst + length)
}

/** The host runs the instruction at pc, on the state before it (`gas`: before its static gas). */
function bail(pc: usize, sp: usize, gas: i64): u32 {
  return stop(STATUS_HOST, pc, sp, gas)
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
 * Charges the expansion of memory to `end` bytes (3 gas a word and words² / 512): the gas left, or
 * -1 when out of gas or when linear memory cannot grow (the host then runs the instruction).
 */
function expandMemory(gas: i64, end: u64): i64 {
  if (end > 0x100000000) return -1
  const words = (end + 31) >> 5
  if (words <= memoryWords) return gas
  const cost = <i64>(words * 3 + (words * words) / 512)
  gas -= cost - memoryCost
  if (gas < 0) return -1
  if (!growCallRegion(memoryOffset + <usize>(words << 5))) return -1
  memory.fill(memoryBase() + <usize>(memoryWords << 5), 0, <usize>((words - memoryWords) << 5))
  memoryWords = words
  memoryCost = cost
  return gas
}

/** The gas expanding memory to `end` bytes costs now (0: no expansion), or -1 past 2^32 bytes. */
function expansionCost(end: u64): i64 {
  if (end > 0x100000000) return -1
  const words = (end + 31) >> 5
  if (words <= memoryWords) return 0
  return <i64>(words * 3 + (words * words) / 512) - memoryCost
}

/** Grows memory to `end` bytes (its gas charged already); false when linear memory cannot grow that far. */
function growMemory(end: u64): bool {
  const words = (end + 31) >> 5
  if (words <= memoryWords) return true
  if (!growCallRegion(memoryOffset + <usize>(words << 5))) return false
  memory.fill(memoryBase() + <usize>(memoryWords << 5), 0, <usize>((words - memoryWords) << 5))
  memoryWords = words
  memoryCost = <i64>(words * 3 + (words * words) / 512)
  return true
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

/**
 * The dispatch loop, compiled twice: `Stepping` bool returns STATUS_STEP after each instruction it
 * runs (the host reports it as a step), any other type runs on (the untraced loop has no such check).
 */
function interpret<Stepping>(): u32 {
  const code = frameCode + CODE_HEADER
  let pc = framePc
  let sp = frameSp
  let gas = frameGas
  while (true) {
    const op = <u32>load<u8>(code + pc)
    const before = gas
    gas -= load<i64>(GAS_TABLE + ((<usize>op) << 3))
    if (gas < 0) return bail(pc, sp, before)
    switch (op) {
      case 0x01: {
        // ADD
        if (sp < STACK + 64) return bail(pc, sp, before)
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
        if (sp < STACK + 64) return bail(pc, sp, before)
        mul(sp - 32, sp - 64, sp - 64)
        sp -= 32
        pc++
        break
      }
      case 0x03: {
        // SUB
        if (sp < STACK + 64) return bail(pc, sp, before)
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
        if (sp < STACK + 64) return bail(pc, sp, before)
        divMod(sp - 32, sp - 64, sp - 64, 0)
        sp -= 32
        pc++
        break
      }
      case 0x05: {
        // SDIV
        if (sp < STACK + 64) return bail(pc, sp, before)
        signedDivMod(sp - 32, sp - 64, sp - 64, 0)
        sp -= 32
        pc++
        break
      }
      case 0x06: {
        // MOD
        if (sp < STACK + 64) return bail(pc, sp, before)
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
        if (sp < STACK + 64) return bail(pc, sp, before)
        signedDivMod(sp - 32, sp - 64, 0, sp - 64)
        sp -= 32
        pc++
        break
      }
      case 0x0a: {
        // EXP
        if (sp < STACK + 64) return bail(pc, sp, before)
        gas -= expByteGas * <i64>byteLength(sp - 64)
        if (gas < 0) return bail(pc, sp, before)
        exp(sp - 32, sp - 64, sp - 64)
        sp -= 32
        pc++
        break
      }
      case 0x0b: {
        // SIGNEXTEND
        if (sp < STACK + 64) return bail(pc, sp, before)
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
        if (sp < STACK + 64) return bail(pc, sp, before)
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
        if (sp < STACK + 32) return bail(pc, sp, before)
        const a = sp - 32
        setU64(a, u64(isZero(a)))
        pc++
        break
      }
      case 0x16: // AND
      case 0x17: // OR
      case 0x18: {
        // XOR
        if (sp < STACK + 64) return bail(pc, sp, before)
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
        if (sp < STACK + 32) return bail(pc, sp, before)
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
        if (sp < STACK + 64) return bail(pc, sp, before)
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
        if (sp < STACK + 64) return bail(pc, sp, before)
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
        if (sp >= STACK_END) return bail(pc, sp, before)
        fromBigEndian(op == 0x30 ? ENV_ADDRESS : op == 0x33 ? ENV_CALLER : ENV_CALLVALUE, sp)
        sp += 32
        pc++
        break
      }
      case 0x35: {
        // CALLDATALOAD
        if (sp < STACK + 32) return bail(pc, sp, before)
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
        if (sp >= STACK_END) return bail(pc, sp, before)
        setU64(sp, <u64>callDataLength)
        sp += 32
        pc++
        break
      }
      case 0x50: {
        // POP
        if (sp < STACK + 32) return bail(pc, sp, before)
        sp -= 32
        pc++
        break
      }
      case 0x51: {
        // MLOAD
        if (sp < STACK + 32) return bail(pc, sp, before)
        const a = sp - 32
        const offset = memoryArgument(a)
        if (offset == NO_OFFSET) return bail(pc, sp, before)
        gas = expandMemory(gas, offset + 32)
        if (gas < 0) return bail(pc, sp, before)
        fromBigEndian(memoryBase() + <usize>offset, a)
        pc++
        break
      }
      case 0x52: // MSTORE
      case 0x53: {
        // MSTORE8
        if (sp < STACK + 64) return bail(pc, sp, before)
        const a = sp - 32
        const offset = memoryArgument(a)
        if (offset == NO_OFFSET) return bail(pc, sp, before)
        gas = expandMemory(gas, offset + (op == 0x52 ? 32 : 1))
        if (gas < 0) return bail(pc, sp, before)
        if (op == 0x52) toBigEndian(sp - 64, memoryBase() + <usize>offset)
        else store<u8>(memoryBase() + <usize>offset, <u8>load<u64>(sp - 64))
        markDirty(offset, offset + (op == 0x52 ? 32 : 1))
        sp -= 64
        pc++
        break
      }
      case 0x54: {
        // SLOAD: from the slot table (warm), else the host's answer at once, else the host runs it.
        if (sp < STACK + 32) return bail(pc, sp, before)
        const key = sp - 32
        const entry = findSlot(key)
        if (entry != 0) {
          gas -= warmSloadGas
          if (gas < 0) return bail(pc, sp, before)
          copyWord(key, entry + 32)
        } else {
          toBigEndian(key, IO_KEY)
          const cost = host.sload(IO_KEY, IO_VALUE, gas)
          if (cost < 0) return bail(pc, sp, before)
          gas -= cost
          fromBigEndian(IO_VALUE, TMP_D)
          putSlot(key, TMP_D)
          copyWord(key, TMP_D)
        }
        pc++
        break
      }
      case 0x56: {
        // JUMP
        if (sp < STACK + 32) return bail(pc, sp, before)
        const dest = jumpTarget(sp - 32)
        if (dest < 0) return bail(pc, sp, before)
        sp -= 32
        pc = <usize>dest
        if (gas < yieldGas) return stop(STATUS_YIELD, pc, sp, gas)
        break
      }
      case 0x57: {
        // JUMPI
        if (sp < STACK + 64) return bail(pc, sp, before)
        if (isZero(sp - 64)) {
          sp -= 64
          pc++
        } else {
          const dest = jumpTarget(sp - 32)
          if (dest < 0) return bail(pc, sp, before)
          sp -= 64
          pc = <usize>dest
          if (gas < yieldGas) return stop(STATUS_YIELD, pc, sp, gas)
        }
        break
      }
      case 0x58: // PC
      case 0x59: // MSIZE
      case 0x5a: {
        // GAS
        if (sp >= STACK_END) return bail(pc, sp, before)
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
        if (sp >= STACK_END) return bail(pc, sp, before)
        setU64(sp, 0)
        sp += 32
        pc++
        break
      }
      case 0x60: {
        // PUSH1
        if (sp >= STACK_END) return bail(pc, sp, before)
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
        if (sp >= STACK_END) return bail(pc, sp, before)
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
        if (sp < STACK + (n << 5)) return bail(pc, sp, before)
        if (sp >= STACK_END) return bail(pc, sp, before)
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
        if (sp < STACK + ((n + 1) << 5)) return bail(pc, sp, before)
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
      case 0x00:
        // STOP
        return halt(STATUS_STOP, pc, sp, gas, 0, 0)
      case 0x08: // ADDMOD
      case 0x09: {
        // MULMOD
        if (sp < STACK + 96) return bail(pc, sp, before)
        const m = sp - 96
        if (op == 0x08) addMod(sp - 32, sp - 64, m, m)
        else mulMod(sp - 32, sp - 64, m, m)
        sp -= 64
        pc++
        break
      }
      case 0x20: {
        // KECCAK256: memory expansion and the fork's gas a word, then the hash of [offset, offset + length).
        if (sp < STACK + 64) return bail(pc, sp, before)
        const length = memoryArgument(sp - 64)
        if (length == NO_OFFSET) return bail(pc, sp, before)
        let ptr: usize = 0
        if (length > 0) {
          const offset = memoryArgument(sp - 32)
          if (offset == NO_OFFSET) return bail(pc, sp, before)
          const extra = expansionCost(offset + length)
          if (extra < 0) return bail(pc, sp, before)
          gas -= extra + wordGas(length, keccakWordGas)
          if (gas < 0 || !growMemory(offset + length)) return bail(pc, sp, before)
          ptr = memoryBase() + <usize>offset
        }
        keccak(ptr, <usize>length)
        fromBigEndian(KECCAK_OUT, sp - 64)
        sp -= 32
        pc++
        break
      }
      case 0x37: // CALLDATACOPY
      case 0x39: // CODECOPY
      case 0x3e: {
        // RETURNDATACOPY: memory expansion and the fork's copy gas a word; zeros past the source's end
        // (past the return data's: an exceptional halt, the host's).
        if (sp < STACK + 96) return bail(pc, sp, before)
        const length = memoryArgument(sp - 96)
        if (length == NO_OFFSET) return bail(pc, sp, before)
        const from = memoryArgument(sp - 64)
        if (op == 0x3e && (from == NO_OFFSET || from + length > <u64>returnDataLength)) return bail(pc, sp, before)
        if (length > 0) {
          const dst = memoryArgument(sp - 32)
          if (dst == NO_OFFSET) return bail(pc, sp, before)
          const extra = expansionCost(dst + length)
          if (extra < 0) return bail(pc, sp, before)
          gas -= extra + wordGas(length, copyWordGas)
          if (gas < 0 || !growMemory(dst + length)) return bail(pc, sp, before)
          if (op == 0x37) copyIn(dst, callRegionBase(), callDataLength, from, length)
          else if (op == 0x39) copyIn(dst, code, <usize>load<u32>(frameCode), from, length)
          else copyIn(dst, returnDataPtr, returnDataLength, from, length)
        }
        sp -= 96
        pc++
        break
      }
      case 0x38: {
        // CODESIZE
        if (sp >= STACK_END) return bail(pc, sp, before)
        setU64(sp, <u64>load<u32>(frameCode))
        sp += 32
        pc++
        break
      }
      case 0x3d: {
        // RETURNDATASIZE
        if (sp >= STACK_END) return bail(pc, sp, before)
        setU64(sp, <u64>returnDataLength)
        sp += 32
        pc++
        break
      }
      case 0x5e: {
        // MCOPY (EIP-5656): 3 gas a word, and memory expanded over both ranges.
        if (sp < STACK + 96) return bail(pc, sp, before)
        const length = memoryArgument(sp - 96)
        if (length == NO_OFFSET) return bail(pc, sp, before)
        if (length > 0) {
          const dst = memoryArgument(sp - 32)
          const src = memoryArgument(sp - 64)
          if (dst == NO_OFFSET || src == NO_OFFSET) return bail(pc, sp, before)
          const end = (dst > src ? dst : src) + length
          const extra = expansionCost(end)
          if (extra < 0) return bail(pc, sp, before)
          gas -= extra + wordGas(length, 3)
          if (gas < 0 || !growMemory(end)) return bail(pc, sp, before)
          memory.copy(memoryBase() + <usize>dst, memoryBase() + <usize>src, <usize>length)
          markDirty(dst, dst + length)
        }
        sp -= 96
        pc++
        break
      }
      case 0xf3: // RETURN
      case 0xfd: {
        // REVERT: memory expanded over the output, which the host takes from linear memory.
        if (sp < STACK + 64) return bail(pc, sp, before)
        const length = memoryArgument(sp - 64)
        if (length == NO_OFFSET) return bail(pc, sp, before)
        let ptr: usize = 0
        if (length > 0) {
          const offset = memoryArgument(sp - 32)
          if (offset == NO_OFFSET) return bail(pc, sp, before)
          const extra = expansionCost(offset + length)
          if (extra < 0) return bail(pc, sp, before)
          gas -= extra
          if (gas < 0 || !growMemory(offset + length)) return bail(pc, sp, before)
          ptr = memoryBase() + <usize>offset
        }
        return halt(op == 0xf3 ? STATUS_RETURN : STATUS_REVERT, pc, sp - 64, gas, ptr, <usize>length)
      }
      default:
        return bail(pc, sp, before)
    }
    if (isBoolean<Stepping>()) return stop(STATUS_STEP, pc, sp, gas)
  }
}
