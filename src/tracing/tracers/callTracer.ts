import { type CallTracerConfig, toCallFrame } from '../render/geth/toCallFrame.js'
import { type NativeTracer, configReader } from './types.js'

export const callTracer: NativeTracer<CallTracerConfig> = {
  name: 'callTracer',
  parseConfig(raw) {
    const r = configReader('callTracer', raw)
    return {
      onlyTopCall: r.bool('onlyTopCall'),
      withLog: r.bool('withLog'),
      includePrecompiles: r.bool('includePrecompiles', true),
    }
  },
  needs: (config) => ({ logs: config.withLog, steps: false, state: false }),
  render: (run, config) => toCallFrame(run.arena, config) ?? null,
}
