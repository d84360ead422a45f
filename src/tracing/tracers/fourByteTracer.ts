import { toFourByte } from '../render/geth/toFourByte.js'
import type { NativeTracer } from './types.js'

export const fourByteTracer: NativeTracer<Record<string, never>> = {
  name: '4byteTracer',
  parseConfig: () => ({}),
  needs: () => ({ logs: false, steps: false, state: false }),
  render: (run) => toFourByte(run.arena),
}
