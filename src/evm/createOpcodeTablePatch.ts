import type { EVM } from '@ethereumjs/evm'
import type { OpcodeEntry, OpHandler, RunState } from './types.js'

export type OpcodeTablePatch = {
  /** Replaces an op's entry with one built from its current entry (nothing when the fork lacks the op). */
  replace(op: number, build: (entry: OpcodeEntry) => OpcodeEntry): void
  /** Replaces an op's handler with one built around its current handler. */
  wrap(op: number, wrapper: (original: OpHandler) => OpHandler): void
  /** Runs `observe` just before the op's handler, sync or async as the op is. */
  observeBefore(op: number, observe: (rs: RunState) => void): void
  /** Puts the patched table in the EVM's place. */
  install(): void
  /** Puts the EVM's own table back. */
  restore(): void
}

/**
 * A copy of the EVM's opcode table to patch: the EVM's own entries are shared by every run of it,
 * so they are never changed, only replaced in the copy, which is in use from install() to restore().
 */
export function createOpcodeTablePatch(evm: EVM): OpcodeTablePatch {
  const internals = evm as unknown as { _opcodeMap: (OpcodeEntry | undefined)[] }
  const originalMap = internals._opcodeMap
  const patched = [...originalMap]
  const replace = (op: number, build: (entry: OpcodeEntry) => OpcodeEntry) => {
    const entry = patched[op]
    if (entry) patched[op] = build(entry)
  }
  const wrap = (op: number, wrapper: (original: OpHandler) => OpHandler) =>
    replace(op, (entry) => ({ ...entry, opHandler: wrapper(entry.opHandler as OpHandler) }))
  return {
    replace,
    wrap,
    // One plain function for both kinds: it hands back what the handler returns, which the
    // interpreter awaits for an op flagged async and ignores for a sync one.
    observeBefore: (op, observe) =>
      wrap(op, (original) => (rs, common) => {
        observe(rs)
        return original(rs, common)
      }),
    install: () => {
      internals._opcodeMap = patched
    },
    restore: () => {
      internals._opcodeMap = originalMap
    },
  }
}
