// The module's exports: what src/wasm/createWasmInterpreter.ts calls. A frame: allocCode +
// analyseCode once per code (the host keeps the records), setStaticGas for the fork when it differs
// from the last frame's, beginFrame (the calldata's length; the host writes calldata and ENV), then
// run, and after each STATUS_HOST the host runs the instruction in @ethereumjs/evm, writes the stack
// back, calls setState (and setMemory, noteStore, invalidateSlots as the instruction needs) and
// resume, until the instruction it ran ends the frame (or the wasm ends it: STATUS_STOP, STATUS_RETURN,
// STATUS_REVERT with the output at RESULT_OUT_PTR). After a call or create the host writes the return
// data (setReturnData). STATUS_YIELD: resume when the host is ready. keccak256: the hash on its own.

import { allocCode, analyseCode, CODE_HEADER } from './code'
import { initGasTable, setStaticGas, staticGas } from './gasTable'
import {
  forgetReturnData,
  MAX_GAS,
  noteStore,
  resume,
  resumeStepping,
  setCallData,
  setMemory,
  setParams,
  setReturnData,
  setState,
  setYieldGas,
  startFrame,
  startSteppedFrame,
} from './interpreter'
import { keccak, keccakInit } from './keccak'
import { beginCallRegion, endCallRegion, ensureMemory, heapTopAddress, heapUsed, resetHeapTop } from './layout'
import { invalidateSlots, putSlot, slotsInit } from './slots'
import { IO_KEY, IO_VALUE } from './layout'

export {
  ENV_ADDRESS,
  ENV_CALLER,
  ENV_CALLVALUE,
  GAS_TABLE,
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
} from './layout'
export { STATUS_HOST, STATUS_RETURN, STATUS_REVERT, STATUS_STEP, STATUS_STOP, STATUS_YIELD } from './interpreter'
export {
  allocCode,
  analyseCode,
  CODE_HEADER,
  heapUsed,
  invalidateSlots,
  MAX_GAS,
  noteStore,
  resume,
  resumeStepping,
  setMemory,
  setParams,
  setReturnData,
  setState,
  setStaticGas,
  setYieldGas,
  staticGas,
}

initGasTable()
slotsInit()
keccakInit()

/** Sets up a frame with `callDataLength` bytes of calldata; returns where the host writes them. */
export function beginFrame(callDataLength: u32): usize {
  const region = beginCallRegion(<usize>callDataLength)
  setCallData(<usize>callDataLength)
  invalidateSlots()
  setYieldGas(-1)
  return region
}

/** The host ran an SLOAD: the slot (a word of four limbs at IO_KEY) holds the word at IO_VALUE, and is warm. */
export function noteSlot(): void {
  putSlot(IO_KEY, IO_VALUE)
}

/** Ends the frame (its region is free for the next allocation). */
export function endFrame(): void {
  endCallRegion()
}

/** Runs the code record's code from pc 0 with `gas` (below MAX_GAS). */
export function run(rec: usize, gas: i64): u32 {
  return startFrame(rec, gas)
}

/** As run, for a frame observed step by step: STATUS_STEP after every instruction the wasm runs (resumeStepping goes on). */
export function runStepping(rec: usize, gas: i64): u32 {
  return startSteppedFrame(rec, gas)
}

/** Empties the heap between frames: every code record is forgotten (the host drops its own). */
export function resetHeap(): void {
  resetHeapTop()
  forgetReturnData()
  slotsInit()
}

/**
 * Where the host writes `length` bytes to hash with keccak256 (free memory above the heap, valid until
 * the next frame or allocation; not during a frame).
 */
export function keccakInput(length: u32): usize {
  const at = heapTopAddress()
  if (!ensureMemory(at + <usize>length)) unreachable()
  return at
}

/** Keccak-256 of the `length` bytes at `ptr`: the 32 bytes at KECCAK_OUT (answered). */
export function keccak256(ptr: usize, length: u32): usize {
  return keccak(ptr, <usize>length)
}
