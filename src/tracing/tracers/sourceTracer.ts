import { toSourceFrames } from '../render/source/toSourceFrames.js'
import type { NativeTracer } from './types.js'

/**
 * `edgetrace_sourceTracer`: the transaction at the source level, from the build outputs the daemon
 * was given (`--sources`, the engine's `sources`). Frames whose code matches no known contract come
 * without lines.
 */
export const sourceTracer: NativeTracer<Record<string, never>> = {
  name: 'edgetrace_sourceTracer',
  parseConfig: () => ({}),
  needs: () => ({ logs: true, steps: true, state: true, preimages: true }),
  local: () => true,
  render: (run) => toSourceFrames(run.arena, run.access, run.sources),
}
