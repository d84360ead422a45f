import type { EVM } from '@ethereumjs/evm'
import type { CallKind } from '../tracing/hooks.js'
import type { Hex } from '../types/hex.js'
import type { AbortCheck } from '../types/deadline.js'
import type { OpcodeTablePatch } from './createOpcodeTablePatch.js'
import type { FrameTracker } from './createFrameTracker.js'
import type { StepListener } from './createStepListener.js'
import { readMemory } from './readMemory.js'
import { addressOfWord } from './stackWords.js'
import { throwIfAborted } from './throwIfAborted.js'
import type { RunState } from './types.js'

const CALLS: Record<number, CallKind> = { 0xf1: 'CALL', 0xf2: 'CALLCODE', 0xf4: 'DELEGATECALL', 0xfa: 'STATICCALL' }
const CREATES: Record<number, CallKind> = { 0xf0: 'CREATE', 0xf5: 'CREATE2' }
const EMPTY = new Uint8Array(0)

/**
 * Wraps the ops that start frames or decide how geth words their end: the CALL and CREATE families
 * (their kind, and the frames ethereumjs refuses without an event), RETURN in init code (the code a
 * CREATE deposits) and SSTORE's gas check (EIP-2200's sentry). Observed from the handlers, so that
 * call-only tracing needs no `step` listener.
 */
export function wrapFrameOpcodes(
  table: OpcodeTablePatch,
  evm: EVM,
  tracker: FrameTracker,
  steps: StepListener,
  signal: AbortCheck | undefined,
): void {
  const { frames } = tracker
  for (const [opText, kind] of Object.entries(CALLS)) {
    const op = Number(opText)
    table.wrap(op, (original) => async (rs: RunState, common: unknown) => {
      const hasValue = kind === 'CALL' || kind === 'CALLCODE'
      const args = rs.stack.peek(hasValue ? 5 : 4)
      const value = hasValue ? args[2]! : 0n
      // Only a call that fails fast (depth limit; a value above the balance) needs its input here,
      // for the frame synthesised below: copy it only when that can happen.
      const mayFailFast = value !== 0n || rs.env.depth >= 1023
      const input = !mayFailFast
        ? EMPTY
        : hasValue
          ? readMemory(rs, args[3]!, args[4]!)
          : readMemory(rs, args[2]!, args[3]!)
      let gas = rs.messageGasLimit ?? 0n
      if (hasValue && value !== 0n) gas += 2300n
      steps.completeCall(op, rs.messageGasLimit ?? 0n)
      throwIfAborted(signal)
      const mark = tracker.beginCallOpcode(kind)
      await original(rs, common)
      if (tracker.endCallOpcode(rs, mark)) return
      const parent = frames[frames.length - 1]
      const to = addressOfWord(args[1]!)
      tracker.refuse({
        depth: rs.env.depth + 1,
        kind,
        from: rs.env.address.toString() as Hex,
        to,
        input,
        gas,
        value: kind === 'STATICCALL' ? undefined : kind === 'DELEGATECALL' ? (parent?.value ?? 0n) : value,
        precompile: tracker.isPrecompile(to),
      })
    })
  }
  for (const [opText, kind] of Object.entries(CREATES)) {
    table.wrap(Number(opText), (original) => async (rs: RunState, common: unknown) => {
      const [value, offset, length] = rs.stack.peek(3)
      const input = readMemory(rs, offset!, length!)
      const gas = rs.messageGasLimit ?? 0n
      steps.flush()
      throwIfAborted(signal)
      const mark = tracker.beginCallOpcode(kind)
      await original(rs, common)
      if (tracker.endCallOpcode(rs, mark)) return
      const from = rs.env.address.toString() as Hex
      tracker.refuse({
        depth: rs.env.depth + 1,
        kind,
        from,
        to: undefined,
        input,
        gas,
        value: value!,
        precompile: false,
      })
    })
  }
  // SSTORE's gas handler refuses to run with ≤ 2300 gas left (EIP-2200's sentry): remember it.
  if (evm.common.gteHardfork('istanbul')) {
    table.replace(0x55, (entry) => {
      const originalGas = entry.gasHandler
      if (!originalGas) return entry
      return {
        ...entry,
        gasHandler: async (rs: RunState & { gasLeft: bigint }, gas: bigint, common: unknown) => {
          const left = rs.gasLeft
          try {
            return await originalGas(rs, gas, common)
          } catch (e) {
            const top = frames[frames.length - 1]
            if (top && left <= 2300n) top.sentry = true
            throw e
          }
        },
      }
    })
  }
  // RETURN in init code: the code a CREATE deposits. ethereumjs reports a deposit that runs out of
  // gas as a plain "out of gas" with no output; geth says "contract creation code storage out of gas".
  table.observeBefore(0xf3, (rs) => {
    const top = frames[frames.length - 1]
    if (top?.create) {
      const [offset, length] = rs.stack.peek(2)
      top.returned = readMemory(rs, offset!, length!)
    }
  })
}
