import type { EVM } from '@ethereumjs/evm'
import type { AbortCheck } from '../types/deadline.js'
import type { OpcodeTablePatch } from './createOpcodeTablePatch.js'
import { throwIfAborted } from './throwIfAborted.js'
import type { OpHandler, Scheduler } from './types.js'
import { waitedListener } from './waitedListener.js'

/** Jumps between two looks at the clock (a deadline holds to well under a millisecond of EVM work). */
const JUMPS_PER_CHECK = 64

/**
 * Checks the deadline and shares the thread inside the interpreter, traced or not: at every few
 * jumps (loops need one, so pure computation is bounded too) and at every call and create (a deep
 * tree of calls needs no jump). Patches JUMP/JUMPI in `table` (before it is installed) and listens
 * to beforeMessage; returns the listener's removal, or undefined when there is nothing to check.
 */
export function attachInterrupts(
  evm: EVM,
  table: OpcodeTablePatch,
  signal: AbortCheck | undefined,
  scheduler: Scheduler | undefined,
): (() => void) | undefined {
  if (!signal && !scheduler) return undefined
  interruptJumps(table, signal, scheduler)
  // Every call and create starts a message: pause there when the slice is used up (ethereumjs
  // waits for a listener that takes its second argument).
  const onMessage = waitedListener(() => {
    throwIfAborted(signal)
    return scheduler?.shouldYield() ? scheduler.yieldToEventLoop() : undefined
  })
  evm.events.on('beforeMessage', onMessage as never)
  return () => void evm.events.off('beforeMessage', onMessage as never)
}

type OpInfo = { code: number; name: string; fullName: string; fee: number; isAsync: boolean; dynamicGas: boolean }

/**
 * A pause needs the interpreter to await the handler, which it does only for async ops — and an
 * await on every jump doubles the cost of a tight loop. So the jumps stay sync; when a pause is due,
 * the jumps' entries (our own objects) point at an async twin of their op info until the next jump,
 * which returns the pause for the interpreter to await. The EVM's op info objects are frozen; the
 * twin is built by their own class, so every opcode's lookups in the interpreter keep seeing one
 * shape (a plain copy has another, and slows every opcode down by some 10%).
 */
function interruptJumps(
  table: OpcodeTablePatch,
  signal: AbortCheck | undefined,
  scheduler: Scheduler | undefined,
): void {
  let jumps = 0
  let pauseDue = false
  const entries: { entry: { opcodeInfo: unknown }; sync: unknown; async: unknown }[] = []
  const setAsync = (value: boolean) => {
    for (const e of entries) e.entry.opcodeInfo = value ? e.async : e.sync
  }
  for (const op of [0x56, 0x57]) {
    table.replace(op, (entry) => {
      const original = entry.opHandler as OpHandler
      const sync = entry.opcodeInfo as OpInfo
      const OpcodeClass = (sync as object).constructor as new (fields: OpInfo) => OpInfo
      const async = new OpcodeClass({
        code: sync.code,
        name: sync.name,
        fullName: sync.fullName,
        fee: sync.fee,
        isAsync: true,
        dynamicGas: sync.dynamicGas,
      })
      const patched = {
        ...entry,
        opHandler: (rs: Parameters<OpHandler>[0], common: unknown) => {
          if (pauseDue) {
            pauseDue = false
            setAsync(false)
            return scheduler!.yieldToEventLoop().then(() => {
              throwIfAborted(signal)
              return original(rs, common)
            })
          }
          if (++jumps % JUMPS_PER_CHECK === 0) {
            throwIfAborted(signal)
            if (scheduler?.shouldYield()) {
              pauseDue = true
              setAsync(true)
            }
          }
          return original(rs, common)
        },
      }
      entries.push({ entry: patched, sync, async })
      return patched
    })
  }
}
