import { lookupSources } from '../render/source/lookupSources.js'
import { toSourceFrames } from '../render/source/toSourceFrames.js'
import type { NativeTracer } from './types.js'

/**
 * `edgetrace_sourceTracer`: the transaction at the source level, from the build outputs the daemon
 * was given (`--sources`, the engine's `sources`) and, with `--sourcify`, the verified sources a
 * Sourcify server has for code none of them matches (matched to the code that ran, never trusted by
 * address). Frames whose code matches no known contract come without lines (with `sources` saying
 * why, when a lookup was made).
 */
export const sourceTracer: NativeTracer<Record<string, never>> = {
  name: 'edgetrace_sourceTracer',
  parseConfig: () => ({}),
  needs: () => ({ logs: true, steps: true, state: true, preimages: true }),
  local: () => true,
  render: async (run) => {
    const { registry, notes } = await lookupSources(run)
    return toSourceFrames(run.arena, run.access, registry, notes)
  },
}
