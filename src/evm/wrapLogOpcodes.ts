import { bytesToHex } from '@ethereumjs/util'
import type { TracerHooks } from '../tracing/hooks.js'
import type { Hex } from '../types/hex.js'
import type { OpcodeTablePatch } from './createOpcodeTablePatch.js'
import type { FrameTracker } from './createFrameTracker.js'
import type { StepListener } from './createStepListener.js'
import { readMemory } from './readMemory.js'
import { bytesOfWord } from './stackWords.js'
import type { RunState } from './types.js'

/** OnLog from LOG0–LOG4's handlers (ethereumjs has no log event), with geth's log index. */
export function wrapLogOpcodes(
  table: OpcodeTablePatch,
  hooks: TracerHooks,
  tracker: FrameTracker,
  steps: StepListener,
): void {
  for (let op = 0xa0; op <= 0xa4; op++) {
    table.wrap(op, (original) => (rs: RunState, common: unknown) => {
      const n = op - 0xa0
      const args = rs.stack.peek(2 + n)
      const data = readMemory(rs, args[0]!, args[1]!)
      const topics = args.slice(2).map((t) => bytesToHex(bytesOfWord(t)) as Hex)
      original(rs, common)
      steps.flush()
      hooks.onLog!({
        address: rs.interpreter.getAddress().toString() as Hex,
        topics,
        data,
        index: tracker.nextLogIndex(),
      })
    })
  }
}
