// The wasm engine (issue 37): @ethereumjs/evm's interpreter with its frames run by the WebAssembly
// interpreter (src/wasm/assembly/) one at a time. Every code run goes through ethereumjs's
// `Interpreter.run`; for an EVM marked by attachWasmEngine, that run is replaced by runFrame here:
// the wasm module executes the instructions it implements, with the fork's static gas taken from the
// EVM's own opcode table, and stops before every other instruction (calls, creates, logs, hashing,
// the environment, SSTORE, the frame's end, and every exceptional halt). That one instruction is then
// run by ethereumjs's own `runStep` on the frame's state copied into its run state (the stack's
// inputs, memory when the instruction uses it and wasm wrote it, gas, pc), so its semantics, gas,
// journal, warm sets and errors are ethereumjs's; the state is copied back and the wasm resumes. A
// call made by such an instruction runs its frame through `Interpreter.run` again, in another module
// instance (a pool: one instance per running frame).
//
// Frames that something observes step by step (a `step` listener: struct logs, JavaScript tracers,
// every tracer with OnOpcode) run on the wasm too, stepped (runSteppedFrame): the wasm's dispatch loop,
// compiled a second time with a check at its end, returns after every instruction it runs, and the
// host emits the `step` event ethereumjs's runStep would have emitted before it — the same fields,
// from the state kept from before it: pc, gas left, the gas it took as its cost (ethereumjs's gas
// handler's answer: the wasm charges exactly that), the refund, ethereumjs's own stack (kept whole
// while stepping: an instruction's outputs are read back from the wasm, DUP and SWAP done on it) and
// a copy of memory before it (one copy shared by the steps between two changes of memory). Each event
// is emitted before the next instruction runs, so a listener reading the state (a JavaScript tracer's
// db) sees what it sees on ethereumjs: the wasm's instructions change nothing it can read. Host steps
// emit their own events in runStep, on ethereumjs's stack and memory kept whole. The untraced loop has
// no per-step check: `run`/`resume` and `runStepping`/`resumeStepping` are two compiled loops.
// Code the wasm cannot run (EOF, forks with EIPs it does not follow, gas of 2^40 or more) and
// ethereumjs's debug log of every op (DEBUG=ethjs, reason 'stepListeners') run in ethereumjs's own
// `run`, counted as fallbacks.
//
// Browser-safe: the module's bytes come from the host (src/node/loadWasmEvmModule.ts in Node).
import { type EVM, EVMError, createEVM, getOpcodesForHF } from '@ethereumjs/evm'
import type { Hex } from '../types/hex.js'
import { opcodeStackIO } from '../tracing/opcodeStackIO.js'
import { interpreterPrototype } from './interpreterPrototype.js'

/** Why a frame ran in ethereumjs's own interpreter although its EVM is on the wasm engine. */
export type WasmFallbackReason = 'stepListeners' | 'eof' | 'fork' | 'gas' | 'resumedPc' | 'profiler'

export type WasmEngineCounters = {
  /** Frames run by the wasm interpreter. */
  frames: number
  /** Of those, the frames run step by step for a `step` listener (struct logs, JavaScript tracers). */
  steppedFrames: number
  /** Their wasm instructions' steps handed to the tracing adapter directly (WasmAttachment.steps), without an ethereumjs event. */
  directSteps: number
  /** Instructions of those frames run by ethereumjs's runStep (calls, logs, SSTORE, the environment, exceptional halts…). */
  hostSteps: number
  /** Those host steps by opcode (index: the opcode). */
  hostOps: number[]
  /** SLOADs of a slot not yet in the frame's slot table answered by the host at once (the others: the table, or a host step). */
  hostSloads: number
  /** Frames run by ethereumjs's own interpreter instead, by reason. */
  fallbacks: Record<WasmFallbackReason, number>
}

export const newWasmEngineCounters = (): WasmEngineCounters => ({
  frames: 0,
  steppedFrames: 0,
  directSteps: 0,
  hostSteps: 0,
  hostOps: new Array<number>(256).fill(0),
  hostSloads: 0,
  fallbacks: { stepListeners: 0, eof: 0, fork: 0, gas: 0, resumedPc: 0, profiler: 0 },
})

/**
 * A receiver of the steps a stepped frame's wasm instructions take, in place of ethereumjs's `step`
 * event (the tracing adapter's: src/evm/createStepListener.ts): the fields its OnOpcode needs, with no
 * event object and no asynchronous emit. `stack` is a copy of the stack before the instruction (the
 * receiver's), `memory` a copy of memory before it (shared by the steps between two changes of
 * memory), `depth` ethereumjs's (0 for the transaction's frame), `address` the frame's storage context.
 * A promise while the receiver is behind: the frame waits on it.
 */
export type WasmStepSink = (
  pc: number,
  op: number,
  opName: string,
  gasLeft: bigint,
  cost: bigint,
  stack: bigint[],
  memory: Uint8Array,
  depth: number,
  address: { toString(): string },
  refund: bigint,
) => Promise<void> | undefined

/** How an EVM runs on the wasm engine: where it counts, and what it checks at loops (deadline, time slice). */
export type WasmAttachment = {
  counters: WasmEngineCounters
  /** Asked every YIELD_GAS gas or so at jumps: throws past the deadline, or pauses for the event loop. */
  interrupt?: (() => Promise<void> | void) | undefined
  /**
   * The tracing adapter's step receiver: while it is the EVM's only `step` listener, a stepped frame's
   * wasm instructions are handed to it directly (host steps still emit ethereumjs's events, which reach
   * it through its listener). With other listeners, every step is ethereumjs's event, for all of them.
   */
  steps?: WasmStepSink | undefined
}

export type WasmEngine = {
  /** Runs the EVM's frames on the wasm interpreter until the returned function is called. */
  attach(evm: EVM, attachment: WasmAttachment): () => void
}

// ethereumjs's interpreter internals, as this file uses them.
type Stack = { _store: bigint[]; _len: number }
type Memory = { _store: Uint8Array; extend(offset: number, size: number): void }
type OpcodeInfo = {
  fee: number
  isInvalid: boolean
  dynamicGas: boolean
  fullName: string
  isAsync: boolean
  code: number
}
type OpEntry = { opcodeInfo: OpcodeInfo; opHandler?: unknown; gasHandler?: unknown } | undefined
type Common = { isActivatedEIP(eip: number): boolean; param(name: string): bigint }
type Journal = {
  isWarmedStorage(address: Uint8Array, slot: Uint8Array): boolean
  addWarmedStorage(address: Uint8Array, slot: Uint8Array): void
}
type RunState = {
  programCounter: number
  opCode: number
  memory: Memory
  memoryWordCount: bigint
  highestMemCost: bigint
  gasRefund: bigint
  stateManager: unknown
  stack: Stack
  code: Uint8Array
  validJumps: Uint8Array
  cachedPushes: Record<number, bigint>
  gasLeft: bigint
  env: {
    address: { bytes: Uint8Array; toString(): string }
    caller: { bytes: Uint8Array }
    callData: Uint8Array
    callValue: bigint
    accessWitness?: { revert(): void }
  }
  returnBytes: Uint8Array
}
type EvmInternals = {
  [MARK]?: Attached
  events: { listenerCount(event: string): number }
  DEBUG: boolean
  _emit(topic: string, data: unknown): Promise<void> | undefined
  _optsCached: { profiler?: { enabled?: boolean } }
  _opcodeMap: OpEntry[]
  common: Common
}
type Interpreter = {
  _evm: EvmInternals
  _env: { depth: number; address: { toString(): string }; contract: unknown; codeAddress: unknown }
  _runState: RunState
  _result: { returnValue?: Uint8Array }
  _stateManager: { storageAtHand?(address: Hex, slot: Hex): Uint8Array | undefined }
  journal: Journal
  runStep(): Promise<void>
  _getValidJumpDestinations(code: Uint8Array): { jumps: Uint8Array; pushes: Record<number, bigint> }
}
type RunResult = { runState: RunState; exceptionError: unknown }
type RunFn = (this: Interpreter, code: Uint8Array, opts?: { pc?: number }) => Promise<RunResult>

/**
 * A compiled WebAssembly module (a WebAssembly.Module), named apart: the published types then need
 * no DOM or WebAssembly lib of a consumer's tsconfig.
 */
export type CompiledWasmModule = object

/** The marker on an EVM whose frames run here (a symbol: invisible to ethereumjs and JSON). */
const MARK = Symbol.for('edgetrace.wasmEngine')

type Attached = { engine: Runtime; attachment: WasmAttachment }

/** The module's exports (src/wasm/assembly/index.ts). */
type Exports = {
  memory: WebAssembly.Memory
  allocCode(length: number): number
  analyseCode(rec: number): void
  heapUsed(): number
  resetHeap(): void
  beginFrame(callDataLength: number): number
  endFrame(): void
  run(rec: number, gas: bigint): number
  resume(): number
  runStepping(rec: number, gas: bigint): number
  resumeStepping(): number
  setState(pc: number, depth: number, gas: bigint): void
  setMemory(words: number, cost: bigint): number
  setParams(warmSload: bigint, expByte: bigint, keccakWord: bigint, copyWord: bigint): void
  setReturnData(length: number): number
  setYieldGas(gas: bigint): void
  setStaticGas(op: number, gas: bigint): void
  noteStore(): void
  noteSlot(): void
  invalidateSlots(): void
}

/** The gas a frame runs between two looks at its interrupt (well under a millisecond of wasm work). */
const YIELD_GAS = 300_000n
const MAX_GAS = 1n << 40n
const HOST_OP = 1n << 62n
/** A module instance whose heap (analysed code, slot tables) grew past this is emptied before its next frame. */
const HEAP_LIMIT = 32 * 1024 * 1024
/** Idle module instances kept for the next frames. */
const POOL_LIMIT = 32

/** The instructions the wasm interpreter implements (the fork decides which of them exist). */
const IMPLEMENTED: number[] = [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x20, 0x30]
IMPLEMENTED.push(0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3d, 0x3e, 0xf3, 0xfd)
for (let op = 0x10; op <= 0x1d; op++) IMPLEMENTED.push(op)
for (let op = 0x50; op <= 0x5e; op++) if (op !== 0x55 && op !== 0x5c && op !== 0x5d) IMPLEMENTED.push(op)
for (let op = 0x5f; op <= 0x9f; op++) IMPLEMENTED.push(op)
/** Of those, the ones with dynamic gas, which the wasm charges as the fork does (others must be static). */
const DYNAMIC = new Set([0x0a, 0x20, 0x37, 0x39, 0x3e, 0x51, 0x52, 0x53, 0x54, 0x5e, 0xf3, 0xfd])
/** Of those, the ones that expand memory (the wasm charges 3 gas a word and words² / 512: a fork with other memory gas runs them in the host). */
const EXPANDS_MEMORY = new Set([0x20, 0x37, 0x39, 0x3e, 0x51, 0x52, 0x53, 0x5e, 0xf3, 0xfd])

/** Host instructions that write memory: it is copied back into the wasm after them. */
const WRITES_MEMORY = new Uint8Array(256)
for (const op of [0x37, 0x39, 0x3c, 0x3e, 0x51, 0x52, 0x53, 0x5e, 0xf1, 0xf2, 0xf4, 0xfa]) WRITES_MEMORY[op] = 1
/** Host instructions that read memory (or write it): the wasm's writes are copied out before them. */
const USES_MEMORY = new Uint8Array(WRITES_MEMORY)
for (const op of [0x20, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xf0, 0xf3, 0xf5, 0xfd]) USES_MEMORY[op] = 1
/** Host instructions that run other code (which may write this account's storage): the slot table is emptied after them. */
const RUNS_CODE = new Uint8Array(256)
for (const op of [0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa]) RUNS_CODE[op] = 1
const STACK_INPUTS = Uint8Array.from({ length: 256 }, (_, op) => opcodeStackIO(op)[0])
/** EIPs that change what the interpreter does beyond the opcode table (EOF, Verkle, block access lists, state gas, DUPN/SWAPN). */
const UNFOLLOWED_EIPS = [3540, 6800, 7864, 7928, 8024, 8037]

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))
const M64 = 0xffffffffffffffffn

/** One module instance: it runs one frame at a time. */
type Instance = {
  exports: Exports
  layout: Layout
  /** Analysed code records by the code's bytes (ethereumjs hands the same array for the same account's code). */
  codes: WeakMap<Uint8Array, number>
  /** ethereumjs's own handlers (pristineHandlers). */
  handlers: Handlers
  /** The opcode table whose gas is in the module's table, and those fees. */
  table: OpEntry[] | undefined
  fees: BigInt64Array | undefined
  bytes(): Uint8Array
  limbs(): BigUint64Array
  view(): DataView
  /** Linear memory as u32s and i64s (the stepped loop reads the result fields through them). */
  u32s(): Uint32Array
  i64s(): BigInt64Array
  /** The frame being run (the SLOAD import answers for it). */
  frame: Interpreter | undefined
  address: Hex
  counters: WasmEngineCounters
  warmSload: bigint
  coldSload: bigint
}

type Layout = Record<
  | 'ioKey'
  | 'ioValue'
  | 'envAddress'
  | 'envCaller'
  | 'envCallValue'
  | 'resultStatus'
  | 'resultPc'
  | 'resultDepth'
  | 'resultDirtyLo'
  | 'resultDirtyHi'
  | 'resultOutPtr'
  | 'resultOutLen'
  | 'resultGasLeft'
  | 'resultMemWords'
  | 'resultOpcode'
  | 'resultMemCost'
  | 'resultMemPtr'
  | 'stack'
  | 'gasTable'
  | 'codeHeader'
  | 'statusHost'
  | 'statusYield'
  | 'statusStop'
  | 'statusReturn'
  | 'statusRevert'
  | 'statusStep',
  number
>

type Runtime = {
  acquire(): Instance
  release(instance: Instance): void
}

let patchedRun: RunFn | undefined

/**
 * ethereumjs's Interpreter class is not exported (interpreterPrototype.ts reaches its prototype). Its
 * `run` is replaced, once per process, by one that runs marked EVMs' frames here and every other
 * EVM's in the original.
 */
async function patchInterpreter(): Promise<void> {
  if (patchedRun !== undefined) return
  const proto = (await interpreterPrototype()) as unknown as { run: RunFn }
  if (patchedRun !== undefined) return
  const original = proto.run
  patchedRun = function run(this: Interpreter, code, opts = {}) {
    const attached = this._evm[MARK]
    if (attached === undefined) return original.call(this, code, opts)
    const reason = fallbackReason(this, code, opts)
    if (reason !== undefined) {
      attached.attachment.counters.fallbacks[reason]++
      return original.call(this, code, opts)
    }
    return this._evm.events.listenerCount('step') > 0
      ? runSteppedFrame(attached, this, code)
      : runFrame(attached, this, code)
  }
  proto.run = patchedRun
}

function fallbackReason(interp: Interpreter, code: Uint8Array, opts: { pc?: number }): WasmFallbackReason | undefined {
  const evm = interp._evm
  // ethereumjs's debug log of every op (DEBUG=ethjs): its own interpreter writes it.
  if (evm.DEBUG) return 'stepListeners'
  if (evm._optsCached.profiler?.enabled === true) return 'profiler'
  if (opts.pc !== undefined && opts.pc !== 0) return 'resumedPc'
  const common = evm.common
  if (code[0] === 0xef && common.isActivatedEIP(3540)) return 'eof'
  for (const eip of UNFOLLOWED_EIPS) if (common.isActivatedEIP(eip)) return 'fork'
  if (interp._runState.gasLeft >= MAX_GAS) return 'gas'
  return undefined
}

/**
 * ethereumjs's own handlers by opcode (the same functions in every EVM's table): an entry of the
 * EVM's table with another handler (a tracer's wrapper observing RETURN, say, or a custom opcode)
 * is run by the host, where that handler runs.
 */
type Handlers = { run: Map<number, unknown>; gas: Map<number, unknown> }
/**
 * Except JUMP and JUMPI: their wrappers check the deadline and share the thread (attachInterrupts),
 * which the wasm does at its jumps itself (STATUS_YIELD, the attachment's interrupt).
 */
const OWN_WRAPPERS = new Set([0x56, 0x57])
let pristine: Promise<Handlers> | undefined
function pristineHandlers(): Promise<Handlers> {
  pristine ??= createEVM().then((evm) => {
    const { handlers, dynamicGasHandlers } = getOpcodesForHF(evm.common)
    return { run: handlers as Map<number, unknown>, gas: dynamicGasHandlers as Map<number, unknown> }
  })
  return pristine
}

/** Sets the module's gas table from the EVM's opcode table (the fork's fees and opcodes). */
function installTable(inst: Instance, table: OpEntry[], common: Common) {
  const { exports } = inst
  const has2929 = common.isActivatedEIP(2929)
  const memoryStandard = common.param('memoryGas') === 3n && common.param('quadCoefficientDivGas') === 512n
  // Each call makes a new EVM (a new table), mostly of the same fork: the module's table is written
  // (straight into linear memory) only when its fees differ from the last ones written.
  const fees = new BigInt64Array(256).fill(HOST_OP)
  for (const op of IMPLEMENTED) {
    const entry = table[op]
    const info = entry?.opcodeInfo
    if (info === undefined || info.isInvalid) continue
    if (info.dynamicGas !== DYNAMIC.has(op)) continue
    if (
      !OWN_WRAPPERS.has(op) &&
      (entry!.opHandler !== inst.handlers.run.get(op) || entry!.gasHandler !== inst.handlers.gas.get(op))
    )
      continue
    if (op === 0x54 && !has2929) continue
    if (EXPANDS_MEMORY.has(op) && !memoryStandard) continue
    fees[op] = BigInt(info.fee)
  }
  if (inst.fees === undefined || fees.some((fee, op) => fee !== inst.fees![op])) {
    new BigInt64Array(exports.memory.buffer, inst.layout.gasTable, 256).set(fees)
    inst.fees = fees
  }
  inst.warmSload = has2929 ? common.param('warmstoragereadGas') : 0n
  inst.coldSload = has2929 ? common.param('coldsloadGas') : 0n
  exports.setParams(
    inst.warmSload,
    common.param('expByteGas'),
    common.param('keccak256WordGas'),
    common.param('copyGas'),
  )
  inst.table = table
}

function codeRecord(inst: Instance, code: Uint8Array): number {
  let rec = inst.codes.get(code)
  if (rec === undefined) {
    rec = inst.exports.allocCode(code.length)
    inst.bytes().set(code, rec + inst.layout.codeHeader)
    inst.exports.analyseCode(rec)
    inst.codes.set(code, rec)
  }
  return rec
}

function putPadded(mem: Uint8Array, at: number, bytes: Uint8Array) {
  mem.fill(0, at, at + 32 - bytes.length)
  mem.set(bytes, at + 32 - bytes.length)
}

function putQuantity(mem: Uint8Array, at: number, value: bigint) {
  if (value === 0n) {
    mem.fill(0, at, at + 32)
    return
  }
  for (let i = 31; i >= 0; i--) {
    mem[at + i] = Number(value & 0xffn)
    value >>= 8n
  }
}

/** The stack word at index i (four little-endian limbs) as a bigint. */
function readWord(limbs: BigUint64Array, at: number): bigint {
  const l0 = limbs[at]!
  const l1 = limbs[at + 1]!
  const l2 = limbs[at + 2]!
  const l3 = limbs[at + 3]!
  if ((l1 | l2 | l3) === 0n) return l0
  return (((((l3 << 64n) | l2) << 64n) | l1) << 64n) | l0
}

/** readWord, for a word below 2^53 without making a bigint of each limb (most words on a stack are small). */
function readSmallWord(u32s: Uint32Array, limbs: BigUint64Array, at: number): bigint {
  const b = at * 2
  if ((u32s[b + 2]! | u32s[b + 3]! | u32s[b + 4]! | u32s[b + 5]! | u32s[b + 6]! | u32s[b + 7]!) === 0) {
    const hi = u32s[b + 1]!
    if (hi === 0) return BigInt(u32s[b]!)
    if (hi < 0x200000) return BigInt(hi * 0x100000000 + u32s[b]!)
  }
  return readWord(limbs, at)
}

function writeWord(limbs: BigUint64Array, at: number, v: bigint) {
  if (v <= M64) {
    limbs[at] = v
    limbs[at + 1] = 0n
    limbs[at + 2] = 0n
    limbs[at + 3] = 0n
    return
  }
  limbs[at] = v
  limbs[at + 1] = v >> 64n
  limbs[at + 2] = v >> 128n
  limbs[at + 3] = v >> 192n
}

/**
 * The memory range [start, end) a host instruction that writes memory may write, from its inputs
 * (the stack's top first): the whole memory when it is not one of those known.
 */
function writtenRange(op: number, store: bigint[], depth: number): [number, number] {
  const arg = (k: number) => (k < depth ? store[depth - 1 - k]! : 0n)
  let offset: bigint
  let length: bigint
  if (op === 0x37 || op === 0x39 || op === 0x3e || op === 0x5e) [offset, length] = [arg(0), arg(2)]
  else if (op === 0x3c) [offset, length] = [arg(1), arg(3)]
  else if (op === 0x52 || op === 0x53) [offset, length] = [arg(0), op === 0x52 ? 32n : 1n]
  else if (op === 0x51) return [0, 0]
  else if (op === 0xf1 || op === 0xf2) [offset, length] = [arg(5), arg(6)]
  else if (op === 0xf4 || op === 0xfa) [offset, length] = [arg(4), arg(5)]
  else return [0, Number.MAX_SAFE_INTEGER]
  // A write that far would have run out of gas: nothing is written (and nothing copied) then.
  if (length === 0n || offset + length > 0xffffffffn) return [0, 0]
  return [Number(offset), Number(offset + length)]
}

/** ethereumjs's errors are plain objects of its EVMError class: `errorType` names them. */
const isEvmError = (e: unknown): e is { error: string } =>
  typeof e === 'object' && e !== null && (e as { errorType?: unknown }).errorType === 'EVMError'

/**
 * Starts `interp`'s frame of `code` in `inst` (both ways of running it): the fork's gas table, the
 * code's record, calldata and the environment, the frame's owner and counters, the first yield point.
 * Returns the code's record.
 */
function startFrame(inst: Instance, interp: Interpreter, code: Uint8Array, attachment: WasmAttachment): number {
  const { exports, layout } = inst
  const rs = interp._runState
  const evm = interp._evm
  if (inst.table !== evm._opcodeMap) installTable(inst, evm._opcodeMap, evm.common)
  const rec = codeRecord(inst, code)
  const env = rs.env
  const region = exports.beginFrame(env.callData.length)
  const mem = inst.bytes()
  mem.set(env.callData, region)
  putPadded(mem, layout.envAddress, env.address.bytes)
  putPadded(mem, layout.envCaller, env.caller.bytes)
  putQuantity(mem, layout.envCallValue, env.callValue)
  inst.frame = interp
  inst.counters = attachment.counters
  inst.address = env.address.toString().toLowerCase() as Hex
  if (attachment.interrupt !== undefined) exports.setYieldGas(rs.gasLeft - YIELD_GAS)
  return rec
}

/** A host step's end: the frame ended by it (err: its error, none for a STOP), or memory's size after it. */
type HostStepEnd = { ended: true; err: unknown } | { ended: false; words: number }

/**
 * Runs the instruction `op` at the run state's pc in ethereumjs's `runStep`, on the frame's state in
 * its run state (the stack's inputs and memory there already; `depth`, `words`: the stack's and
 * memory's sizes before it), then puts back into the wasm what it changed: the stack's outputs,
 * memory it grew or wrote, the slot table, the return data of a call or create, the pc, depth and gas
 * to resume from.
 */
async function runHostStep(
  inst: Instance,
  interp: Interpreter,
  code: Uint8Array,
  op: number,
  depth: number,
  words: number,
): Promise<HostStepEnd> {
  const { exports, layout, counters } = inst
  const rs = interp._runState
  const store = rs.stack._store
  if ((op === 0x56 || op === 0x57) && rs.validJumps.length === 0) {
    // Only for its error (the wasm ran every valid jump): ethereumjs's jump table, as its run makes it.
    rs.validJumps = interp._getValidJumpDestinations(code).jumps
  }
  const sloadKey = op === 0x54 && depth > 0 ? store[depth - 1]! : 0n
  // The memory the instruction may write, from its inputs (before it pops them).
  const written = WRITES_MEMORY[op] === 1 ? writtenRange(op, store, depth) : undefined
  rs.opCode = op
  counters.hostSteps++
  counters.hostOps[op]!++
  try {
    await interp.runStep()
  } catch (e) {
    rs.env.accessWitness?.revert()
    if (!isEvmError(e)) throw e
    return { ended: true, err: e.error !== 'stop' ? e : undefined }
  }
  const after = rs.stack._len
  const out = inst.limbs()
  if (op === 0x55) exports.noteStore()
  else if (op === 0x54 && after === depth) {
    // The slot is warm now, its value on the stack: into the slot table.
    writeWord(out, layout.ioKey >> 3, sloadKey)
    writeWord(out, layout.ioValue >> 3, store[depth - 1]!)
    exports.noteSlot()
  } else if (RUNS_CODE[op] === 1) {
    exports.invalidateSlots()
    // The call's or create's return data, for RETURNDATASIZE and RETURNDATACOPY in the wasm.
    const data = rs.returnBytes
    const at = exports.setReturnData(data.length)
    if (data.length > 0) inst.bytes().set(data, at)
  }
  // The instruction's outputs.
  const limbsAfter = inst.limbs()
  const stackBase = layout.stack >> 3
  for (let i = depth - Math.min(STACK_INPUTS[op]!, depth); i < after; i++)
    writeWord(limbsAfter, stackBase + i * 4, store[i]!)
  const newWords = Number(rs.memoryWordCount)
  if (newWords !== words || written !== undefined) {
    const ptr = exports.setMemory(newWords, rs.highestMemCost)
    if (ptr === 0) throw new Error('the wasm EVM could not grow its memory')
    if (written !== undefined) {
      // What the instruction wrote, back into the wasm's memory.
      const memory = rs.memory._store
      const end = Math.min(written[1], newWords * 32, memory.length)
      if (end > written[0]) inst.bytes().set(memory.subarray(written[0], end), ptr + written[0])
    }
  }
  exports.setState(rs.programCounter, after, rs.gasLeft)
  return { ended: false, words: newWords }
}

async function runFrame({ engine, attachment }: Attached, interp: Interpreter, code: Uint8Array): Promise<RunResult> {
  const { counters, interrupt } = attachment
  const rs = interp._runState
  // As ethereumjs's run does for legacy code.
  rs.code = code
  const inst = engine.acquire()
  counters.frames++
  try {
    const { exports, layout } = inst
    const rec = startFrame(inst, interp, code, attachment)
    let status = exports.run(rec, rs.gasLeft)
    const stackBase = layout.stack >> 3
    let err: unknown
    for (;;) {
      const view = inst.view()
      const pc = view.getUint32(layout.resultPc, true)
      const depth = view.getUint32(layout.resultDepth, true)
      const gas = view.getBigInt64(layout.resultGasLeft, true)
      if (status === layout.statusYield) {
        // Awaited only when it pauses (most looks find the time slice not over yet).
        const paused = interrupt?.()
        if (paused !== undefined) await paused
        exports.setYieldGas(gas - YIELD_GAS)
        status = exports.resume()
        continue
      }
      rs.gasLeft = gas
      rs.programCounter = pc
      const words = view.getUint32(layout.resultMemWords, true)
      rs.memoryWordCount = BigInt(words)
      rs.highestMemCost = view.getBigInt64(layout.resultMemCost, true)
      if (status !== layout.statusHost) {
        // The wasm ended the frame: STOP, or RETURN / REVERT with their output (as ethereumjs's finish and revert).
        if (status !== layout.statusStop) {
          const out = view.getUint32(layout.resultOutPtr, true)
          interp._result.returnValue = inst.bytes().slice(out, out + view.getUint32(layout.resultOutLen, true))
          if (status === layout.statusRevert) err = new EVMError(EVMError.errorMessages.REVERT)
        }
        break
      }
      // Past the code's end: a STOP, as ethereumjs's loop ends there.
      if (pc >= code.length) break
      const op = code[pc]!
      // The instruction's inputs, the stack's top (ethereumjs's handlers read no deeper).
      const stack = rs.stack
      const limbs = inst.limbs()
      const inputs = Math.min(STACK_INPUTS[op]!, depth)
      for (let i = depth - inputs; i < depth; i++) stack._store[i] = readWord(limbs, stackBase + i * 4)
      stack._len = depth
      if (USES_MEMORY[op] === 1) {
        // What the wasm wrote since the last copy, into ethereumjs's memory (the rest is there already).
        const lo = view.getUint32(layout.resultDirtyLo, true)
        const hi = view.getUint32(layout.resultDirtyHi, true)
        if (hi > lo) {
          view.setUint32(layout.resultDirtyLo, 0xffffffff, true)
          view.setUint32(layout.resultDirtyHi, 0, true)
          rs.memory.extend(0, words * 32)
          const ptr = view.getUint32(layout.resultMemPtr, true)
          rs.memory._store.set(inst.bytes().subarray(ptr + lo, ptr + hi), lo)
        }
      }
      const step = await runHostStep(inst, interp, code, op, depth, words)
      if (step.ended) {
        err = step.err
        break
      }
      status = exports.resume()
    }
    return { runState: rs, exceptionError: err }
  } finally {
    inst.frame = undefined
    inst.exports.endFrame()
    engine.release(inst)
  }
}

/** Wasm instructions that write memory's bytes (the others may only grow it, with zeros). */
const WASM_WRITES_MEMORY = new Uint8Array(256)
for (const op of [0x37, 0x39, 0x3e, 0x52, 0x53, 0x5e]) WASM_WRITES_MEMORY[op] = 1
/** The immediate bytes ethereumjs's step event carries (PUSH1–PUSH32's). */
const IMMEDIATES = Uint8Array.from({ length: 256 }, (_, op) => (op >= 0x60 && op <= 0x7f ? op - 0x5f : 0))
const EMPTY = new Uint8Array(0)

/** What the wasm wrote to memory since the last copy, into ethereumjs's memory (words: memory's size). */
function copyDirtyMemory(inst: Instance, rs: RunState, words: number) {
  const { layout } = inst
  const view = inst.view()
  const lo = view.getUint32(layout.resultDirtyLo, true)
  const hi = view.getUint32(layout.resultDirtyHi, true)
  if (hi <= lo) return
  view.setUint32(layout.resultDirtyLo, 0xffffffff, true)
  view.setUint32(layout.resultDirtyHi, 0, true)
  rs.memory.extend(0, words * 32)
  const ptr = view.getUint32(layout.resultMemPtr, true)
  rs.memory._store.set(inst.bytes().subarray(ptr + lo, ptr + hi), lo)
}

/**
 * ethereumjs's `step` event for an instruction the wasm ran, as its _runStepHook makes it (the same
 * fields, for any listener): `stack` is the frame's stack before it (ethereumjs's own stack array,
 * kept whole while stepping), `cost` the gas it took (what ethereumjs's gas handler answers: its fee
 * and dynamic gas, nothing else is charged by those instructions), `memory` a copy of memory before it
 * (the same copy while no instruction changed memory). Answers the emit's promise, if it has one.
 */
function emitStep(
  interp: Interpreter,
  counters: WasmEngineCounters,
  sink: WasmStepSink | undefined,
  op: number,
  pc: number,
  gasLeft: bigint,
  cost: bigint,
  depth: number,
  words: bigint,
  memory: Uint8Array,
  error: Uint8Array | undefined,
): Promise<void> | undefined {
  const rs = interp._runState
  const env = interp._env
  const evm = interp._evm
  const info = evm._opcodeMap[op]!.opcodeInfo
  const stack = rs.stack._store.slice(0, depth)
  if (sink !== undefined) {
    counters.directSteps++
    return sink(pc, op, info.fullName, gasLeft, cost, stack, memory, env.depth, env.address, rs.gasRefund)
  }
  const immediates = IMMEDIATES[op]!
  return evm._emit('step', {
    pc,
    gasLeft,
    gasRefund: rs.gasRefund,
    opcode: { name: info.fullName, fee: info.fee, dynamicFee: cost, isAsync: info.isAsync, code: info.code },
    stack,
    depth: env.depth,
    address: env.address,
    account: env.contract,
    memory,
    memoryWordCount: words,
    codeAddress: env.codeAddress,
    stateManager: rs.stateManager,
    eofSection: undefined,
    immediate: immediates > 0 ? rs.code.slice(pc + 1, pc + 1 + immediates) : undefined,
    error,
    eofFunctionDepth: undefined,
  })
}

/**
 * A frame something observes step by step (a `step` listener: struct logs, JavaScript tracers), on
 * the wasm: it returns after every instruction it runs (STATUS_STEP), and this emits the `step` event
 * ethereumjs would have emitted before it, from what it kept of the state before (pc, gas, memory's
 * size and a copy of its bytes, ethereumjs's stack, which follows the wasm's: an instruction's outputs
 * are read back, DUP and SWAP are done here). Events are emitted in the order the instructions ran,
 * each before the next instruction runs, so a listener reading the state sees it as on ethereumjs.
 * Host steps are runStep's as in runFrame, with ethereumjs's stack and memory kept whole, so that
 * their own events (runStep emits them) are ethereumjs's too; the frame's end leaves its run state as
 * ethereumjs's run does (the last op and the pc after it, the stack, memory), which the tracer reads.
 */
async function runSteppedFrame(
  { engine, attachment }: Attached,
  interp: Interpreter,
  code: Uint8Array,
): Promise<RunResult> {
  const { counters, interrupt } = attachment
  const rs = interp._runState
  rs.code = code
  const inst = engine.acquire()
  counters.frames++
  counters.steppedFrames++
  try {
    const { exports, layout } = inst
    const rec = startFrame(inst, interp, code, attachment)
    // The steps go to the tracing adapter directly while it is the only listener.
    const sink =
      attachment.steps !== undefined && interp._evm.events.listenerCount('step') === 1 ? attachment.steps : undefined
    const stack = rs.stack
    const store = stack._store
    const stackBase = layout.stack >> 3
    // The state before the next instruction: its pc, gas, memory's size and (once made) a copy of its bytes.
    let pc = rs.programCounter
    let gas = rs.gasLeft
    let words = Number(rs.memoryWordCount)
    let memory: Uint8Array | undefined = words === 0 ? EMPTY : undefined
    const snapshot = () => {
      // ethereumjs copies its store up to memory's size: its store is as long as ethereumjs's (extended alike).
      const ptr = inst.view().getUint32(layout.resultMemPtr, true)
      return inst.bytes().slice(ptr, ptr + Math.min(words * 32, rs.memory._store.length))
    }
    let status = exports.runStepping(rec, gas)
    let err: unknown
    // The result fields, as indexes of u32s and i64s.
    const depthAt = layout.resultDepth >> 2
    const wordsAt = layout.resultMemWords >> 2
    const pcAt = layout.resultPc >> 2
    const gasAt = layout.resultGasLeft >> 3
    let wordCount = BigInt(words)
    for (;;) {
      if (status === layout.statusStep || status === layout.statusYield) {
        // The wasm ran the instruction at pc.
        const op = code[pc]!
        const u32s = inst.u32s()
        const after = inst.i64s()[gasAt]!
        const depth = stack._len
        rs.opCode = op
        const emitted = emitStep(
          interp,
          counters,
          sink,
          op,
          pc,
          gas,
          gas - after,
          depth,
          wordCount,
          (memory ??= snapshot()),
          undefined,
        )
        if (emitted !== undefined) await emitted
        // Its outputs into ethereumjs's stack.
        const newDepth = u32s[depthAt]!
        if (op >= 0x80 && op <= 0x8f) store[depth] = store[depth - (op - 0x7f)]!
        else if (op >= 0x90 && op <= 0x9f) {
          const other = depth - 1 - (op - 0x8f)
          const top = store[depth - 1]!
          store[depth - 1] = store[other]!
          store[other] = top
        } else if (newDepth > depth - STACK_INPUTS[op]!) {
          const limbs = inst.limbs()
          for (let i = depth - STACK_INPUTS[op]!; i < newDepth; i++)
            store[i] = readSmallWord(u32s, limbs, stackBase + i * 4)
        }
        stack._len = newDepth
        const newWords = u32s[wordsAt]!
        if (newWords !== words) {
          // ethereumjs's handler extends its store over what it touched (the store's length shows in its events).
          rs.memory.extend(0, newWords * 32)
          words = newWords
          wordCount = BigInt(words)
          memory = undefined
        } else if (WASM_WRITES_MEMORY[op] === 1) memory = undefined
        pc = u32s[pcAt]!
        gas = after
        if (status === layout.statusYield) {
          const paused = interrupt?.()
          if (paused !== undefined) await paused
          exports.setYieldGas(gas - YIELD_GAS)
        }
        // The copy of memory before an instruction that writes it is made now, before it runs.
        if (memory === undefined && WASM_WRITES_MEMORY[code[pc]!] === 1) memory = snapshot()
        status = exports.resumeStepping()
        continue
      }
      // (A DataView over linear memory is checked against its buffer: not made for every step.)
      const view = inst.view()
      if (status !== layout.statusHost) {
        // The wasm ended the frame: STOP, RETURN or REVERT at pc (or ran past the code's end: no step).
        const after = view.getBigInt64(layout.resultGasLeft, true)
        const newWords = view.getUint32(layout.resultMemWords, true)
        let output: Uint8Array | undefined
        if (status !== layout.statusStop) {
          const out = view.getUint32(layout.resultOutPtr, true)
          output = inst.bytes().slice(out, out + view.getUint32(layout.resultOutLen, true))
          interp._result.returnValue = output
          if (status === layout.statusRevert) err = new EVMError(EVMError.errorMessages.REVERT)
        }
        if (pc < code.length) {
          const op = code[pc]!
          rs.opCode = op
          const emitted = emitStep(
            interp,
            counters,
            sink,
            op,
            pc,
            gas,
            gas - after,
            stack._len,
            wordCount,
            (memory ??= snapshot()),
            op === 0xfd ? output!.slice() : undefined,
          )
          if (emitted !== undefined) await emitted
          pc++
        }
        stack._len = view.getUint32(layout.resultDepth, true)
        if (newWords !== words) rs.memory.extend(0, newWords * 32)
        copyDirtyMemory(inst, rs, newWords)
        rs.programCounter = pc
        rs.gasLeft = after
        rs.memoryWordCount = BigInt(newWords)
        rs.highestMemCost = view.getBigInt64(layout.resultMemCost, true)
        break
      }
      // A host step: ethereumjs's stack is whole already; its memory gets what the wasm wrote.
      rs.gasLeft = gas
      rs.programCounter = pc
      rs.memoryWordCount = BigInt(words)
      rs.highestMemCost = view.getBigInt64(layout.resultMemCost, true)
      // Past the code's end: a STOP, as ethereumjs's loop ends there.
      if (pc >= code.length) break
      const op = code[pc]!
      const depth = stack._len
      copyDirtyMemory(inst, rs, words)
      const step = await runHostStep(inst, interp, code, op, depth, words)
      if (step.ended) {
        err = step.err
        break
      }
      if (step.words !== words || WRITES_MEMORY[op] === 1) {
        memory = undefined
        words = step.words
        wordCount = BigInt(words)
      }
      pc = rs.programCounter
      gas = rs.gasLeft
      if (memory === undefined && WASM_WRITES_MEMORY[code[pc] ?? 0] === 1) memory = snapshot()
      status = exports.resumeStepping()
    }
    return { runState: rs, exceptionError: err }
  } finally {
    inst.frame = undefined
    inst.exports.endFrame()
    engine.release(inst)
  }
}

function readLayout(exports: Record<string, unknown>): Layout {
  const constant = (name: string) => {
    const global = exports[name]
    if (!(global instanceof WebAssembly.Global)) throw new Error(`the wasm EVM exports no ${name}`)
    return Number(global.value)
  }
  return {
    ioKey: constant('IO_KEY'),
    ioValue: constant('IO_VALUE'),
    envAddress: constant('ENV_ADDRESS'),
    envCaller: constant('ENV_CALLER'),
    envCallValue: constant('ENV_CALLVALUE'),
    resultStatus: constant('RESULT_STATUS'),
    resultPc: constant('RESULT_PC'),
    resultDepth: constant('RESULT_DEPTH'),
    resultDirtyLo: constant('RESULT_DIRTY_LO'),
    resultDirtyHi: constant('RESULT_DIRTY_HI'),
    resultOutPtr: constant('RESULT_OUT_PTR'),
    resultOutLen: constant('RESULT_OUT_LEN'),
    resultGasLeft: constant('RESULT_GAS_LEFT'),
    resultMemWords: constant('RESULT_MEM_WORDS'),
    resultOpcode: constant('RESULT_OPCODE'),
    resultMemCost: constant('RESULT_MEM_COST'),
    resultMemPtr: constant('RESULT_MEM_PTR'),
    stack: constant('STACK'),
    gasTable: constant('GAS_TABLE'),
    codeHeader: constant('CODE_HEADER'),
    statusHost: constant('STATUS_HOST'),
    statusYield: constant('STATUS_YIELD'),
    statusStop: constant('STATUS_STOP'),
    statusReturn: constant('STATUS_RETURN'),
    statusRevert: constant('STATUS_REVERT'),
    statusStep: constant('STATUS_STEP'),
  }
}

function instantiate(module: CompiledWasmModule, handlers: Handlers): Instance {
  let view = new Uint8Array(0)
  let limbs = new BigUint64Array(0)
  let u32s = new Uint32Array(0)
  let i64s = new BigInt64Array(0)
  let dataView = new DataView(new ArrayBuffer(0))
  let memory: WebAssembly.Memory | undefined
  const inst = {} as Instance
  const sload = (key: number, out: number, gas: bigint): bigint => {
    const interp = inst.frame!
    const mem = inst.bytes()
    let slot = '0x'
    for (let i = key; i < key + 32; i++) slot += HEX[mem[i]!]
    const value = interp._stateManager.storageAtHand?.(inst.address, slot as Hex)
    if (value === undefined) return -1n
    const keyBytes = mem.slice(key, key + 32)
    const address = interp._runState.env.address.bytes
    const warm = interp.journal.isWarmedStorage(address, keyBytes)
    const cost = warm ? inst.warmSload : inst.coldSload
    if (gas < cost) return -1n
    if (!warm) interp.journal.addWarmedStorage(address, keyBytes)
    const pad = 32 - value.length
    if (pad > 0) mem.fill(0, out, out + pad)
    mem.set(value, out + pad)
    inst.counters.hostSloads++
    return cost
  }
  const instance = new WebAssembly.Instance(module as WebAssembly.Module, { host: { sload } })
  const exports = instance.exports as unknown as Exports
  memory = exports.memory
  Object.assign(inst, {
    exports,
    layout: readLayout(instance.exports),
    codes: new WeakMap(),
    handlers,
    table: undefined,
    fees: undefined,
    frame: undefined,
    address: '0x',
    counters: newWasmEngineCounters(),
    warmSload: 0n,
    coldSload: 0n,
    // Views over linear memory, made again when it has grown (the old buffer is then detached).
    bytes: () => (view.byteLength === 0 ? (view = new Uint8Array(memory!.buffer)) : view),
    limbs: () => (limbs.byteLength === 0 ? (limbs = new BigUint64Array(memory!.buffer)) : limbs),
    u32s: () => (u32s.length === 0 ? (u32s = new Uint32Array(memory!.buffer)) : u32s),
    i64s: () => (i64s.length === 0 ? (i64s = new BigInt64Array(memory!.buffer)) : i64s),
    view: () => (dataView.buffer !== memory!.buffer ? (dataView = new DataView(memory!.buffer)) : dataView),
  })
  return inst
}

/**
 * The wasm engine over a compiled module (the bytes of dist/wasm/evm.wasm, compiled): patches
 * ethereumjs's interpreter (once per process) and keeps a pool of module instances.
 */
export async function createWasmEngine(module: CompiledWasmModule): Promise<WasmEngine> {
  await patchInterpreter()
  const idle: Instance[] = []
  // Checks the module's interface once, now.
  const handlers = await pristineHandlers()
  idle.push(instantiate(module, handlers))
  const runtime: Runtime = {
    acquire() {
      const inst = idle.pop() ?? instantiate(module, handlers)
      if (inst.exports.heapUsed() > HEAP_LIMIT) {
        inst.exports.resetHeap()
        inst.codes = new WeakMap()
      }
      return inst
    },
    release(inst) {
      if (idle.length < POOL_LIMIT) idle.push(inst)
    },
  }
  return {
    attach(evm, attachment) {
      const internals = evm as unknown as EvmInternals
      const previous = internals[MARK]
      const attached: Attached = { engine: runtime, attachment }
      internals[MARK] = attached
      return () => {
        if (internals[MARK] !== attached) return
        if (previous === undefined) delete internals[MARK]
        else internals[MARK] = previous
      }
    },
  }
}
