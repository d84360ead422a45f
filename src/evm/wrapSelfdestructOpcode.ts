import type { TracerHooks } from '../tracing/hooks.js'
import type { Hex } from '../types/hex.js'
import type { OpcodeTablePatch } from './createOpcodeTablePatch.js'
import type { StepListener } from './createStepListener.js'
import { addressOfWord } from './stackWords.js'
import type { RunState } from './types.js'

/** SELFDESTRUCT as geth shows it: a frame of its own, moving the balance to the beneficiary. */
export function wrapSelfdestructOpcode(table: OpcodeTablePatch, hooks: TracerHooks, steps: StepListener): void {
  table.wrap(0xff, (original) => async (rs: RunState, common: unknown) => {
    const beneficiary = addressOfWord(rs.stack.peek(1)[0]!)
    const self = rs.interpreter.getAddress()
    const balance = (await rs.stateManager.getAccount(self))?.balance ?? 0n
    // Reported before the handler runs: ethereumjs ends the frame by throwing from it (STOP), and
    // nothing can fail in it any more (the static-context check happened in its gas handler).
    const depth = rs.env.depth + 1
    steps.flush()
    hooks.onEnter?.({
      depth,
      kind: 'SELFDESTRUCT',
      from: self.toString() as Hex,
      to: beneficiary,
      input: new Uint8Array(0),
      gas: 0n,
      value: balance,
      precompile: false,
    })
    hooks.onExit?.({ depth, output: new Uint8Array(0), gasUsed: 0n, reverted: false })
    return original(rs, common)
  })
}
