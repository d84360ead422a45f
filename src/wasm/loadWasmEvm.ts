// The host of the WebAssembly EVM interpreter prototype (issue 37; src/wasm/assembly/, built by
// `npm run build:wasm` into dist/wasm/evm.wasm): instantiates the module from its bytes and answers
// its storage imports. A call runs through runWasmFrame (src/wasm/runWasmFrame.ts).
import type { Hex } from '../types/hex.js'
import { SlotCache } from './slotCache.js'

/** How a run of the wasm interpreter ended, by the module's status number. */
export const WASM_STATUSES = [
  'stop',
  'return',
  'revert',
  'outOfGas',
  'invalidJump',
  'stackUnderflow',
  'stackOverflow',
  'invalidOpcode',
  'staticStateChange',
  'refundExhausted',
  'needsStorage',
  'unsupported',
] as const
export type WasmStatus = (typeof WASM_STATUSES)[number]

/** The module's exported names of WASM_STATUSES, checked against the module when it is loaded. */
const STATUS_EXPORTS: Record<WasmStatus, string> = {
  stop: 'STATUS_STOP',
  return: 'STATUS_RETURN',
  revert: 'STATUS_REVERT',
  outOfGas: 'STATUS_OUT_OF_GAS',
  invalidJump: 'STATUS_INVALID_JUMP',
  stackUnderflow: 'STATUS_STACK_UNDERFLOW',
  stackOverflow: 'STATUS_STACK_OVERFLOW',
  invalidOpcode: 'STATUS_INVALID_OPCODE',
  staticStateChange: 'STATUS_STATIC_STATE_CHANGE',
  refundExhausted: 'STATUS_REFUND_EXHAUSTED',
  needsStorage: 'STATUS_NEEDS_STORAGE',
  unsupported: 'STATUS_UNSUPPORTED',
}

/**
 * The storage of the executing account, as a frame in the wasm interpreter reads it. Slots are keyed
 * as the overlay state manager keys them (0x and 64 hex digits); values are big-endian, at most 32
 * bytes (empty: zero).
 */
export interface FrameStorage {
  /** The slot's current value, or undefined when it is not at hand (then `fetch` is awaited and it is asked again). */
  current(slot: Hex): Uint8Array | undefined
  /** The slot's value at the transaction's start (EIP-2200's "original"), or undefined when not at hand. */
  original(slot: Hex): Uint8Array | undefined
  /** Makes `current` and `original` answer for the slot (a proof fetched and verified). */
  fetch(slot: Hex): Promise<void>
}

/** The module's exports (src/wasm/assembly/index.ts). */
interface EvmExports {
  memory: WebAssembly.Memory
  allocCode(length: number): number
  analyseCode(rec: number): void
  beginTransaction(): void
  warmSlot(addressId: number): void
  beginCall(callDataLength: number): number
  run(rec: number, gas: bigint, addressId: number, flags: number): number
  resume(): number
  endCall(): void
  staticGas(op: number): number
}

/** The addresses of the module's exchange areas (exported as constant globals). */
export interface WasmLayout {
  codeHeader: number
  ioKey: number
  ioValue: number
  ioNew: number
  envAddress: number
  envCaller: number
  envCallValue: number
  resultStatus: number
  resultRetPtr: number
  resultRetLen: number
  resultPc: number
  resultOpcode: number
  resultGasLeft: number
  resultRefund: number
  maxGas: bigint
  flagStatic: number
}

/** The frame the storage imports answer for, set by runWasmFrame for the length of a run. */
export interface BoundFrame {
  storage: FrameStorage
  /** The frame's SSTOREs, applied by the caller when the frame succeeds. */
  writes: Map<Hex, Uint8Array>
  /** The slot a read found missing (the run then answered needsStorage). */
  missing: Hex | undefined
}

/** How often the module called its host. */
export interface HostCallCounts {
  sload: number
  storageForStore: number
  sstore: number
  /** Slots fetched asynchronously after a needsStorage pause. */
  fetches: number
}

export interface WasmEvm {
  readonly exports: EvmExports
  readonly layout: WasmLayout
  /** Linear memory's bytes (a fresh view when memory has grown). */
  bytes(): Uint8Array
  /** Analysed code records (module addresses) by code hash. */
  readonly codes: Map<string, number>
  readonly hostCalls: HostCallCounts
  /** The frame's slot values by raw key, in front of its FrameStorage (undefined: every SLOAD asks the FrameStorage). */
  readonly slots: SlotCache | undefined
  /** The frame being run (set by runWasmFrame). */
  frame: BoundFrame | undefined
}

export interface WasmEvmOptions {
  /**
   * Keep the frame's slot values by raw key (SlotCache), so that an SLOAD of a slot read before
   * costs no hex key and no Map lookup; true by default. False: each SLOAD asks the FrameStorage
   * by hex key, as the overlay is keyed (for measurements).
   */
  slotCache?: boolean
}

const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** The 32 bytes at `at` as a 0x-prefixed hex slot key. */
export function slotKey(mem: Uint8Array, at: number): Hex {
  let s = '0x'
  for (let i = at; i < at + 32; i++) s += HEX_BYTES[mem[i]!]
  return s as Hex
}

/** Writes `value` (big-endian, at most 32 bytes) as a 32-byte word at `at`. */
export function putWord(mem: Uint8Array, at: number, value: Uint8Array) {
  if (value.length > 32) throw new RangeError(`a storage value of ${value.length} bytes`)
  const pad = 32 - value.length
  if (pad > 0) mem.fill(0, at, at + pad)
  mem.set(value, at + pad)
}

/** Instantiates the interpreter module (the bytes of dist/wasm/evm.wasm, or the module compiled from them). */
export async function loadWasmEvm(
  source: BufferSource | WebAssembly.Module,
  options: WasmEvmOptions = {},
): Promise<WasmEvm> {
  let view = new Uint8Array(0)
  let words = new Int32Array(0)
  let memory: WebAssembly.Memory | undefined
  // Views over linear memory, made again when it has grown (the old buffer is then detached: length 0).
  const bytes = () => (view.byteLength === 0 ? (view = new Uint8Array(memory!.buffer)) : view)
  const int32s = () => (words.byteLength === 0 ? (words = new Int32Array(memory!.buffer)) : words)
  const slots = options.slotCache === false ? undefined : new SlotCache()
  const hostCalls: HostCallCounts = { sload: 0, storageForStore: 0, sstore: 0, fetches: 0 }
  const evm = { frame: undefined as BoundFrame | undefined }
  const currentValue = (frame: BoundFrame, slot: Hex) => frame.writes.get(slot) ?? frame.storage.current(slot)
  const imports = {
    host: {
      sload(key: number, out: number): number {
        hostCalls.sload++
        if (slots !== undefined) {
          const entry = slots.find(int32s(), key >> 2)
          if (entry >= 0) {
            slots.read(entry, int32s(), out >> 2)
            return 1
          }
        }
        const frame = evm.frame!
        const mem = bytes()
        const slot = slotKey(mem, key)
        const value = currentValue(frame, slot)
        if (value === undefined) {
          frame.missing = slot
          return 0
        }
        putWord(mem, out, value)
        slots?.write(int32s(), key >> 2, out >> 2)
        return 1
      },
      storageForStore(key: number, out: number): number {
        hostCalls.storageForStore++
        const frame = evm.frame!
        const mem = bytes()
        const slot = slotKey(mem, key)
        const current = currentValue(frame, slot)
        const original = frame.storage.original(slot)
        if (current === undefined || original === undefined) {
          frame.missing = slot
          return 0
        }
        putWord(mem, out, current)
        putWord(mem, out + 32, original)
        return 1
      },
      sstore(key: number, value: number): void {
        hostCalls.sstore++
        const mem = bytes()
        let v = mem.slice(value, value + 32)
        let first = 0
        while (first < 32 && v[first] === 0) first++
        v = v.subarray(first)
        evm.frame!.writes.set(slotKey(mem, key), v)
        slots?.write(int32s(), key >> 2, value >> 2)
      },
    },
  }
  const instance =
    source instanceof WebAssembly.Module
      ? await WebAssembly.instantiate(source, imports)
      : (await WebAssembly.instantiate(source, imports)).instance
  const exports = instance.exports as unknown as EvmExports & Record<string, WebAssembly.Global>
  memory = exports.memory
  const constant = (name: string) => {
    const global = exports[name]
    if (!(global instanceof WebAssembly.Global)) throw new Error(`the wasm EVM exports no ${name}`)
    return global.value as number | bigint
  }
  const address = (name: string) => Number(constant(name))
  for (const [i, status] of WASM_STATUSES.entries())
    if (address(STATUS_EXPORTS[status]) !== i) throw new Error(`the wasm EVM's ${STATUS_EXPORTS[status]} is not ${i}`)
  const layout: WasmLayout = {
    codeHeader: address('CODE_HEADER'),
    ioKey: address('IO_KEY'),
    ioValue: address('IO_VALUE'),
    ioNew: address('IO_NEW'),
    envAddress: address('ENV_ADDRESS'),
    envCaller: address('ENV_CALLER'),
    envCallValue: address('ENV_CALLVALUE'),
    resultStatus: address('RESULT_STATUS'),
    resultRetPtr: address('RESULT_RET_PTR'),
    resultRetLen: address('RESULT_RET_LEN'),
    resultPc: address('RESULT_PC'),
    resultOpcode: address('RESULT_OPCODE'),
    resultGasLeft: address('RESULT_GAS_LEFT'),
    resultRefund: address('RESULT_REFUND'),
    maxGas: BigInt(constant('MAX_GAS')),
    flagStatic: address('FLAG_STATIC'),
  }
  // The slot cache reads keys and values as 32-bit words.
  if ((layout.ioKey | layout.ioValue | layout.ioNew) % 4 !== 0)
    throw new Error('the wasm EVM exchange areas are not aligned')
  return Object.assign(evm, { exports, layout, bytes, codes: new Map<string, number>(), hostCalls, slots })
}
