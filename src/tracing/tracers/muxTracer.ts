import type { NativeTracer, TracerNeeds } from './types.js'

type Child = { name: string; tracer: NativeTracer; config: unknown }

/**
 * geth's muxTracer: `{tracerName: tracerConfig, …}` runs every child on ONE execution — the
 * recording is the union of the children's needs — and returns `{tracerName: result, …}`.
 */
export function createMuxTracer(lookup: (name: string) => NativeTracer): NativeTracer<Child[]> {
  return {
    name: 'muxTracer',
    parseConfig(raw) {
      return Object.entries(raw).map(([name, cfg]) => {
        const tracer = lookup(name)
        if (tracer.name === 'muxTracer') throw new Error('muxTracer cannot contain muxTracer')
        const obj = cfg === null || cfg === undefined ? {} : cfg
        if (typeof obj !== 'object' || Array.isArray(obj))
          throw new Error(`invalid tracerConfig for muxTracer: ${name} must be an object`)
        return { name, tracer, config: tracer.parseConfig(obj as Record<string, unknown>) }
      })
    },
    needs(children): TracerNeeds {
      const all = children.map((c) => c.tracer.needs(c.config))
      return {
        logs: all.some((n) => n.logs),
        steps: all.some((n) => n.steps),
        state: all.some((n) => n.state),
        preimages: all.some((n) => n.preimages === true),
      }
    },
    local: (children) => children.some((c) => c.tracer.local?.(c.config) === true),
    // A child may answer with a promise (the source tracer looks sources up first): then so does the mux.
    render(run, children) {
      const results = children.map((c) => [c.name, c.tracer.render(run, c.config)] as const)
      if (!results.some(([, r]) => r instanceof Promise)) return Object.fromEntries(results)
      return Promise.all(results.map(async ([name, r]) => [name, await r] as const)).then(Object.fromEntries)
    },
  }
}
