import type { NativeTracer } from './types.js'

/** geth's noopTracer: records nothing, returns `{}` (measures tracing's own overhead). */
export const noopTracer: NativeTracer<Record<string, never>> = {
  name: 'noopTracer',
  parseConfig: () => ({}),
  needs: () => ({ logs: false, steps: false, state: false }),
  render: () => ({}),
}
