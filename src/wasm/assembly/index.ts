// The module's exports: what src/wasm/loadWasmEvm.ts calls. A call: allocCode + analyseCode once
// per code (the host keeps records by code hash), beginTransaction once per transaction (empties
// the warm set), beginCall (the calldata's length; the host writes calldata and ENV), then run,
// and resume while it answers NEEDS_STORAGE; then the host reads RESULT and calls endCall.

import { allocCode, analyseCode, CODE_HEADER } from './code'
import { initGasTable, staticGas } from './gasTable'
import { MAX_GAS, resume, setCallData, startFrame } from './interpreter'
import { beginCallRegion, endCallRegion, IO_KEY, TMP_A } from './layout'
import { addWarm, isWarm, warmInit, warmReset } from './warm'
import { fromBigEndian } from './word'

export {
  ENV_ADDRESS,
  ENV_CALLER,
  ENV_CALLVALUE,
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
} from './layout'
export {
  FLAG_STATIC,
  STATUS_INVALID_JUMP,
  STATUS_INVALID_OPCODE,
  STATUS_NEEDS_STORAGE,
  STATUS_OUT_OF_GAS,
  STATUS_REFUND_EXHAUSTED,
  STATUS_RETURN,
  STATUS_REVERT,
  STATUS_STACK_OVERFLOW,
  STATUS_STACK_UNDERFLOW,
  STATUS_STATIC_STATE_CHANGE,
  STATUS_STOP,
  STATUS_UNSUPPORTED,
} from './interpreter'
export { allocCode, analyseCode, CODE_HEADER, MAX_GAS, resume, staticGas }

initGasTable()
warmInit()

/** A new transaction: the warm set emptied. */
export function beginTransaction(): void {
  warmReset()
}

/** Warms a slot (32 bytes big-endian at IO_KEY) of an address id before a run: the transaction's access list. */
export function warmSlot(addressId: u32): void {
  fromBigEndian(IO_KEY, TMP_A)
  if (!isWarm(TMP_A, addressId)) addWarm(TMP_A, addressId)
}

/** Sets up a call with `callDataLength` bytes of calldata; returns where the host writes them. */
export function beginCall(callDataLength: u32): usize {
  const region = beginCallRegion(<usize>callDataLength)
  setCallData(<usize>callDataLength)
  return region
}

/** Runs the code record's code from pc 0 with `gas`; the status (also at RESULT_STATUS). */
export function run(rec: usize, gas: i64, addressId: u32, flags: u32): u32 {
  return startFrame(rec, gas, addressId, flags)
}

/** Ends the call (its return data, in its region, is no longer needed). */
export function endCall(): void {
  endCallRegion()
}
