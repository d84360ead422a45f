import { BaseError } from '../../errors/base.js'
import { JsTracerInterrupt } from './jsTracerGlobals.js'

/** A JavaScript tracer's source that does not make a tracer: geth's words. */
export class JsTracerError extends BaseError {
  override name = 'JsTracerError'
}

/** The methods geth calls on a JavaScript tracer (result and fault required; enter and exit together). */
export type JsTracerObject = {
  result: (...args: unknown[]) => unknown
  fault: (...args: unknown[]) => unknown
  step?: ((...args: unknown[]) => unknown) | undefined
  enter?: ((...args: unknown[]) => unknown) | undefined
  exit?: ((...args: unknown[]) => unknown) | undefined
  setup?: ((...args: unknown[]) => unknown) | undefined
}

declare const Compartment: new (options?: {
  globals?: Record<string, unknown>
  __options__?: boolean
}) => {
  evaluate(source: string): unknown
}

/** The realm's stack trace limit as it was before any tracer ran. */
let stackTraceLimit: number | undefined

/**
 * Evaluates a tracer's source as geth does — `(` source `)`, an expression that must give an object
 * with `result()` and `fault()`, optionally `step()`, `enter()` with `exit()`, and `setup()` — in a
 * Compartment of its own: its global object holds nothing but `globals` (hardened: the tracer can
 * neither change them nor reach past them), and the realm's intrinsics are frozen by lockdown()
 * (hardenRealm), which must have run in this thread. A source that does not evaluate throws its
 * error; one that gives no tracer, geth's words.
 */
export function evaluateJsTracer(source: string, globals: Record<string, unknown>): JsTracerObject {
  if (typeof Compartment !== 'function' || !Object.isFrozen(Object.prototype)) {
    throw new JsTracerError('JavaScript tracers run only in a hardened thread (SES lockdown)')
  }
  // Host classes whose instances a tracer can catch are frozen with their prototypes (lockdown froze
  // only the realm's own intrinsics): nothing a tracer sets on them outlives its request.
  harden(JsTracerInterrupt)
  // The host realm's Error (the constructor of an error a host helper threw, which a tracer may
  // catch) keeps two realm-wide settings SES leaves settable: what an earlier tracer set there is
  // reset before this one runs (where a setting cannot be set, as in a browser's worker, no tracer
  // could set it either).
  stackTraceLimit ??= Error.stackTraceLimit
  try {
    ;(Error as { prepareStackTrace?: unknown }).prepareStackTrace = undefined
  } catch {}
  try {
    Error.stackTraceLimit = stackTraceLimit
  } catch {}
  const compartment = new Compartment({ globals: harden({ ...globals }), __options__: true })
  const value = compartment.evaluate(`(${source}\n)`)
  const object = (typeof value === 'object' || typeof value === 'function') && value !== null ? value : {}
  const tracer = object as Record<string, unknown>
  const fn = (name: string) =>
    typeof tracer[name] === 'function' ? (tracer[name] as (...args: unknown[]) => unknown) : undefined
  if (!fn('result')) throw new JsTracerError('trace object must expose a function result()')
  if (!fn('fault')) throw new JsTracerError('trace object must expose a function fault()')
  if (Boolean(fn('enter')) !== Boolean(fn('exit')))
    throw new JsTracerError('trace object must expose either both or none of enter() and exit()')
  return tracer as JsTracerObject
}
