// Linear memory's layout. The first 64 KiB are this module's fixed regions, at constant addresses
// (asc --memoryBase 65536 puts the compiler's own data above them): the host reads and writes the
// exchange areas and the stack directly, at the addresses index.ts exports. Above the compiler's
// data, a bump heap holds what lives across frames (analysed code, the slot table); above that, the
// current frame's region (its calldata, then its EVM memory), which moves up when the heap grows
// during a frame.

/** The 32-byte big-endian storage key of a host SLOAD. */
export const IO_KEY: usize = 0x0000
/** Where the host writes the slot's value (32 bytes big-endian). */
export const IO_VALUE: usize = 0x0020

/** Where a run stopped, for the host: why, and the frame's registers there. */
export const RESULT: usize = 0x0080
export const RESULT_STATUS: usize = RESULT + 0x00 // u32: STATUS_HOST or STATUS_YIELD
export const RESULT_PC: usize = RESULT + 0x04 // u32, the pc of the instruction the host runs (HOST) or resumes at
export const RESULT_DEPTH: usize = RESULT + 0x08 // u32, the stack's depth in words
export const RESULT_MEM_DIRTY: usize = RESULT + 0x0c // u32, set when EVM memory was written; the host clears it
export const RESULT_GAS_LEFT: usize = RESULT + 0x10 // i64, before the instruction at RESULT_PC
export const RESULT_MEM_WORDS: usize = RESULT + 0x18 // u32, EVM memory's size in words
export const RESULT_OPCODE: usize = RESULT + 0x1c // u32, the opcode at RESULT_PC
export const RESULT_MEM_COST: usize = RESULT + 0x20 // i64, what memory of that size has cost
export const RESULT_MEM_PTR: usize = RESULT + 0x28 // u32, where EVM memory starts (moves when the heap grows)
/** u32s: the range of EVM memory [lo, hi) the wasm wrote since the host last copied it out (empty: lo >= hi); the host resets it. */
export const RESULT_DIRTY_LO: usize = RESULT + 0x2c
export const RESULT_DIRTY_HI: usize = RESULT + 0x30
/** u32s: where the output of a RETURN or REVERT is in linear memory, and its length (STATUS_RETURN, STATUS_REVERT). */
export const RESULT_OUT_PTR: usize = RESULT + 0x34
export const RESULT_OUT_LEN: usize = RESULT + 0x38

/** The frame's inputs, written by the host before a run. */
export const ENV: usize = 0x0100
export const ENV_ADDRESS: usize = ENV + 0x00 // 32 bytes big-endian (the 20-byte address left-padded)
export const ENV_CALLER: usize = ENV + 0x20 // 32 bytes big-endian
export const ENV_CALLVALUE: usize = ENV + 0x40 // 32 bytes big-endian

/** Static gas by opcode: 256 i64, set by the host from its fork's opcode table (HOST_OP: run by the host). */
export const GAS_TABLE: usize = 0x0200

/** Scratch for the arithmetic helpers (word.ts). */
export const SCRATCH: usize = 0x0c00
export const DIV_U: usize = SCRATCH + 0x00 // 9 u32 digits (+ pad)
export const DIV_V: usize = SCRATCH + 0x40 // 8 u32 digits
export const DIV_Q: usize = SCRATCH + 0x60 // 8 u32 digits
export const TMP_A: usize = SCRATCH + 0x80 // 32-byte words
export const TMP_B: usize = SCRATCH + 0xa0
export const TMP_C: usize = SCRATCH + 0xc0
export const TMP_D: usize = SCRATCH + 0xe0

/** Keccak-256 (keccak.ts): the state's 25 lanes, the hash, the round constants, rho/pi tables, the last block. */
export const KECCAK_STATE: usize = 0x0d00
export const KECCAK_OUT: usize = 0x0de0
export const KECCAK_ROUND: usize = 0x0e00
export const KECCAK_RHO: usize = 0x0ec0
export const KECCAK_PAD: usize = 0x0f00

/** ADDMOD/MULMOD's wide operands (word.ts): the 512-bit number, and the remainder's 32-bit digits. */
export const WIDE_N: usize = 0x1000 // 9 limbs
export const WIDE_U: usize = 0x1080 // 17 u32 digits
export const WIDE_V: usize = 0x1100 // 8 u32 digits

/** The EVM stack: 1024 words of four u64 limbs, least significant limb first, growing upwards. */
export const STACK: usize = 0x2000
export const STACK_LIMIT: usize = 1024
export const STACK_END: usize = STACK + STACK_LIMIT * 32

const HEAP_START: usize = (__heap_base + 31) & ~(<usize>31)
let heapTop: usize = HEAP_START
/** The current call's region (calldata, then EVM memory), above the heap; 0 when no call is set up. */
let callRegion: usize = 0
/** Its size in use: calldata and EVM memory so far. */
let callRegionSize: usize = 0

/** Grows linear memory to cover [0, end); false when the engine refuses more pages. */
export function ensureMemory(end: usize): bool {
  const have = (<usize>memory.size()) << 16
  if (end <= have) return true
  const pages = <i32>((end - have + 0xffff) >> 16)
  return memory.grow(pages) >= 0
}

/**
 * Allocates `size` bytes (32-byte aligned, not zeroed) on the heap, for the lifetime of the module. A
 * call's region above the heap is moved up to make room: its users address it through callRegion's
 * offsets (callDataPtr, memoryPtr), never through pointers kept across an allocation.
 */
export function alloc(size: usize): usize {
  const p = heapTop
  const n = (size + 31) & ~(<usize>31)
  if (callRegion != 0) {
    if (!ensureMemory(callRegion + n + callRegionSize)) unreachable()
    memory.copy(callRegion + n, callRegion, callRegionSize)
    callRegion += n
  } else if (!ensureMemory(p + n)) unreachable()
  heapTop = p + n
  return p
}

/** Starts a call's region with room for `callDataLength` bytes of calldata; its EVM memory starts after them. */
export function beginCallRegion(callDataLength: usize): usize {
  callRegion = heapTop
  callRegionSize = (callDataLength + 31) & ~(<usize>31)
  if (!ensureMemory(callRegion + callRegionSize)) unreachable()
  return callRegion
}

/** Ends the call's region (after the host has read the return data). */
export function endCallRegion(): void {
  callRegion = 0
  callRegionSize = 0
}

export function callRegionBase(): usize {
  return callRegion
}

/** Grows the call's region to `size` bytes; false when linear memory cannot grow that far. */
export function growCallRegion(size: usize): bool {
  if (size <= callRegionSize) return true
  if (!ensureMemory(callRegion + size)) return false
  callRegionSize = size
  return true
}

/** The heap's end: free memory above it while no call's region is set up. */
export function heapTopAddress(): usize {
  return heapTop
}

/** The heap's bytes in use (analysed code, the slot table). */
export function heapUsed(): usize {
  return heapTop - HEAP_START
}

/** Empties the heap (between frames: the host forgets its code records, the slot table is made again). */
export function resetHeapTop(): void {
  heapTop = HEAP_START
  callRegion = 0
  callRegionSize = 0
}
