import { UnknownTracerError } from '../errors/execution.js'
import { callTracer } from './tracers/callTracer.js'
import { flatCallTracer } from './tracers/flatCallTracer.js'
import { fourByteTracer } from './tracers/fourByteTracer.js'
import { createMuxTracer } from './tracers/muxTracer.js'
import { noopTracer } from './tracers/noopTracer.js'
import { prestateTracer } from './tracers/prestateTracer.js'
import { sourceTracer } from './tracers/sourceTracer.js'
import type { NativeTracer } from './tracers/types.js'
import { BUILTIN_JS_TRACERS } from './js/builtinJsTracers.js'

/**
 * geth's other built-in JavaScript tracers: no recorded results to check them against, so not
 * shipped; their names are answered as such (the same code sent as the tracer runs).
 */
const UNSERVED_JS_TRACERS = new Set([
  'bigramTracer',
  'evmdisTracer',
  'opcountTracer',
  'trigramTracer',
  'unigramTracer',
  'noopTracerLegacy',
  '4byteTracerLegacy',
])

const tracers = new Map<string, NativeTracer>()
for (const t of [callTracer, flatCallTracer, prestateTracer, fourByteTracer, noopTracer]) tracers.set(t.name, t)
tracers.set('muxTracer', createMuxTracer(lookupTracer))
tracers.set(sourceTracer.name, sourceTracer)

/** The names a request may give as `tracer` (the struct logger is the default, with no name). */
export function knownTracers(): string[] {
  return [...tracers.keys(), ...BUILTIN_JS_TRACERS.keys()]
}

/** The source of geth's built-in JavaScript tracer `name`, when edgetrace serves it. */
export const builtinJsTracer = (name: string): string | undefined => BUILTIN_JS_TRACERS.get(name)

/** Whether `name` is a native tracer's. */
export const isKnownTracer = (name: string) => tracers.has(name)

/** The tracer registered under `name`; an unknown name is an error listing the known ones. */
export function lookupTracer(name: string): NativeTracer {
  const tracer = tracers.get(name)
  if (tracer) return tracer
  const known = knownTracers().join(', ')
  if (UNSERVED_JS_TRACERS.has(name))
    throw new UnknownTracerError(
      `tracer not found: ${name} is one of geth's JavaScript tracers that edgetrace does not ship; send its code as the tracer (known tracers: ${known})`,
    )
  throw new UnknownTracerError(`tracer not found: ${JSON.stringify(name)} (known tracers: ${known})`)
}
