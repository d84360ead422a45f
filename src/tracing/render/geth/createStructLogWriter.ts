import { bytesToHex } from '@ethereumjs/util'
import type { OpcodeStep } from '../../hooks.js'
import { gethOpcodeName } from '../../gethOpcodeName.js'
import { shouldYield, yieldToEventLoop } from '../../../utils/yieldToEventLoop.js'
import type { Hex } from '../../../types/hex.js'

/** The struct logger's options (geth's logger.Config; Erigon's disableMemory accepted as well). */
export type StructLoggerConfig = {
  enableMemory: boolean
  disableStack: boolean
  disableStorage: boolean
  enableReturnData: boolean
  /** Most struct logs to emit (0 = all), counted in entries as Erigon does. */
  limit: number
  /**
   * An edgetrace extension (geth and Erigon ignore the key): steps left out before the first one
   * emitted, so a client pages through a big trace (`offset` + `limit`) instead of loading it whole.
   * Storage seen in skipped steps still accumulates, so each emitted step's `storage` is as in the
   * whole trace.
   */
  offset: number
  /**
   * An edgetrace extension: instead of the steps, `stepIndex` — how many steps there are, where each
   * frame's code starts (step, depth, storage context) and the steps that store, revert, log or fail —
   * so a stepper can jump to them and then ask for just that page (`offset`).
   */
  stepIndex?: boolean | undefined
}

/** What `stepIndex` answers: step numbers are the struct logs' positions (0-based). */
export type StepIndex = {
  steps: number
  /** [step, depth, address] for each step where execution entered a deeper frame. */
  frames: [number, number, Hex][]
  sstore: number[]
  revert: number[]
  log: number[]
  error: number[]
}

/** How the transaction ended, for the result's tail. */
export type StructLogOutcome = {
  /** Gas used as the receipt has it. */
  gas: bigint
  failed: boolean
  /** The output, or the revert data; empty for other failures. */
  returnValue: Uint8Array
}

export type StructLogWriter = {
  onOpcode(step: OpcodeStep): void
  /** A promise while the transport is behind (the EVM waits on it before the next op). */
  drain(): Promise<void> | undefined
  /** Writes the tail and flushes. */
  finish(outcome: StructLogOutcome): Promise<void>
  /** Closes the open JSON after a failure, so the envelope can carry the error; true if any was written. */
  abort(): Promise<boolean>
}

const CHUNK = 64 * 1024

const opName = (step: OpcodeStep) => gethOpcodeName(step.op, step.opName)

const word = (bytes: Uint8Array) => bytesToHex(bytes)

/**
 * The JSON strings of stack words below 2^16 (most of a stack: counters, offsets, jump targets), each
 * made once (the table, half a megabyte, with the first struct log).
 */
let smallWords: string[] | undefined
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
/** Gas as a JSON number: through a Number when it is exact (a bigint's digits take twice as long). */
const quantity = (value: bigint): number | bigint => (value <= MAX_SAFE ? Number(value) : value)
/** A stack word as the struct log's JSON string ("0x…", no leading zeros). */
const stackWord = (value: bigint): string => {
  if (value >= 0x10000n) return `"0x${value.toString(16)}"`
  const n = Number(value)
  smallWords ??= new Array<string>(0x10000)
  let text = smallWords[n]
  if (text === undefined) smallWords[n] = text = `"0x${n.toString(16)}"`
  return text
}

/**
 * The struct logger as a streaming renderer: each step becomes geth's JSON struct log
 * (eth/tracers/logger: pc, op, gas, gasCost, depth, error, stack, returnData, memory, storage,
 * refund — empty ones omitted) and is written out in chunks as execution goes, so a million-step
 * trace never sits in memory. The object is written `structLogs` first, then `gas`, `failed` and
 * `returnValue` (known only at the end) — Erigon's streaming order; JSON key order carries no meaning.
 */
export function createStructLogWriter(
  config: StructLoggerConfig,
  write: (chunk: string) => void | Promise<void>,
): StructLogWriter {
  let buffer = config.stepIndex ? '{"structLogs":[],"stepIndex":' : '{"structLogs":['
  const index: StepIndex | undefined = config.stepIndex
    ? { steps: 0, frames: [], sstore: [], revert: [], log: [], error: [] }
    : undefined
  let lastDepth = 0
  let count = 0
  let skipped = 0
  let pending: Promise<void> | undefined
  let sinceYield = 0
  let closed = false
  let started = false
  /** The transport failed (the client went away): stop the execution at its next step. */
  let failure: unknown
  /** Per contract: the slots SLOAD/SSTORE have seen (geth's accumulated `storage`). */
  const storage = new Map<string, Map<string, string>>()

  const flush = () => {
    if (buffer === '') return
    const chunk = buffer
    buffer = ''
    started = true
    const previous = pending
    const result = previous ? previous.then(() => write(chunk)) : write(chunk)
    if (result instanceof Promise) {
      const p: Promise<void> = result
        .catch((err: unknown) => {
          failure ??= err
        })
        .finally(() => {
          if (pending === p) pending = undefined
        })
      pending = p
    }
  }

  /** Adds an SLOAD's or SSTORE's slot to what its contract's storage has shown. */
  function seeStorage(step: OpcodeStep): Map<string, string> {
    let seen = storage.get(step.address)
    if (!seen) storage.set(step.address, (seen = new Map()))
    if (step.slot) seen.set(word(step.slot.key), word(step.slot.value))
    return seen
  }

  function render(step: OpcodeStep): string {
    let out = `{"pc":${step.pc},"op":"${opName(step)}","gas":${quantity(step.gas)},"gasCost":${quantity(step.cost)},"depth":${step.depth}`
    if (step.error) out += `,"error":${JSON.stringify(step.error)}`
    if (!config.disableStack) {
      const stack = step.stack
      out += stack.length === 0 ? ',"stack":[' : `,"stack":[${stackWord(stack[0]!)}`
      for (let i = 1; i < stack.length; i++) out += `,${stackWord(stack[i]!)}`
      out += ']'
    }
    if (config.enableReturnData && step.returnData.length > 0) out += `,"returnData":"${bytesToHex(step.returnData)}"`
    if (config.enableMemory && step.memory.length > 0) {
      out += ',"memory":['
      for (let i = 0; i < step.memory.length; i += 32) {
        const chunk = step.memory.subarray(i, i + 32)
        const padded = chunk.length === 32 ? chunk : Uint8Array.from({ length: 32 }, (_, j) => chunk[j] ?? 0)
        out += `${i ? ',' : ''}"${word(padded)}"`
      }
      out += ']'
    }
    if (!config.disableStorage && step.slot && (step.op === 0x54 || step.op === 0x55)) {
      const seen = seeStorage(step)
      const keys = [...seen.keys()].sort()
      out += `,"storage":{${keys.map((k) => `"${k}":"${seen.get(k)}"`).join(',')}}`
    }
    if (step.refund !== 0n) out += `,"refund":${step.refund}`
    return `${out}}`
  }

  return {
    onOpcode(step) {
      if (failure !== undefined) throw failure
      if (index) {
        const n = index.steps++
        if (step.depth > lastDepth) index.frames.push([n, step.depth, step.address])
        lastDepth = step.depth
        if (step.op === 0x55) index.sstore.push(n)
        else if (step.op === 0xfd) index.revert.push(n)
        else if (step.op >= 0xa0 && step.op <= 0xa4) index.log.push(n)
        if (step.error) index.error.push(n)
        return
      }
      if (skipped < config.offset) {
        skipped++
        if (!config.disableStorage && step.slot && (step.op === 0x54 || step.op === 0x55)) seeStorage(step)
        return
      }
      if (config.limit > 0 && count >= config.limit) return
      buffer += (count++ === 0 ? '' : ',') + render(step)
      if (buffer.length >= CHUNK) flush()
    },
    // Behind the transport, wait for it; otherwise, every 64 steps, let the event loop in once the
    // shared slice is used up (a loop of wide steps renders for long between the EVM's own pauses at
    // jumps and calls: other clients waited 60 ms and more).
    drain: () => pending ?? (++sinceYield % 64 === 0 && shouldYield() ? yieldToEventLoop() : undefined),
    async finish(outcome) {
      closed = true
      buffer += index ? `${JSON.stringify(index)}` : ']'
      buffer += `,"gas":${outcome.gas},"failed":${outcome.failed},"returnValue":"${bytesToHex(outcome.returnValue)}"}`
      flush()
      await pending
      if (failure !== undefined) throw failure
    },
    async abort() {
      if (closed) return started
      closed = true
      // Nothing left yet: drop it all, so the error goes out as a plain error response.
      if (!started) {
        buffer = ''
        return false
      }
      buffer = ']}'
      flush()
      await pending?.catch(() => {})
      return true
    },
  }
}
