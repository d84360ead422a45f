// One top-level call frame in the wasm interpreter prototype (issue 37): the code analysed once
// per code hash, the call's inputs copied in, the run (paused and resumed while the host fetches a
// slot it does not have), and the outcome read back. A frame that meets an instruction the
// prototype lacks ends 'unsupported' before any effect: the caller then runs the call in
// @ethereumjs/evm.
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { Hex } from '../types/hex.js'
import { type FrameStorage, type WasmEvm, type WasmStatus, WASM_STATUSES, slotKey } from './loadWasmEvm.js'

export interface WasmCall {
  /** The executing code. */
  code: Uint8Array
  /** Its keccak-256 (the account's code hash), the key of the analysed-code cache; computed when absent. */
  codeHash?: string
  /** The executing address (20 bytes) and the caller. */
  address: Uint8Array
  caller: Uint8Array
  value: bigint
  data: Uint8Array
  gasLimit: bigint
  isStatic?: boolean
  /** The executing account's storage. */
  storage: FrameStorage
  /** Continues the previous call's transaction (its warm slots stay warm); by default a new transaction starts. */
  sameTransaction?: boolean
  /** Slots warm from the start (the transaction's access list), 0x and 64 hex digits. */
  warmSlots?: readonly Hex[]
}

export interface WasmFrameResult {
  status: WasmStatus
  gasLeft: bigint
  gasUsed: bigint
  /** The refund counter (EIP-3529 SSTORE refunds), before the transaction-level cap. */
  gasRefund: bigint
  /** RETURN's or REVERT's data. */
  returnValue: Uint8Array
  /** The frame's SSTOREs by slot (unpadded values), for the caller to apply; empty unless it ended with STOP or RETURN. */
  writes: Map<Hex, Uint8Array>
  /** Where the run ended, and the opcode there (for 'unsupported': the instruction lacking). */
  pc: number
  opcode: number
}

/** The id of the executing address in the module's warm set: one address, one frame, in this prototype. */
const ADDRESS_ID = 0

const hexOf = (bytes: Uint8Array) => slotKey(bytes, 0)

/** The code's record in the module: analysed on first use, then found by code hash. */
function codeRecord(evm: WasmEvm, code: Uint8Array, codeHash: string | undefined): number {
  const key = codeHash ?? hexOf(keccak_256(code))
  let rec = evm.codes.get(key)
  if (rec === undefined) {
    rec = evm.exports.allocCode(code.length)
    evm.bytes().set(code, rec + evm.layout.codeHeader)
    evm.exports.analyseCode(rec)
    evm.codes.set(key, rec)
  }
  return rec
}

/** Writes `bytes` right-aligned in a zeroed 32-byte word at `at`. */
function putPadded(mem: Uint8Array, at: number, bytes: Uint8Array) {
  mem.fill(0, at, at + 32 - bytes.length)
  mem.set(bytes, at + 32 - bytes.length)
}

function putQuantity(mem: Uint8Array, at: number, value: bigint) {
  for (let i = 31; i >= 0; i--) {
    mem[at + i] = Number(value & 0xffn)
    value >>= 8n
  }
}

/** Runs a call's top-level frame in the wasm interpreter. */
export async function runWasmFrame(evm: WasmEvm, call: WasmCall): Promise<WasmFrameResult> {
  const { exports, layout } = evm
  // One frame at a time: the module holds a single frame's registers, stack and memory.
  if (evm.frame !== undefined) throw new Error('the wasm EVM is running another frame')
  const rec = codeRecord(evm, call.code, call.codeHash)
  if (call.sameTransaction !== true) exports.beginTransaction()
  for (const slot of call.warmSlots ?? []) {
    const mem = evm.bytes()
    for (let i = 0; i < 32; i++) mem[layout.ioKey + i] = Number.parseInt(slot.slice(2 + 2 * i, 4 + 2 * i), 16)
    exports.warmSlot(ADDRESS_ID)
  }
  const region = exports.beginCall(call.data.length)
  const frame = { storage: call.storage, writes: new Map<Hex, Uint8Array>(), missing: undefined as Hex | undefined }
  evm.slots?.clear()
  let mem = evm.bytes()
  mem.set(call.data, region)
  putPadded(mem, layout.envAddress, call.address)
  putPadded(mem, layout.envCaller, call.caller)
  putQuantity(mem, layout.envCallValue, call.value)
  const flags = call.isStatic === true ? layout.flagStatic : 0
  evm.frame = frame
  try {
    let status = exports.run(rec, call.gasLimit, ADDRESS_ID, flags)
    while (WASM_STATUSES[status] === 'needsStorage') {
      evm.hostCalls.fetches++
      await call.storage.fetch(frame.missing!)
      frame.missing = undefined
      status = exports.resume()
    }
    mem = evm.bytes()
    const result = new DataView(mem.buffer)
    const gasLeft = result.getBigInt64(layout.resultGasLeft, true)
    const retPtr = result.getUint32(layout.resultRetPtr, true)
    const retLen = result.getUint32(layout.resultRetLen, true)
    const name = WASM_STATUSES[status]
    if (name === undefined) throw new Error(`the wasm EVM ended with an unknown status ${status}`)
    return {
      status: name,
      gasLeft,
      gasUsed: call.gasLimit - gasLeft,
      gasRefund: result.getBigInt64(layout.resultRefund, true),
      returnValue: mem.slice(retPtr, retPtr + retLen),
      writes: name === 'stop' || name === 'return' ? frame.writes : new Map(),
      pc: result.getUint32(layout.resultPc, true),
      opcode: result.getUint32(layout.resultOpcode, true),
    }
  } finally {
    evm.frame = undefined
    exports.endCall()
  }
}
