import { type FlatCallTracerConfig, toFlatCallFrames } from '../render/geth/toFlatCallFrames.js'
import { type NativeTracer, configReader } from './types.js'

export const flatCallTracer: NativeTracer<FlatCallTracerConfig> = {
  name: 'flatCallTracer',
  parseConfig(raw) {
    const r = configReader('flatCallTracer', raw)
    return { includePrecompiles: r.bool('includePrecompiles'), convertParityErrors: r.bool('convertParityErrors') }
  },
  needs: () => ({ logs: false, steps: false, state: false }),
  render: (run, config) => toFlatCallFrames(run.arena, config, run.context),
}
