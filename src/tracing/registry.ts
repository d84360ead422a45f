import { UnknownTracerError } from '../errors/execution.js'
import { callTracer } from './tracers/callTracer.js'
import { flatCallTracer } from './tracers/flatCallTracer.js'
import { fourByteTracer } from './tracers/fourByteTracer.js'
import { createMuxTracer } from './tracers/muxTracer.js'
import { noopTracer } from './tracers/noopTracer.js'
import { prestateTracer } from './tracers/prestateTracer.js'
import type { NativeTracer } from './tracers/types.js'

/** geth's built-in JavaScript tracers: known names, not served (no JavaScript tracer engine). */
const JS_TRACERS = new Set([
  'bigramTracer',
  'evmdisTracer',
  'opcountTracer',
  'trigramTracer',
  'unigramTracer',
  'callTracerLegacy',
  'prestateTracerLegacy',
  'noopTracerLegacy',
  '4byteTracerLegacy',
])

const tracers = new Map<string, NativeTracer>()
for (const t of [callTracer, flatCallTracer, prestateTracer, fourByteTracer, noopTracer]) tracers.set(t.name, t)
tracers.set('muxTracer', createMuxTracer(lookupTracer))

/** The names a request may give as `tracer` (the struct logger is the default, with no name). */
export function knownTracers(): string[] {
  return [...tracers.keys()]
}

/** Whether `name` is a native tracer's. */
export const isKnownTracer = (name: string) => tracers.has(name)

/** The tracer registered under `name`; an unknown name is an error listing the known ones. */
export function lookupTracer(name: string): NativeTracer {
  const tracer = tracers.get(name)
  if (tracer) return tracer
  const known = knownTracers().join(', ')
  if (JS_TRACERS.has(name))
    throw new UnknownTracerError(
      `tracer not found: ${name} is a JavaScript tracer, which edgetrace does not run (known tracers: ${known})`,
    )
  if (/[{}();]/.test(name))
    throw new UnknownTracerError(`tracer not found: JavaScript tracer code is not supported (known tracers: ${known})`)
  throw new UnknownTracerError(`tracer not found: ${JSON.stringify(name)} (known tracers: ${known})`)
}
