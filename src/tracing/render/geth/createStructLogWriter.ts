import { bytesToHex } from '@ethereumjs/util'
import type { OpcodeStep } from '../../hooks.js'
import { gethOpcodeName } from '../../gethOpcodeName.js'

/** The struct logger's options (geth's logger.Config; Erigon's disableMemory accepted as well). */
export type StructLoggerConfig = {
  enableMemory: boolean
  disableStack: boolean
  disableStorage: boolean
  enableReturnData: boolean
  /** Most struct logs to emit (0 = all), counted in entries as Erigon does. */
  limit: number
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
  let buffer = '{"structLogs":['
  let count = 0
  let pending: Promise<void> | undefined
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

  function render(step: OpcodeStep): string {
    let out = `{"pc":${step.pc},"op":"${opName(step)}","gas":${step.gas},"gasCost":${step.cost},"depth":${step.depth}`
    if (step.error) out += `,"error":${JSON.stringify(step.error)}`
    if (!config.disableStack) {
      out += ',"stack":['
      for (let i = 0; i < step.stack.length; i++) out += `${i ? ',' : ''}"0x${step.stack[i]!.toString(16)}"`
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
      let seen = storage.get(step.address)
      if (!seen) storage.set(step.address, (seen = new Map()))
      seen.set(word(step.slot.key), word(step.slot.value))
      const keys = [...seen.keys()].sort()
      out += `,"storage":{${keys.map((k) => `"${k}":"${seen.get(k)}"`).join(',')}}`
    }
    if (step.refund !== 0n) out += `,"refund":${step.refund}`
    return `${out}}`
  }

  return {
    onOpcode(step) {
      if (failure !== undefined) throw failure
      if (config.limit > 0 && count >= config.limit) return
      buffer += (count++ === 0 ? '' : ',') + render(step)
      if (buffer.length >= CHUNK) flush()
    },
    drain: () => pending,
    async finish(outcome) {
      closed = true
      buffer += `],"gas":${outcome.gas},"failed":${outcome.failed},"returnValue":"${bytesToHex(outcome.returnValue)}"}`
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
