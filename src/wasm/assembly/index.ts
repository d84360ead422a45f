// The module's exports: what src/wasm/createWasmInterpreter.ts calls. A frame: allocCode +
// analyseCode once per code (the host keeps the records), setStaticGas for the fork when it differs
// from the last frame's, beginFrame (the calldata's length; the host writes calldata and ENV), then
// run, and after each STATUS_HOST the host runs the instruction in @ethereumjs/evm, writes the stack
// back, calls setState (and setMemory, noteStore, invalidateSlots as the instruction needs) and
// resume, until the instruction it ran ends the frame. STATUS_YIELD: resume when the host is ready.

import { allocCode, analyseCode, CODE_HEADER } from './code'
import { initGasTable, setStaticGas, staticGas } from './gasTable'
import { MAX_GAS, noteStore, resume, setCallData, setMemory, setParams, setState, setYieldGas, startFrame } from './interpreter'
import { beginCallRegion, endCallRegion, heapUsed, resetHeapTop } from './layout'
import { invalidateSlots, putSlot, slotsInit } from './slots'
import { IO_KEY, IO_VALUE } from './layout'

export {
  ENV_ADDRESS,
  ENV_CALLER,
  ENV_CALLVALUE,
  IO_KEY,
  IO_VALUE,
  RESULT_DEPTH,
  RESULT_GAS_LEFT,
  RESULT_MEM_COST,
  RESULT_MEM_DIRTY,
  RESULT_MEM_PTR,
  RESULT_MEM_WORDS,
  RESULT_OPCODE,
  RESULT_PC,
  RESULT_STATUS,
  STACK,
} from './layout'
export { STATUS_HOST, STATUS_YIELD } from './interpreter'
export {
  allocCode,
  analyseCode,
  CODE_HEADER,
  heapUsed,
  invalidateSlots,
  MAX_GAS,
  noteStore,
  resume,
  setMemory,
  setParams,
  setState,
  setStaticGas,
  setYieldGas,
  staticGas,
}

initGasTable()
slotsInit()

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

/** Empties the heap between frames: every code record is forgotten (the host drops its own). */
export function resetHeap(): void {
  resetHeapTop()
  slotsInit()
}
