import { type PrestateTracerConfig, toPrestate } from '../render/geth/toPrestate.js'
import { type NativeTracer, configReader } from './types.js'

export const prestateTracer: NativeTracer<PrestateTracerConfig> = {
  name: 'prestateTracer',
  parseConfig(raw) {
    const r = configReader('prestateTracer', raw)
    return {
      diffMode: r.bool('diffMode'),
      disableCode: r.bool('disableCode'),
      disableStorage: r.bool('disableStorage'),
      includeEmpty: r.bool('includeEmpty'),
    }
  },
  needs: () => ({ logs: false, steps: false, state: true }),
  render: (run, config) => toPrestate(run.access!, config),
}
